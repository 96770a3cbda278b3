import JSON
import SystemIO

/// A command with the time it runs at, from an autoplay file: `{"at":1.5,"cmd":"set",...}`.
public struct TimedCommand: Equatable, Sendable {
    public var at: Double
    public var command: KioskCommand

    /// Reads an autoplay file's text; blank lines and lines starting with # are skipped.
    /// Errors name the line.
    public static func parseScript(_ text: String, name: String) throws -> [TimedCommand] {
        var result: [TimedCommand] = []
        for (i, raw) in text.textLines.enumerated() {
            let line = raw.trimmed(" \t\r")
            if line.isEmpty || line.hasPrefix("#") { continue }
            do {
                let json = try JSONParser.parse(line)
                guard let at = json["at"]?.doubleValue, at.isFinite, at >= 0 else {
                    throw CommandError("missing \"at\" (seconds from the start, at least 0)")
                }
                result.append(TimedCommand(at: at, command: try KioskCommand.parse(json, allowing: ["at"])))
            } catch let e as JSONError {
                throw CommandError("\(name):\(i + 1): malformed JSON at \(e)")
            } catch {
                throw CommandError("\(name):\(i + 1): \(error)")
            }
        }
        return result.sorted { $0.at < $1.at }
    }
}
