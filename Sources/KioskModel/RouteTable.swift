import Feed
import JSON
import SystemIO

/// The user's own routes: a file of lines `CALLSIGN ROUTE` (`#` comments),
/// which win over the standing data's. Checked line by line where it is read:
/// a callsign is what a transponder can send, and a route is what the card can
/// draw (the length and characters a `show` command's route may have), so a
/// hand-made or generated file cannot put control characters, bidi overrides
/// or a 200,000-character line on the screen, into MQTT or into the log.
public enum RouteTable {
    /// The most a routes file may hold. It is for a few corrections and local
    /// flights and is kept in memory whole; the world's routes are in the
    /// standing data, mapped from disk.
    public static let maximumBytes = 2 << 20

    /// Callsign (upper case) → route, from `text`, the file named `name`; a
    /// bad line is an error naming its number and what is wrong.
    public static func parse(_ text: String, name: String) throws -> [String: String] {
        guard text.utf8.count <= maximumBytes else {
            throw ArgumentError("\(name): larger than \(maximumBytes >> 20) MiB: a routes file is for your own corrections (the standing data carries the world's routes)")
        }
        var table: [String: String] = [:]
        for (i, raw) in text.textLines.enumerated() {
            let line = raw.trimmed(" \t\r")
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let space = line.firstIndex(of: " ") else { throw ArgumentError("\(name):\(i + 1): expected 'CALLSIGN ROUTE'") }
            guard let callsign = Plausible.identifier(line[..<space], length: 8) else {
                throw ArgumentError("\(name):\(i + 1): '\(ExternalText.oneLine(String(line[..<space]), maximumBytes: 20))' is not a callsign (letters and digits, at most 8)")
            }
            let route = line[space...].trimmed(" ")
            if let problem = ShownText.problem(route, maximumLength: Aircraft.maximumRouteLength) {
                throw ArgumentError("\(name):\(i + 1): the route for \(callsign): \(problem)")
            }
            table[callsign] = route
        }
        return table
    }
}
