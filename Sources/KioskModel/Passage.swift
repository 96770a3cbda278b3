import JSON

/// An aircraft's pass over the station, told once it has left the overhead
/// zone while its card is still held: how long it was overhead and how close
/// it came. The overflight log keeps the same figures.
public struct Passage: Equatable, Sendable {
    /// From its card coming up to its leaving the zone, in seconds.
    public var overheadSeconds: Double
    /// The nearest it came to the station, in nautical miles.
    public var closestNM: Double

    /// A pass is at most a few hours (a helicopter hovering, a balloon).
    public static let durationRange = 0.0...86_400

    public init(overheadSeconds: Double, closestNM: Double) {
        self.overheadSeconds = overheadSeconds
        self.closestNM = closestNM
    }

    /// How long it was overhead: "45 s", "2 min 10 s", "1 h 5 min".
    public var durationText: String {
        let seconds = Int(overheadSeconds.rounded())
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return "\(seconds / 60) min" + (seconds % 60 == 0 ? "" : " \(seconds % 60) s") }
        return "\(seconds / 3600) h" + (seconds % 3600 / 60 == 0 ? "" : " \(seconds % 3600 / 60) min")
    }

    /// As a command or a `get` reply writes it: `{"overhead_s": 130, "closest_nm": 0.4}`.
    public init(json: JSONValue, field: String) throws {
        guard let o = json.objectValue else { throw KioskState.ParseError(field, "expected an object") }
        for key in o.keys where !["overhead_s", "closest_nm"].contains(key) { throw KioskState.ParseError("\(field).\(key)", "unknown field") }
        func number(_ key: String, _ range: ClosedRange<Double>) throws -> Double {
            guard let v = o[key], let n = v.doubleValue, n.isFinite else { throw KioskState.ParseError("\(field).\(key)", "required (a number)") }
            guard range.contains(n) else { throw KioskState.ParseError("\(field).\(key)", "\(n) is outside \(range.lowerBound)...\(range.upperBound)") }
            return n
        }
        overheadSeconds = try number("overhead_s", Self.durationRange)
        closestNM = try number("closest_nm", Aircraft.distanceRange)
    }

    public var json: JSONValue {
        .object(["overhead_s": .number(overheadSeconds.rounded()), "closest_nm": .number((closestNM * 10).rounded() / 10)])
    }
}
