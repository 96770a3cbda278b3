/// The clock of a `TimelineView`: `context.date` for a schedule that can be
/// paused and resumed, as SwiftUI's `.animation(minimumInterval:paused:)`
/// does it (§7.1, §7.2). While paused there are no entries and the date stays
/// what it was when the pause began; on resuming, entries are regenerated from
/// that moment, so the date is the current time's again, not the paused one
/// plus the time since. Anything the kiosk draws from a running clock (the
/// sweep, a blinking alert, a clock face) reads its date here.
public struct Timeline: Sendable, Equatable {
    public let minimumInterval: Double
    public private(set) var isPaused: Bool
    /// When the running schedule was (re)created.
    private var start: Double
    /// The date kept while paused.
    private var heldDate: Double

    public init(minimumInterval: Double = 1.0 / 120, paused: Bool = false, at time: Double = 0) {
        self.minimumInterval = minimumInterval
        isPaused = paused
        start = time
        heldDate = time
    }

    /// The schedule in force, as a `TimelineSchedule`.
    public var schedule: TimelineSchedule { .animation(minimumInterval: minimumInterval, paused: isPaused) }

    /// Pauses or resumes at `time`. Pausing keeps the date of the last entry at or before `time`.
    public mutating func setPaused(_ paused: Bool, at time: Double) {
        guard paused != isPaused else { return }
        if paused {
            heldDate = date(at: time)
        } else {
            start = time
        }
        isPaused = paused
    }

    /// `context.date` at `now`: the latest entry at or before it, or the held date while paused.
    public func date(at now: Double) -> Double {
        if isPaused { return heldDate }
        return schedule.date(at: now, start: start) ?? start
    }

    /// When the content must run again after `now` (nil while paused).
    public func nextDate(after now: Double) -> Double? {
        schedule.nextDate(after: now, start: start)
    }
}
