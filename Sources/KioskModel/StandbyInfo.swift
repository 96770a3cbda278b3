/// What standby's quiet corner shows while the sky is empty: the local time,
/// and today's overflights from the log (how many, the lowest and the
/// closest pass, the last one and how long ago). Built when the log changes
/// and at the minute, never per frame.
public struct StandbyInfo: Equatable, Sendable {
    /// "14:05", when the clock is shown.
    public var clock: String?
    /// Today's figures, a line each, at most `maximumLines`.
    public var lines: [String]

    public static let maximumLines = 4
    public static let none = StandbyInfo(clock: nil, lines: [])

    public init(clock: String?, lines: [String]) {
        self.clock = clock
        self.lines = Array(lines.prefix(Self.maximumLines))
    }

    /// The corner for `choice` at local time `hour`:`minute` (wall-clock
    /// `now`), with `today`'s figures in `units`. Callsigns come from feeds
    /// and the log: they are shown as one clean line, or not at all.
    public init(_ choice: StandbyInfoChoice, hour: Int, minute: Int, today: OverflightDay?, now: Double, units: DisplayUnits) {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var lines: [String] = []
        if choice.showsToday, let today {
            func who(_ o: Overflight) -> String { ShownText.problem(o.callsign, maximumLength: 12) == nil ? Aircraft.shownCallsign(o.callsign) : "?" }
            lines.append(today.count == 0 ? "No overflights yet today" : "\(DisplayUnits.grouped(today.count)) overflight\(today.count == 1 ? "" : "s") today")
            if let lowest = today.lowest, let feet = lowest.lowestFeet {
                lines.append("Lowest \(who(lowest)) · " + units.altitudeText(Aircraft(callsign: lowest.callsign, altitudeFeet: feet)).text)
            }
            if let closest = today.closest, let nm = closest.closestNM {
                lines.append("Closest \(who(closest)) · " + units.distanceText(nm).text)
            }
            if let last = today.last {
                lines.append("Last \(who(last)) · " + Self.ago(now - last.end))
            }
        }
        self.init(clock: choice.showsClock ? "\(two(hour)):\(two(minute))" : nil, lines: lines)
    }

    /// "just now", "12 min ago", "3 h ago", "2 days ago".
    static func ago(_ seconds: Double) -> String {
        let minutes = Int(max(seconds, 0) / 60)
        if minutes < 1 { return "just now" }
        if minutes < 60 { return "\(minutes) min ago" }
        if minutes < 48 * 60 { return "\(minutes / 60) h ago" }
        return "\(minutes / 1440) days ago"
    }
}

/// What the standby corner shows (`standby.info`): the clock, today's figures, both or nothing.
public struct StandbyInfoChoice: Equatable, Sendable {
    public var showsClock: Bool
    public var showsToday: Bool

    public init(showsClock: Bool, showsToday: Bool) {
        self.showsClock = showsClock
        self.showsToday = showsToday
    }

    public static let clockAndToday = StandbyInfoChoice(showsClock: true, showsToday: true)
    public static let nothing = StandbyInfoChoice(showsClock: false, showsToday: false)

    public var showsAnything: Bool { showsClock || showsToday }
}
