#if canImport(Glibc)
import Glibc
#endif
import KioskModel
import SystemIO

/// `radar-kiosk log [--file FILE] [--day YYYY-MM-DD]`: the day's overflights
/// from the log (today by default, local time), one line each, and counts.
public enum OverflightReport {
    public static let defaultFile = "/var/lib/radar-kiosk/overflights.jsonl"

    public static func run(_ args: ParsedArguments) throws -> Int32 {
        let file = args.value("--file") ?? OverflightLogChoice.auto.path(stateDirectory: getenvString("STATE_DIRECTORY")) ?? defaultFile
        let day = args.value("--day") ?? WallClock.day(WallClock.now())
        guard day.count == 10, WallClock.isDay(day) else { throw ArgumentError("--day \(day): expected YYYY-MM-DD") }
        var lines: [String] = []
        var unreadable: String?
        for path in [file + ".1", file] {
            // Absent is no log; present but closed to this user (the state
            // directory is the service's) says so rather than "no log".
            if access(path, F_OK) != 0 && errno == ENOENT { continue }
            do {
                lines += try FileContents.text(path, limit: 64 << 20).textLines.map(String.init)
            } catch {
                unreadable = "\(error)"
            }
        }
        if let unreadable, lines.isEmpty {
            throw ArgumentError("\(unreadable) (the log is the radar-kiosk service's: run as root, or --file FILE for a copy)")
        }
        guard access(file, F_OK) == 0 || access(file + ".1", F_OK) == 0 else {
            throw ArgumentError("\(file): no overflight log (the service writes it to its state directory; --file FILE for another)")
        }
        let today = lines.compactMap(Overflight.init(jsonLine:)).filter { WallClock.day($0.start) == day }.sorted { $0.start < $1.start }
        for o in today { print(line(o)) }
        let aircraft = Set(today.map(\.callsign)).count
        let closest = today.compactMap(\.closestNM).min()
        print("\(day): \(today.count) overflight\(today.count == 1 ? "" : "s"), \(aircraft) aircraft"
              + (closest.map { ", closest \(DisplayUnits().distanceText($0).text)" } ?? "")
              + (today.contains { $0.alert != nil } ? ", \(today.filter { $0.alert != nil }.count) alerts" : ""))
        return 0
    }

    /// "14:05  BAW283  B789  LHR → LAX  closest 1.2 NM  2,900–3,400 ft"
    static func line(_ o: Overflight) -> String {
        let t = WallClock.local(o.start)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var parts = ["\(two(t.hour)):\(two(t.minute))", ExternalText.oneLine(o.callsign, maximumBytes: 16)]
        if let type = o.type { parts.append(ExternalText.oneLine(type, maximumBytes: 8)) }
        if let route = o.route { parts.append(ExternalText.oneLine(route, maximumBytes: 40)) }
        if let closest = o.closestNM { parts.append("closest " + DisplayUnits().distanceText(closest).text) }
        if let low = o.lowestFeet, let high = o.highestFeet {
            parts.append(low == high ? "\(DisplayUnits.grouped(low)) ft" : "\(DisplayUnits.grouped(low))–\(DisplayUnits.grouped(high)) ft")
        }
        if let alert = o.alert { parts.append(ExternalText.oneLine(alert, maximumBytes: 24)) }
        return parts.joined(separator: "  ")
    }

    static func getenvString(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
}
