import Feed

/// A time of day as a schedule names it: a clock time (`22:30`), or sunrise
/// or sunset with an offset (`sunset+30m`, `sunrise-1h`).
public struct ClockTime: Equatable, Sendable, CustomStringConvertible {
    public enum Anchor: String, Sendable {
        case midnight, sunrise, sunset
    }
    public var anchor: Anchor
    public var offsetMinutes: Int

    public init(anchor: Anchor, offsetMinutes: Int) {
        self.anchor = anchor
        self.offsetMinutes = offsetMinutes
    }

    /// `HH:MM`, `sunrise`, `sunset`, either with `+N`/`-N` minutes (`m`) or hours (`h`).
    public init?(parsing text: String) {
        let t = text.lowercased().filter { $0 != " " }
        for anchor in [Anchor.sunrise, .sunset] where t.hasPrefix(anchor.rawValue) {
            let rest = t.dropFirst(anchor.rawValue.count)
            guard let offset = rest.isEmpty ? 0 : ClockTime.offset(rest), abs(offset) <= 12 * 60 else { return nil }
            self.init(anchor: anchor, offsetMinutes: offset)
            return
        }
        let parts = t.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count <= 2, parts[1].count == 2, let h = Int(parts[0]), let m = Int(parts[1]),
              (0...23).contains(h), (0...59).contains(m), parts.allSatisfy({ $0.allSatisfy(\.isASCII) }) else { return nil }
        self.init(anchor: .midnight, offsetMinutes: h * 60 + m)
    }

    /// `+30m`, `-1h`, `+45` (minutes).
    private static func offset(_ text: Substring) -> Int? {
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        var digits = text.dropFirst()
        var scale = 1
        if digits.hasSuffix("h") { scale = 60; digits = digits.dropLast() } else if digits.hasSuffix("m") { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(digits), n <= 24 * 60 else { return nil }
        return (sign == "-" ? -n : n) * scale
    }

    public var usesSun: Bool { anchor != .midnight }

    /// The moment it names on `date` where the kiosk stands; nil when the sun
    /// does not rise or set that day.
    public func moment(on date: CivilDate, at place: GeoPoint?, calendar: LocalCalendar) -> Double? {
        switch anchor {
        case .midnight: return calendar.moment(date, offsetMinutes)
        case .sunrise: return place.flatMap { SolarAlmanac.sunrise(on: date, at: $0).moment }.map { $0 + Double(offsetMinutes * 60) }
        case .sunset: return place.flatMap { SolarAlmanac.sunset(on: date, at: $0).moment }.map { $0 + Double(offsetMinutes * 60) }
        }
    }

    public var description: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        switch anchor {
        case .midnight: return "\(two(offsetMinutes / 60)):\(two(offsetMinutes % 60))"
        case .sunrise, .sunset:
            return anchor.rawValue + (offsetMinutes == 0 ? "" : (offsetMinutes > 0 ? "+" : "-") + "\(abs(offsetMinutes))m")
        }
    }
}

/// The night: from one time of day to another (past midnight when the
/// second comes earlier in the day), every day. Each night is worked out
/// for its own day, so sunset-based nights follow the seasons.
public struct NightSchedule: Equatable, Sendable {
    public var from: ClockTime
    public var until: ClockTime

    public init(from: ClockTime, until: ClockTime) {
        self.from = from
        self.until = until
    }

    public var usesSun: Bool { from.usesSun || until.usesSun }

    /// The night that begins on `date`, as moments; nil when that day has none
    /// (the sun never sets, or both ends are the same time).
    public func night(beginningOn date: CivilDate, at place: GeoPoint?, calendar: LocalCalendar) -> Range<Double>? {
        guard let start = from.moment(on: date, at: place, calendar: calendar) else { return nil }
        for days in 0...1 {
            if let end = until.moment(on: date.adding(days: days), at: place, calendar: calendar), end > start {
                return end - start < 86_400 ? start..<end : nil
            }
        }
        return nil
    }

    /// Whether `moment` is in a night, and the next moment that may change it.
    public func state(at moment: Double, at place: GeoPoint?, calendar: LocalCalendar) -> (isNight: Bool, nextChange: Double?) {
        let today = calendar.date(moment)
        var isNight = false
        var next: Double?
        for days in -1...1 {
            guard let night = night(beginningOn: today.adding(days: days), at: place, calendar: calendar) else { continue }
            if night.contains(moment) { isNight = true }
            for edge in [night.lowerBound, night.upperBound] where edge > moment { next = min(next ?? edge, edge) }
        }
        return (isNight, next)
    }
}
