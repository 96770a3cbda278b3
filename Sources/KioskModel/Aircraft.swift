import JSON

/// An aircraft as the card shows it. Every field but the callsign may be
/// unknown. Values are checked where they are read, so what the card draws is
/// always finite and in range.
public struct Aircraft: Equatable, Sendable {
    public var callsign: String
    public var type: String?
    public var route: String?
    /// Who flies it: the airline's name (from the callsign) or the operator.
    public var airline: String?
    /// What it is: the type's manufacturer and model, or its category.
    public var model: String?
    /// Why it is worth looking up for ("EMERGENCY 7700", "MILITARY", "WATCHED"), if it is.
    public var alert: String?
    /// Pressure altitude in feet; nil when unknown.
    public var altitudeFeet: Int?
    public var onGround: Bool
    public var groundSpeedKnots: Int?
    /// Climb (positive) or descent in feet per minute.
    public var verticalRateFeetPerMinute: Int?
    public var distanceNM: Double?
    public var bearingDegrees: Double?
    /// Its track over the ground, compass degrees: where its symbol on the dial points.
    public var trackDegrees: Double?
    /// How far along its route's leg it is, when the route is the standing data's and fits.
    public var journey: Journey?
    /// Its registration ("G-ZBKA"), from the feed or a database.
    public var registration: String?
    /// The country its address was assigned by ("United Kingdom"), and its ISO code ("GB") for a card with less room.
    public var country: String?
    public var countryCode: String?
    /// The transponder code it squawks, four octal digits ("7421").
    public var squawk: String?
    /// Its pass, once it has left the overhead zone and its card is held.
    public var passage: Passage?

    public init(callsign: String, type: String? = nil, route: String? = nil, airline: String? = nil, model: String? = nil,
                journey: Journey? = nil, altitudeFeet: Int? = nil, onGround: Bool = false, groundSpeedKnots: Int? = nil, distanceNM: Double? = nil,
                bearingDegrees: Double? = nil, verticalRateFeetPerMinute: Int? = nil, alert: String? = nil, trackDegrees: Double? = nil) {
        self.trackDegrees = trackDegrees
        self.journey = journey
        self.verticalRateFeetPerMinute = verticalRateFeetPerMinute
        self.alert = alert
        self.callsign = callsign
        self.type = type
        self.route = route
        self.airline = airline
        self.model = model
        self.altitudeFeet = altitudeFeet
        self.onGround = onGround
        self.groundSpeedKnots = groundSpeedKnots
        self.distanceNM = distanceNM
        self.bearingDegrees = bearingDegrees
    }

    /// The callsign as a person reads it: an aircraft known only by a
    /// non-ICAO address (TIS-B's "~298FB7", a pseudo-address the ground made
    /// up) is "Unidentified"; the address stays its identity underneath.
    public static func shownCallsign(_ callsign: String) -> String {
        callsign.hasPrefix("~") ? "Unidentified" : callsign
    }

    static let fields = ["callsign", "type", "route", "airline", "model", "altitude_ft", "on_ground", "ground_speed_kt", "distance_nm", "bearing_deg",
                         "vertical_rate_fpm", "alert", "track_deg", "journey", "registration", "country", "country_code", "squawk", "passage"]

    /// The longest registration the card takes (the longest in the data is ten).
    public static let registrationLength = 12

    /// A squawk as the card shows it: four octal digits, else nil.
    public static func checkedSquawk(_ s: String) -> String? {
        s.utf8.count == 4 && s.utf8.allSatisfy({ $0 >= 48 && $0 <= 55 }) ? s : nil
    }

    /// The longest airline or model name the card takes.
    public static let nameLength = 32
    /// The longest route the card takes, from a command or the routes file.
    public static let maximumRouteLength = 40

    /// The plausible range of each number the card shows.
    public static let altitudeRange = -2000.0...99_999
    public static let groundSpeedRange = 0.0...2000
    public static let distanceRange = 0.0...1000
    public static let bearingRange = 0.0...360
    public static let verticalRateRange = -60_000.0...60_000

    public init(json: JSONValue, field: String) throws {
        guard let o = json.objectValue else { throw KioskState.ParseError(field, "expected an object") }
        for key in o.keys where !Aircraft.fields.contains(key) { throw KioskState.ParseError("\(field).\(key)", "unknown field") }
        func string(_ key: String, maxLength: Int) throws -> String? {
            guard let v = o[key], !v.isNull else { return nil }
            guard let s = v.stringValue else { throw KioskState.ParseError("\(field).\(key)", "expected a string") }
            if let problem = ShownText.problem(s, maximumLength: maxLength) { throw KioskState.ParseError("\(field).\(key)", problem) }
            return s
        }
        func number(_ key: String, _ range: ClosedRange<Double>) throws -> Double? {
            guard let v = o[key], !v.isNull else { return nil }
            guard let n = v.doubleValue, n.isFinite else { throw KioskState.ParseError("\(field).\(key)", "expected a number") }
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
        route = try string("route", maxLength: Self.maximumRouteLength)
        airline = try string("airline", maxLength: Self.nameLength)
        model = try string("model", maxLength: Self.nameLength)
        altitudeFeet = try number("altitude_ft", Self.altitudeRange).map { Int($0.rounded()) }
        if let g = o["on_ground"], !g.isNull {
            guard let b = g.boolValue else { throw KioskState.ParseError("\(field).on_ground", "expected true or false") }
            onGround = b
        } else {
            onGround = false
        }
        groundSpeedKnots = try number("ground_speed_kt", Self.groundSpeedRange).map { Int($0.rounded()) }
        distanceNM = try number("distance_nm", Self.distanceRange)
        bearingDegrees = try number("bearing_deg", Self.bearingRange)
        verticalRateFeetPerMinute = try number("vertical_rate_fpm", Self.verticalRateRange).map { Int($0.rounded()) }
        trackDegrees = try number("track_deg", Self.bearingRange)
        alert = try string("alert", maxLength: 24)
        if let j = o["journey"], !j.isNull { journey = try Journey(json: j, field: "\(field).journey") }
        registration = try string("registration", maxLength: Self.registrationLength)
        country = try string("country", maxLength: Self.nameLength)
        countryCode = try string("country_code", maxLength: 2)
        if let code = countryCode, code.utf8.count != 2 || !code.utf8.allSatisfy({ $0 >= 65 && $0 <= 90 }) {
            throw KioskState.ParseError("\(field).country_code", "expected two capital letters (ISO 3166), not '\(code)'")
        }
        squawk = try string("squawk", maxLength: 4)
        if let code = squawk, Self.checkedSquawk(code) == nil {
            throw KioskState.ParseError("\(field).squawk", "expected four octal digits, not '\(code)'")
        }
        if let p = o["passage"], !p.isNull { passage = try Passage(json: p, field: "\(field).passage") }
    }

    public var json: JSONValue {
        var o: [String: JSONValue] = ["callsign": .string(callsign)]
        if let type { o["type"] = .string(type) }
        if let route { o["route"] = .string(route) }
        if let airline { o["airline"] = .string(airline) }
        if let model { o["model"] = .string(model) }
        if let altitudeFeet { o["altitude_ft"] = .number(Double(altitudeFeet)) }
        if onGround { o["on_ground"] = .bool(true) }
        if let groundSpeedKnots { o["ground_speed_kt"] = .number(Double(groundSpeedKnots)) }
        if let distanceNM { o["distance_nm"] = .number(distanceNM) }
        if let bearingDegrees { o["bearing_deg"] = .number(bearingDegrees) }
        if let trackDegrees { o["track_deg"] = .number(trackDegrees) }
        if let verticalRateFeetPerMinute { o["vertical_rate_fpm"] = .number(Double(verticalRateFeetPerMinute)) }
        if let alert { o["alert"] = .string(alert) }
        if let journey { o["journey"] = journey.json }
        if let registration { o["registration"] = .string(registration) }
        if let country { o["country"] = .string(country) }
        if let countryCode { o["country_code"] = .string(countryCode) }
        if let squawk { o["squawk"] = .string(squawk) }
        if let passage { o["passage"] = passage.json }
        return .object(o)
    }
}
