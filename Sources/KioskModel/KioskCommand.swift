import Feed
import JSON

/// A command from stdin, the control socket, or an autoplay file (ARCHITECTURE.md).
public enum KioskCommand: Equatable, Sendable {
    case set(KioskState)
    case get
    case screenshot(path: String)
    /// Forces the screen on or off, or gives it back to the schedule; optionally sets
    /// the daytime brightness (0...1).
    case screen(ScreenOverride?, brightness: Double?)
    /// Switches the screen on for the linger time.
    case wake

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
        guard let name = o["cmd"]?.stringValue else { throw CommandError("missing \"cmd\" (set, get, screenshot, screen or wake)") }
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
        case "screen":
            try onlyKeys(["cmd", "power", "brightness"])
            var power: ScreenOverride?
            if let value = o["power"] {
                guard let text = value.stringValue, let p = ScreenOverride(rawValue: text) else {
                    throw CommandError("screen: \"power\" is \"on\", \"off\" or \"auto\"")
                }
                power = p
            }
            var brightness: Double?
            if let value = o["brightness"] {
                guard let percent = value.doubleValue, percent.isFinite, (1...100).contains(percent) else {
                    throw CommandError("screen: \"brightness\" is a percentage from 1 to 100")
                }
                brightness = percent / 100
            }
            guard power != nil || brightness != nil else { throw CommandError("screen: needs \"power\" or \"brightness\"") }
            return .screen(power, brightness: brightness)
        case "wake":
            try onlyKeys(["cmd"])
            return .wake
        default:
            throw CommandError("unknown command \"\(name)\" (expected set, get, screenshot, screen or wake)")
        }
    }

    /// `{"ok":false,"error":"..."}`
    public static func errorReply(_ message: String) -> String {
        JSONValue.object(["ok": .bool(false), "error": .string(message)]).serialized
    }

    public static let okReply = JSONValue.object(["ok": .bool(true)]).serialized

    /// `{"ok":true,"state":{...},"animating":false,"screen":"on"}`, and with
    /// a feed `"feeds":[{"name":"...","live":true}]`.
    public static func stateReply(_ state: KioskState, animating: Bool, screen: ScreenPower, feeds: [FeedSourceStatus]? = nil,
                                  blips: [(address: String, x: Double, y: Double)] = [], standbyInfo: StandbyInfo = .none) -> String {
        var screenJSON: [String: JSONValue] = ["power": .string(screen.isOn ? "on" : "off")]
        if case let .on(brightness) = screen { screenJSON["brightness"] = .number((brightness * 100).rounded()) }
        var reply: [String: JSONValue] = ["ok": .bool(true), "state": state.json, "animating": .bool(animating), "screen": .object(screenJSON)]
        if let feeds { reply["feeds"] = feedsJSON(feeds) }
        // What standby's corner says (shown in standby only).
        if standbyInfo != .none {
            var corner: [String: JSONValue] = ["lines": .array(standbyInfo.lines.map(JSONValue.string))]
            if let clock = standbyInfo.clock { corner["clock"] = .string(clock) }
            reply["standby_info"] = .object(corner)
        }
        // Where each blip is drawn on the first output now (px): what a tap there chooses.
        if !blips.isEmpty {
            reply["blips"] = .array(blips.map { .object(["address": .string($0.address), "x": .number($0.x.rounded()), "y": .number($0.y.rounded())]) })
        }
        return JSONValue.object(reply).serialized
    }

    /// The sources as `get` and MQTT's `feeds` topic give them.
    public static func feedsJSON(_ feeds: [FeedSourceStatus]) -> JSONValue {
        .array(feeds.map { .object(["name": .string($0.name), "live": .bool($0.isLive)]) })
    }
}

/// What is wrong with a command, in one line.
public struct CommandError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
