import JSON
import SystemIO

/// Which aircraft are worth looking up for: declared emergencies (squawk
/// 7500, 7600, 7700, readsb's `emergency`, SBS's flag), military aircraft
/// (readsb's database flags, else the address's block), and a watch list. An alert has its own radius
/// and ceiling, wider than an ordinary overflight's, and comes first.
public struct AlertRules: Equatable, Sendable {
    public var emergencies = true
    public var military = true
    /// Entries: a hex address, a registration, a callsign prefix or a type designator, upper case.
    public var watchList: [WatchEntry] = [] { didSet { watchIndex = WatchIndex(watchList) } }
    private var watchIndex = WatchIndex([])
    public var radiusNM = 10.0
    public var ceilingFeet = 45_000

    /// One line of the watch list.
    public enum WatchEntry: Equatable, Sendable {
        case address(String), registration(String), callsignPrefix(String), type(String)
    }

    public init() {}

    /// What the card says about an aircraft worth an alert, or nil.
    /// `inMilitaryBlock` says its address is in a block a country keeps for
    /// its military (the standing data's): it counts for a feed that sends no
    /// database flags; where readsb sends them, its database decides.
    public func alert(for r: AircraftReport, inMilitaryBlock: Bool = false) -> String? {
        if emergencies {
            switch r.squawk {
            case "7500": return "EMERGENCY 7500"
            case "7600": return "EMERGENCY 7600"
            case "7700": return "EMERGENCY 7700"
            default: break
            }
            if let e = r.emergency { return "EMERGENCY" + (e == "emergency" || e == "general" ? "" : " " + e.uppercased()) }
        }
        if military && (r.isMilitary || (r.databaseFlags == nil && inMilitaryBlock)) { return "MILITARY" }
        return watchIndex.matches(r) ? "WATCHED" : nil
    }

    /// A watch-list file: one entry a line, `hex:4CA7B5`, `reg:G-EUPT`,
    /// `callsign:RRR`, `type:A400`; `#` comments; bad lines named by number.
    public static func watchList(_ text: String, name: String) throws -> [WatchEntry] {
        var entries: [WatchEntry] = []
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)?.trimmed() ?? ""
            if line.isEmpty { continue }
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmed().uppercased() }
            guard parts.count == 2, let value = Plausible.identifier(parts[1], length: 12) else {
                throw AlertRulesError("\(name):\(i + 1): expected hex:, reg:, callsign: or type: and a value, not '\(ExternalText.oneLine(line, maximumBytes: 60))'")
            }
            switch parts[0] {
            case "HEX":
                guard value.count == 6, value.allSatisfy(\.isHexDigit) else { throw AlertRulesError("\(name):\(i + 1): hex: expected six hex digits") }
                entries.append(.address(value))
            case "REG": entries.append(.registration(value))
            case "CALLSIGN": entries.append(.callsignPrefix(value))
            case "TYPE": entries.append(.type(value))
            default: throw AlertRulesError("\(name):\(i + 1): expected hex:, reg:, callsign: or type:, not '\(ExternalText.oneLine(parts[0], maximumBytes: 20))'")
            }
        }
        return entries
    }
}

/// A watch-list problem, naming the file and line.
public struct AlertRulesError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
