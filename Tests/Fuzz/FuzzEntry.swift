// libFuzzer entry point for the parsers that take hostile input, built by
// Tests/Fuzz/fuzz.sh with the fuzzer and AddressSanitizer (-D FUZZING); the
// target is chosen by $FUZZ_TARGET: command, config, aircraft or sbs. A parser
// may reject anything; it must never crash, hang or run away with memory.
// Built without FUZZING (by every `swift build`), it only says how to run it.
#if canImport(Glibc)
import Glibc
#endif
import Feed
import JSON
import KioskModel

enum FuzzTarget: String {
    case command, config, aircraft, sbs

    static let chosen: FuzzTarget = {
        guard let name = getenv("FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name) else {
            fatalError("set FUZZ_TARGET to command, config, aircraft or sbs")
        }
        return target
    }()

    /// Feeds one input to the target's parser and uses what it returns.
    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        switch chosen {
        case .command:
            for line in text.textLines {
                if let command = try? KioskCommand.parse(String(line)), case let .set(state) = command {
                    _ = state.json.serialized
                }
            }
            _ = try? TimedCommand.parseScript(text, name: "fuzz")
        case .config:
            let (config, _) = KioskConfiguration.parse(text, name: "fuzz")
            if let station = config.station { _ = config.selectorSettings(station: station) }
        case .aircraft:
            if let snapshot = try? AircraftJSON.parse(bytes) {
                let interpreter = FeedInterpreter(sourceName: "fuzz", selector: OverheadSelector(settings: .init(station: GeoPoint(latitude: 33.635029, longitude: -117.842218))))
                _ = interpreter.state(after: [.snapshot(snapshot)], now: 0, log: { _ in })
            }
        case .sbs:
            var decoder = SBS1Decoder()
            for line in text.split(separator: "\n") { decoder.feed(line, at: 0) }
            let interpreter = FeedInterpreter(sourceName: "fuzz", selector: OverheadSelector(settings: .init(station: GeoPoint(latitude: 48.4, longitude: 9.7))))
            _ = interpreter.state(after: [.snapshot(decoder.snapshot(at: 1))], now: 1, log: { _ in })
        }
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTarget.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
#else
@main
struct FuzzUsage {
    static func main() {
        print("radar-kiosk-fuzz is a libFuzzer target: run it with bash Tests/Fuzz/fuzz.sh [SECONDS] [TARGET...]")
    }
}
#endif
