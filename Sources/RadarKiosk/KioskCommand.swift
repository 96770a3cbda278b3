import JSON

/// A command from stdin, the control socket, or an autoplay file (ARCHITECTURE.md).
public enum KioskCommand: Equatable, Sendable {
    case set(KioskState)
    case get
    case screenshot(path: String)

    /// Parses one JSON line; the error says what is wrong in one line.
    public static func parse(_ line: String) throws -> KioskCommand {
        let json: JSONValue
        do { json = try JSONParser.parse(line) } catch let e as JSONError {
            throw CommandError("malformed JSON at \(e)")
        }
        return try parse(json)
    }

    public static func parse(_ json: JSONValue, allowing extra: Set<String> = []) throws -> KioskCommand {
        guard let o = json.objectValue else { throw CommandError("a command is a JSON object") }
        guard let name = o["cmd"]?.stringValue else { throw CommandError("missing \"cmd\" (set, get or screenshot)") }
        func onlyKeys(_ keys: Set<String>) throws {
            for key in o.keys where !keys.contains(key) && !extra.contains(key) {
                throw CommandError("\(name): unknown field \"\(key)\"")
            }
        }
        switch name {
        case "set":
            try onlyKeys(["cmd", "state"])
            guard let state = o["state"] else { throw CommandError("set: missing \"state\"") }
            do { return .set(try KioskState(json: state)) } catch let e as KioskState.ParseError {
                throw CommandError("set: \(e)")
            }
        case "get":
            try onlyKeys(["cmd"])
            return .get
        case "screenshot":
            try onlyKeys(["cmd", "path"])
            guard let path = o["path"]?.stringValue, !path.isEmpty else { throw CommandError("screenshot: missing \"path\"") }
            return .screenshot(path: path)
        default:
            throw CommandError("unknown command \"\(name)\" (expected set, get or screenshot)")
        }
    }

    /// `{"ok":false,"error":"..."}`
    public static func errorReply(_ message: String) -> String {
        JSONValue.object(["ok": .bool(false), "error": .string(message)]).serialized
    }

    public static let okReply = JSONValue.object(["ok": .bool(true)]).serialized

    /// `{"ok":true,"state":{...},"animating":false}`
    public static func stateReply(_ state: KioskState, animating: Bool) -> String {
        JSONValue.object(["ok": .bool(true), "state": state.json, "animating": .bool(animating)]).serialized
    }
}

/// What is wrong with a command, in one line.
public struct CommandError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A command with the time it runs at, from an autoplay file: `{"at":1.5,"cmd":"set",...}`.
public struct TimedCommand: Equatable, Sendable {
    public var at: Double
    public var command: KioskCommand

    /// Reads an autoplay file's text; blank lines and lines starting with # are skipped.
    /// Errors name the line.
    public static func parseScript(_ text: String, name: String) throws -> [TimedCommand] {
        var result: [TimedCommand] = []
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
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



/// The built-in demo: an overflight, numbers updating, a second aircraft
/// replacing the first, back to standby, and a change of mind mid-glide.
public enum Demo {
    public static let script: [TimedCommand] = {
        func over(_ callsign: String, _ type: String, _ route: String, _ alt: Int, _ gs: Int, _ dist: Double, _ brg: Double) -> KioskCommand {
            .set(KioskState(mode: .overflight, aircraft: Aircraft(callsign: callsign, type: type, route: route, altitudeFeet: alt,
                                                                  groundSpeedKnots: gs, distanceNM: dist, bearingDegrees: brg)))
        }
        return [
            TimedCommand(at: 0, command: .set(.standby)),
            TimedCommand(at: 2.0, command: over("BAW283", "B789", "LHR → LAX", 36_000, 487, 3.2, 274)),
            TimedCommand(at: 4.5, command: over("BAW283", "B789", "LHR → LAX", 36_500, 489, 2.8, 281)),
            TimedCommand(at: 6.5, command: over("BAW283", "B789", "LHR → LAX", 37_000, 492, 2.1, 290)),
            TimedCommand(at: 8.5, command: over("DLH4AB", "A20N", "FRA → MAN", 9_750, 312, 4.6, 118)),
            TimedCommand(at: 10.5, command: over("DLH4AB", "A20N", "FRA → MAN", 10_000, 318, 3.9, 126)),
            TimedCommand(at: 12.5, command: .set(.standby)),
            TimedCommand(at: 15.0, command: over("EZY81QK", "A319", "BFS → LGW", 8_200, 286, 2.4, 40)),
            // A change of mind mid-glide: the spring retargets without a jump.
            TimedCommand(at: 15.35, command: .set(.standby)),
        ]
    }()

    /// The demo's aircraft, for keys that ask for one.
    public static let aircraft: [Aircraft] = script.compactMap { entry in
        if case let .set(state) = entry.command { return state.aircraft } else { return nil }
    }.reduce(into: [Aircraft]()) { list, a in if !list.contains(where: { $0.callsign == a.callsign }) { list.append(a) } }

    /// Seconds the demo runs: the last command plus time for it to settle.
    public static let duration = 18.0
}
