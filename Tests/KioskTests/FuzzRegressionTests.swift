import Testing
import Feed
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

    @Test(arguments: ["command", "config", "aircraft", "sbs"])
    func replay(target: String) throws {
        let inputs = files(Self.root + "regressions/\(target)/") + files(Self.root + "seeds/\(target)/")
        for path in inputs {
            let text = try FileContents.text(path)
            switch target {
            case "command":
                for line in text.split(separator: "\n") { _ = try? KioskCommand.parse(String(line)) }
                _ = try? TimedCommand.parseScript(text, name: path)
            case "config":
                _ = KioskConfiguration.parse(text, name: path)
            case "aircraft":
                _ = try? AircraftJSON.parse(Array(text.utf8))
            default:
                var d = SBS1Decoder()
                for line in text.split(separator: "\n") { d.feed(line, at: 0) }
                _ = d.snapshot(at: 1)
            }
        }
        if target == "command" || target == "config" { #expect(!inputs.isEmpty) }
    }
}

#if canImport(Glibc)
import Glibc
#endif
