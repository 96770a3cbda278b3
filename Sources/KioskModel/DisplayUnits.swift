/// The units the card shows each quantity in, and whether high altitudes
/// read as flight levels. The feed's numbers stay in aviation units (feet,
/// knots, nautical miles); they are converted only for the card.
public struct DisplayUnits: Equatable, Sendable {
    public enum Altitude: String, Sendable, CaseIterable { case feet = "ft", meters = "m" }
    public enum Speed: String, Sendable, CaseIterable { case knots = "kt", kilometresPerHour = "km/h", milesPerHour = "mph" }
    public enum Distance: String, Sendable, CaseIterable {
        case nauticalMiles = "nm", kilometres = "km", miles = "mi"

        /// How many of this unit make a nautical mile.
        public var perNauticalMile: Double {
            switch self {
            case .nauticalMiles: return 1
            case .kilometres: return 1.852
            case .miles: return 1.150779
            }
        }

        /// The unit as the card writes it.
        public var symbol: String {
            switch self {
            case .nauticalMiles: return "NM"
            case .kilometres: return "km"
            case .miles: return "mi"
            }
        }
    }

    public var altitude = Altitude.feet
    public var speed = Speed.knots
    public var distance = Distance.nauticalMiles
    /// Above this altitude (the transition altitude, in feet) the card shows a
    /// flight level ("FL360") instead; nil for never.
    public var flightLevelsAbove: Int?

    public init(altitude: Altitude = .feet, speed: Speed = .knots, distance: Distance = .nauticalMiles, flightLevelsAbove: Int? = nil) {
        self.altitude = altitude
        self.speed = speed
        self.distance = distance
        self.flightLevelsAbove = flightLevelsAbove
    }

    /// A climb or descent slower than this (feet per minute) is level flight: no marker.
    public static let levelRate = 300

    /// The altitude line: "36,000 ft", "10,973 m", "FL360", "GROUND" or "—";
    /// and the number it rolls by. Climb and descent are beside it
    /// (`verticalRateText`), so the digits of a right-aligned value never
    /// shift when an aircraft levels off.
    public func altitudeText(_ a: Aircraft?) -> (text: String, number: Double) {
        guard let a else { return ("—", 0) }
        if a.onGround { return ("GROUND", 0) }
        guard let feet = a.altitudeFeet else { return ("—", 0) }
        if let transition = flightLevelsAbove, feet > transition {
            let level = Int((Double(feet) / 100).rounded())
            return ("FL" + (level < 100 ? "0" : "") + (level < 10 ? "0" : "") + "\(level)", Double(level))
        }
        switch altitude {
        case .feet: return (Self.grouped(feet) + " ft", Double(feet))
        case .meters:
            let m = Int((Double(feet) * 0.3048).rounded())
            return (Self.grouped(m) + " m", Double(m))
        }
    }

    /// The climb or descent beside the altitude: the arrow, and the rate to
    /// the nearest 100 ft/min ("↑ 1,500 ft/min") or, with metres, 0.1 m/s
    /// ("↓ 4.6 m/s"); both empty in level flight or when unknown.
    public func verticalRateText(_ a: Aircraft?) -> (arrow: String, text: String) {
        guard let a, !a.onGround, a.altitudeFeet != nil, let rate = a.verticalRateFeetPerMinute, abs(rate) >= Self.levelRate else { return ("", "") }
        let arrow = rate > 0 ? "↑" : "↓"
        if altitude == .meters && flightLevelsAbove.map({ (a.altitudeFeet ?? 0) <= $0 }) ?? true {
            let tenths = Int((Double(abs(rate)) * 0.3048 / 60 * 10).rounded())
            return (arrow, "\(arrow) \(tenths / 10).\(tenths % 10) m/s")
        }
        let hundreds = Int((Double(abs(rate)) / 100).rounded()) * 100
        return (arrow, "\(arrow) " + Self.grouped(hundreds) + " ft/min")
    }

    /// The ground speed line: "487 kt", "902 km/h", "560 mph".
    public func speedText(_ knots: Int?) -> (text: String, number: Double) {
        guard let knots else { return ("—", 0) }
        let value: Int
        switch speed {
        case .knots: value = knots
        case .kilometresPerHour: value = Int((Double(knots) * 1.852).rounded())
        case .milesPerHour: value = Int((Double(knots) * 1.150779).rounded())
        }
        return (Self.grouped(value) + " " + speed.rawValue, Double(value))
    }

    /// The distance line, to a tenth: "3.2 NM", "5.9 km", "3.7 mi".
    public func distanceText(_ nauticalMiles: Double?) -> (text: String, number: Double) {
        guard let nm = nauticalMiles else { return ("—", 0) }
        let value: Double
        let unit: String
        switch distance {
        case .nauticalMiles: (value, unit) = (nm, "NM")
        case .kilometres: (value, unit) = (nm * 1.852, "km")
        case .miles: (value, unit) = (nm * 1.150779, "mi")
        }
        let tenths = Int((value * 10).rounded())
        return ("\(Self.grouped(tenths / 10)).\(abs(tenths % 10)) " + unit, Double(tenths) / 10)
    }

    /// Thousands separated by commas.
    public static func grouped(_ n: Int) -> String {
        let digits = String(abs(n))
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return n < 0 ? "-" + out : out
    }
}
