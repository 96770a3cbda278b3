import JSON

/// An aircraft as the card shows it. Every field but the callsign may be unknown.
public struct Aircraft: Equatable, Sendable {
    public var callsign: String
    public var type: String?
    public var route: String?
    /// Pressure altitude in feet; nil when unknown.
    public var altitudeFeet: Int?
    public var onGround: Bool
    public var groundSpeedKnots: Int?
    public var distanceNM: Double?
    public var bearingDegrees: Double?

    public init(callsign: String, type: String? = nil, route: String? = nil, altitudeFeet: Int? = nil,
                onGround: Bool = false, groundSpeedKnots: Int? = nil, distanceNM: Double? = nil, bearingDegrees: Double? = nil) {
        self.callsign = callsign
        self.type = type
        self.route = route
        self.altitudeFeet = altitudeFeet
        self.onGround = onGround
        self.groundSpeedKnots = groundSpeedKnots
        self.distanceNM = distanceNM
        self.bearingDegrees = bearingDegrees
    }
}

/// What the kiosk shows: an empty sky, or an aircraft overhead; plus a small
/// status note (a feed that went away, say).
public struct KioskState: Equatable, Sendable {
    public enum Mode: String, Sendable { case standby, overflight }

    public var mode: Mode
    public var aircraft: Aircraft?
    public var note: String?

    public init(mode: Mode = .standby, aircraft: Aircraft? = nil, note: String? = nil) {
        self.mode = mode
        self.aircraft = aircraft
        self.note = note
    }

    public static let standby = KioskState()

    /// A state error: which field of the input, and what is wrong.
    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public let description: String
        init(_ field: String, _ problem: String) { description = "\(field): \(problem)" }
    }

    /// Reads `{"mode":"standby"}` or `{"mode":"overflight","aircraft":{...}}` (ARCHITECTURE.md).
    public init(json: JSONValue, field: String = "state") throws {
        guard let object = json.objectValue else { throw ParseError(field, "expected an object") }
        for key in object.keys where !["mode", "aircraft", "note"].contains(key) {
            throw ParseError("\(field).\(key)", "unknown field")
        }
        guard let modeText = object["mode"]?.stringValue else { throw ParseError("\(field).mode", "expected \"standby\" or \"overflight\"") }
        guard let mode = Mode(rawValue: modeText) else { throw ParseError("\(field).mode", "\"\(modeText)\" is not standby or overflight") }
        self.mode = mode
        if let note = object["note"], !note.isNull {
            guard let text = note.stringValue else { throw ParseError("\(field).note", "expected a string") }
            self.note = text
        }
        if let a = object["aircraft"], !a.isNull {
            aircraft = try Aircraft(json: a, field: "\(field).aircraft")
        } else if mode == .overflight {
            throw ParseError("\(field).aircraft", "required when mode is overflight")
        }
    }

    public var json: JSONValue {
        var o: [String: JSONValue] = ["mode": .string(mode.rawValue)]
        if let aircraft { o["aircraft"] = aircraft.json }
        if let note { o["note"] = .string(note) }
        return .object(o)
    }
}

extension Aircraft {
    static let fields = ["callsign", "type", "route", "altitude_ft", "on_ground", "ground_speed_kt", "distance_nm", "bearing_deg"]

    public init(json: JSONValue, field: String) throws {
        guard let o = json.objectValue else { throw KioskState.ParseError(field, "expected an object") }
        for key in o.keys where !Aircraft.fields.contains(key) { throw KioskState.ParseError("\(field).\(key)", "unknown field") }
        func string(_ key: String, maxLength: Int) throws -> String? {
            guard let v = o[key], !v.isNull else { return nil }
            guard let s = v.stringValue else { throw KioskState.ParseError("\(field).\(key)", "expected a string") }
            guard s.count <= maxLength else { throw KioskState.ParseError("\(field).\(key)", "longer than \(maxLength) characters") }
            return s
        }
        func number(_ key: String, _ range: ClosedRange<Double>) throws -> Double? {
            guard let v = o[key], !v.isNull else { return nil }
            guard let n = v.doubleValue else { throw KioskState.ParseError("\(field).\(key)", "expected a number") }
            guard range.contains(n) else {
                throw KioskState.ParseError("\(field).\(key)", "\(n) is outside \(range.lowerBound)...\(range.upperBound)")
            }
            return n
        }
        guard let callsign = try string("callsign", maxLength: 12), !callsign.trimmed().isEmpty else {
            throw KioskState.ParseError("\(field).callsign", "required (a non-empty string)")
        }
        self.callsign = callsign.trimmed()
        type = try string("type", maxLength: 12)
        route = try string("route", maxLength: 40)
        altitudeFeet = try number("altitude_ft", -2000...99_999).map { Int($0.rounded()) }
        if let g = o["on_ground"], !g.isNull {
            guard let b = g.boolValue else { throw KioskState.ParseError("\(field).on_ground", "expected true or false") }
            onGround = b
        } else {
            onGround = false
        }
        groundSpeedKnots = try number("ground_speed_kt", 0...2000).map { Int($0.rounded()) }
        distanceNM = try number("distance_nm", 0...1000)
        bearingDegrees = try number("bearing_deg", 0...360)
    }

    public var json: JSONValue {
        var o: [String: JSONValue] = ["callsign": .string(callsign)]
        if let type { o["type"] = .string(type) }
        if let route { o["route"] = .string(route) }
        if let altitudeFeet { o["altitude_ft"] = .number(Double(altitudeFeet)) }
        if onGround { o["on_ground"] = .bool(true) }
        if let groundSpeedKnots { o["ground_speed_kt"] = .number(Double(groundSpeedKnots)) }
        if let distanceNM { o["distance_nm"] = .number(distanceNM) }
        if let bearingDegrees { o["bearing_deg"] = .number(bearingDegrees) }
        return .object(o)
    }
}


