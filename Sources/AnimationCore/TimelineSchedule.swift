/// When a timeline re-runs its content (§7.1). Times are seconds on the
/// kiosk's monotonic clock.
public enum TimelineSchedule: Sendable, Equatable {
    /// Every `minimumInterval` from the start; none while paused.
    case animation(minimumInterval: Double = 1.0 / 120, paused: Bool = false)
    /// Aligned to `anchor`, every `interval`.
    case periodic(from: Double, by: Double)
    /// Whole minutes.
    case everyMinute
    /// Exactly these times, increasing.
    case explicit([Double])

    /// `context.date`: the latest entry at or before `now`, for a schedule
    /// created at `start`; nil when the schedule has none yet.
    public func date(at now: Double, start: Double) -> Double? {
        switch self {
        case let .animation(interval, paused):
            if paused { return start }
            let i = interval > 0 ? interval : 1.0 / 120
            if now < start { return nil }
            return start + ((now - start) / i).rounded(.down) * i
        case let .periodic(anchor, p):
            guard p > 0 else { return anchor }
            let first = anchor > start ? anchor : start - (start - anchor).truncatingRemainder(dividingBy: p)
            if now < first { return first > start ? first : nil }
            return first + ((now - first) / p).rounded(.down) * p
        case .everyMinute:
            return (now / 60).rounded(.down) * 60
        case let .explicit(dates):
            return dates.last(where: { $0 <= now })
        }
    }

    /// The first entry after `now`, or nil when there is none (paused, or the end of an explicit list).
    public func nextDate(after now: Double, start: Double) -> Double? {
        switch self {
        case let .animation(interval, paused):
            if paused { return nil }
            let i = interval > 0 ? interval : 1.0 / 120
            if now < start { return start }
            return start + (((now - start) / i).rounded(.down) + 1) * i
        case let .periodic(anchor, p):
            guard p > 0 else { return nil }
            let first = anchor > start ? anchor : start - (start - anchor).truncatingRemainder(dividingBy: p)
            if now < first { return first }
            return first + (((now - first) / p).rounded(.down) + 1) * p
        case .everyMinute:
            return ((now / 60).rounded(.down) + 1) * 60
        case let .explicit(dates):
            return dates.first(where: { $0 > now })
        }
    }

    /// The entries in `start...end`, for tests and for planning wake-ups.
    public func entries(from start: Double, through end: Double, limit: Int = 10_000) -> [Double] {
        var result: [Double] = []
        guard var t = date(at: start, start: start) ?? nextDate(after: start, start: start) else { return [] }
        if case .animation(_, true) = self { return [] }
        while t <= end && result.count < limit {
            result.append(t)
            guard let next = nextDate(after: t, start: start), next > t else { break }
            t = next
        }
        return result
    }
}

/// A clock driven by hand, for tests and for recording faster than real time.
public struct ManualClock: Sendable {
    public private(set) var now: Double
    public init(start: Double = 0) { now = start }
    public mutating func advance(by seconds: Double) { now += seconds }
    public mutating func set(_ time: Double) { now = time }
}
