import Feed
import JSON

/// What the kiosk shows: an empty sky, or an aircraft overhead; plus a small
/// status note (a feed that went away, say).
public struct KioskState: Equatable, Sendable {
    public enum Mode: String, Sendable { case standby, overflight }

    public var mode: Mode
    public var aircraft: Aircraft?
    public var note: String?
    /// The card is up because someone chose the aircraft on the dial (a tap),
    /// not because it is overhead: the status word says SELECTED.
    public var selected = false
    /// With several aircraft overhead, which of them the card shows ("2/3" on it).
    public var place: OverheadSelector.Place?

    public init(mode: Mode = .standby, aircraft: Aircraft? = nil, note: String? = nil, selected: Bool = false,
                place: OverheadSelector.Place? = nil) {
        self.mode = mode
        self.aircraft = aircraft
        self.note = note
        self.selected = selected
        self.place = place
    }

    public static let standby = KioskState()

    /// A note is one short line at the bottom of the screen.
    public static let maximumNoteLength = 120

    /// A state error: which field of the input, and what is wrong.
    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public let description: String
        init(_ field: String, _ problem: String) { description = "\(field): \(problem)" }
    }

    /// Reads `{"mode":"standby"}` or `{"mode":"overflight","aircraft":{...}}`
    /// (ARCHITECTURE.md). The place among several overhead is the feed's
    /// to say: written in `json`, passed over when read back.
    public init(json: JSONValue, field: String = "state") throws {
        guard let object = json.objectValue else { throw ParseError(field, "expected an object") }
        for key in object.keys where !["mode", "aircraft", "note", "selected", "place"].contains(key) {
            throw ParseError("\(field).\(key)", "unknown field")
        }
        guard let modeText = object["mode"]?.stringValue else { throw ParseError("\(field).mode", "expected \"standby\" or \"overflight\"") }
        guard let mode = Mode(rawValue: modeText) else { throw ParseError("\(field).mode", "\"\(modeText)\" is not standby or overflight") }
        self.mode = mode
        if let note = object["note"], !note.isNull {
            guard let text = note.stringValue else { throw ParseError("\(field).note", "expected a string") }
            if let problem = ShownText.problem(text, maximumLength: Self.maximumNoteLength) { throw ParseError("\(field).note", problem) }
            self.note = text
        }
        if let chosen = object["selected"], !chosen.isNull {
            guard let flag = chosen.boolValue else { throw ParseError("\(field).selected", "expected true or false") }
            selected = flag && mode == .overflight
        }
        // An overflight may come without an aircraft: something is overhead,
        // nothing more is known (a sensor, a home automation rule).
        if let a = object["aircraft"], !a.isNull {
            aircraft = try Aircraft(json: a, field: "\(field).aircraft")
        }
    }

    public var json: JSONValue {
        var o: [String: JSONValue] = ["mode": .string(mode.rawValue)]
        if let aircraft { o["aircraft"] = aircraft.json }
        if let note { o["note"] = .string(note) }
        if selected { o["selected"] = .bool(true) }
        if let place { o["place"] = .object(["index": .number(Double(place.index)), "count": .number(Double(place.count))]) }
        return .object(o)
    }
}
