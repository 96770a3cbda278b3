// libFuzzer entry points for the parsers that take hostile input. Built by
// Tests/Fuzz/fuzz.sh with one of FUZZ_COMMAND, FUZZ_CONFIG, FUZZ_AIRCRAFT, FUZZ_SBS.
// A parser may reject anything; it must never crash, hang or run away with memory.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    #if FUZZ_COMMAND
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if let command = try? KioskCommand.parse(String(line)), case let .set(state) = command {
            _ = state.json.serialized
        }
    }
    _ = try? TimedCommand.parseScript(text, name: "fuzz")
    #elseif FUZZ_CONFIG
    let (config, _) = KioskConfiguration.parse(text, name: "fuzz")
    if let station = config.station { _ = config.selectorSettings(station: station) }
    #elseif FUZZ_AIRCRAFT
    if let snapshot = try? AircraftJSON.parse(bytes) {
        var selector = OverheadSelector(settings: .init(station: GeoPoint(latitude: 33.635029, longitude: -117.842218)))
        _ = selector.update(snapshot, at: 0)
    }
    #elseif FUZZ_SBS
    var decoder = SBS1Decoder()
    for line in text.split(separator: "\n") { decoder.feed(line, at: 0) }
    var selector = OverheadSelector(settings: .init(station: GeoPoint(latitude: 48.4, longitude: 9.7)))
    _ = selector.update(decoder.snapshot(at: 1), at: 1)
    #endif
    return 0
}
