import JSON

/// How far an aircraft is along the leg its route says it flies: what the
/// card's journey line draws (origin to destination, the aircraft's place
/// between them) and says (flown, to go, and where to).
public struct Journey: Equatable, Sendable {
    /// Great-circle distance from the origin to the aircraft's place along
    /// the leg, in nautical miles.
    public var flownNM: Double
    /// From that place to the destination.
    public var toGoNM: Double
    /// The destination's city as the standing data names it ("Los Angeles").
    public var destinationCity: String?

    /// The longest city name the card takes.
    public static let cityLength = 32

    /// The longest leg there is (half the earth's circumference is 10,800 NM).
    public static let distanceRange = 0.0...10_800

    public init(flownNM: Double, toGoNM: Double, destinationCity: String? = nil) {
        self.flownNM = flownNM
        self.toGoNM = toGoNM
        self.destinationCity = destinationCity
    }

    /// The aircraft's place along the leg, 0 at the origin and 1 at the destination.
    public var fraction: Double {
        let total = flownNM + toGoNM
        return total > 0 ? min(max(flownNM / total, 0), 1) : 0
    }

    /// The two texts under the line: "1,055 NM flown" at its left and
    /// "4,394 NM to Los Angeles" ("… to go" without a city) at its right.
    public func texts(_ units: DisplayUnits) -> (flown: String, toGo: String) {
        func distance(_ nm: Double) -> String {
            DisplayUnits.grouped(Int((nm * units.distance.perNauticalMile).rounded())) + " " + units.distance.symbol
        }
        return (distance(flownNM) + " flown", distance(toGoNM) + (destinationCity.map { " to " + $0 } ?? " to go"))
    }

    /// As a command or a `get` reply writes it: `{"flown_nm": 1055, "to_go_nm": 4394, "city": "Los Angeles"}`.
    public init(json: JSONValue, field: String) throws {
        guard let o = json.objectValue else { throw KioskState.ParseError(field, "expected an object") }
        for key in o.keys where !["flown_nm", "to_go_nm", "city"].contains(key) { throw KioskState.ParseError("\(field).\(key)", "unknown field") }
        func distance(_ key: String) throws -> Double {
            guard let v = o[key], let n = v.doubleValue, n.isFinite else { throw KioskState.ParseError("\(field).\(key)", "required (a number)") }
            guard Self.distanceRange.contains(n) else {
                throw KioskState.ParseError("\(field).\(key)", "\(n) is outside \(Self.distanceRange.lowerBound)...\(Self.distanceRange.upperBound)")
            }
            return n
        }
        flownNM = try distance("flown_nm")
        toGoNM = try distance("to_go_nm")
        if let v = o["city"], !v.isNull {
            guard let city = v.stringValue else { throw KioskState.ParseError("\(field).city", "expected a string") }
            if let problem = ShownText.problem(city, maximumLength: Self.cityLength) { throw KioskState.ParseError("\(field).city", problem) }
            destinationCity = city
        }
    }

    public var json: JSONValue {
        var o: [String: JSONValue] = ["flown_nm": .number((flownNM * 10).rounded() / 10), "to_go_nm": .number((toGoNM * 10).rounded() / 10)]
        if let destinationCity { o["city"] = .string(destinationCity) }
        return .object(o)
    }
}
