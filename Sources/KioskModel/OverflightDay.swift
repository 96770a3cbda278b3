import SystemIO

/// Today's overflights, as the standby corner and home automation tell
/// them: how many began on this local day, the lowest and the closest pass
/// of the day, and the last one to end (on any day). It is read from the
/// overflight log, so a restart does not set today back to nothing, and
/// follows the overflights that end afterwards.
public struct OverflightDay: Equatable, Sendable {
    /// The local day counted ("2026-12-06").
    public private(set) var day: String
    /// Overflights that began on `day`.
    public private(set) var count = 0
    /// The day's lowest pass (its lowest altitude) and closest pass.
    public private(set) var lowest: Overflight?
    public private(set) var closest: Overflight?
    /// The most recent overflight to end.
    public private(set) var last: Overflight?

    public init(day: String) { self.day = day }

    /// The day that the log at `path` (and its rotated `.1`) tells as of
    /// `today`. The log is in time order, so it is read from its end back to
    /// the first line of an earlier day: a year's log costs what today's
    /// lines do. Lines that are not the log's (a hand edit, a torn last
    /// line) are passed over; an unreadable log counts nothing.
    public init(log path: String?, today: String, dayOf: (Double) -> String = WallClock.day) {
        self.init(day: today)
        guard let path else { return }
        for file in [path, path + ".1"] {
            // The log rotates at 1 MiB: more than four is not the kiosk's log.
            guard let text = try? FileContents.text(file, limit: 4 << 20) else { continue }
            var reachedEarlierDay = false
            for line in text.textLines.reversed() {
                guard let overflight = Overflight(jsonLine: String(line)) else { continue }
                if last == nil { last = overflight }
                let began = dayOf(overflight.start)
                if began < today { reachedEarlierDay = true; break }
                if began == today { take(overflight) }
            }
            if reachedEarlierDay { break }
        }
    }

    /// Takes an overflight that ended; a later day than the one counted starts a new count.
    public mutating func add(_ overflight: Overflight, dayOf: (Double) -> String = WallClock.day) {
        let began = dayOf(overflight.start)
        if began > day { roll(to: began) }
        if began == day { take(overflight) }
        if overflight.end >= last?.end ?? -.infinity { last = overflight }
    }

    private mutating func take(_ overflight: Overflight) {
        count += 1
        if let feet = overflight.lowestFeet, feet < lowest?.lowestFeet ?? .max { lowest = overflight }
        if let nm = overflight.closestNM, nm < closest?.closestNM ?? .infinity { closest = overflight }
    }

    /// The local day is now `today`: a new day's figures start from nothing.
    public mutating func roll(to today: String) {
        guard today != day else { return }
        day = today
        count = 0
        lowest = nil
        closest = nil
    }
}
