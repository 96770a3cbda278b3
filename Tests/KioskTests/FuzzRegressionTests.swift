import Testing
@testable import Feed
import JSON
import SystemIO
@testable import KioskModel

/// Every input a fuzzer ever crashed on stays here as a regression test
/// (Tests/Fuzz/regressions/TARGET/), replayed through the same parser. The
/// seeds run too, so the replay itself is exercised even while no crash is known.
@Suite struct FuzzRegressionTests {
    static let root: String = {
        let parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        return parts.prefix(while: { $0 != "Tests" }).joined(separator: "/") + "/Tests/Fuzz/"
    }()

    func files(_ dir: String) -> [String] {
        Directory.entries(of: dir).filter { !$0.split(separator: "/").last!.hasPrefix(".") }
    }

    /// What every report from any input must hold: numbers finite and in range, text printable.
    static func expectPlausible(_ reports: [AircraftReport], _ path: String) {
        for r in reports {
            #expect(r.altitudeFeet.map { Plausible.altitudeFeet.contains(Double($0)) } ?? true, "\(path): altitude \(String(describing: r.altitudeFeet))")
            #expect(r.groundSpeedKnots.map { $0.isFinite && Plausible.groundSpeedKnots.contains($0) } ?? true, "\(path): gs")
            #expect(r.trackDegrees.map { $0.isFinite && Plausible.trackDegrees.contains($0) } ?? true, "\(path): track")
            #expect(r.latitude.map { $0.isFinite && abs($0) <= 90 } ?? true, "\(path): lat")
            #expect(r.longitude.map { $0.isFinite && abs($0) <= 180 } ?? true, "\(path): lon")
            for text in [r.callsign, r.registration, r.typeCode, r.squawk].compactMap({ $0 }) {
                #expect(text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }, "\(path): \(text)")
            }
        }
    }

    @Test(arguments: ["command", "config", "aircraft", "sbs"])
    func replay(target: String) throws {
        let inputs = files(Self.root + "regressions/\(target)/") + files(Self.root + "seeds/\(target)/")
        #expect(!inputs.isEmpty, "every target has inputs to replay")
        for path in inputs {
            let bytes = try FileContents.bytes(path)
            let text = String(decoding: bytes, as: UTF8.self)
            switch target {
            case "command":
                for line in text.textLines {
                    // A command either parses, or says in one line what is wrong.
                    do { _ = try KioskCommand.parse(String(line)) } catch {
                        #expect(!"\(error)".isEmpty && !"\(error)".contains("\n"), "\(path): \(error)")
                    }
                }
                do {
                    for entry in try TimedCommand.parseScript(text, name: path) { #expect(entry.at.isFinite && entry.at >= 0) }
                } catch {
                    #expect("\(error)".hasPrefix(path + ":"), "a script error names the file and line: \(error)")
                }
            case "config":
                let (config, problems) = KioskConfiguration.parse(text, name: path)
                for problem in problems { #expect(problem.hasPrefix(path) && !problem.contains("\n"), "\(problem)") }
                #expect(config.radiusNM.isFinite && config.refresh.map(\.isFinite) ?? true)
                if let station = config.station { #expect(station.latitude.isFinite && station.longitude.isFinite) }
            case "aircraft":
                if let snapshot = try? AircraftJSON.parse(bytes) {
                    #expect(snapshot.now.isFinite)
                    Self.expectPlausible(snapshot.aircraft, path)
                }
            default:
                var d = SBS1Decoder()
                for line in text.textLines { d.feed(line, at: 0) }
                Self.expectPlausible(d.snapshot(at: 1).aircraft, path)
            }
        }
    }
}
