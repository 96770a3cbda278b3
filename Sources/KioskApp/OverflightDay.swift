import KioskModel
import SystemIO

/// Today's overflights as the kiosk tells them to home automation: how many
/// began on this local day, and the last one that ended (on any day). It
/// starts from the overflight log, so a restart does not set today's count
/// back to nothing, and follows the overflights that end afterwards.
struct OverflightDay: Equatable {
    /// The local day counted ("2026-12-06").
    private(set) var day: String
    /// Overflights that began on `day`.
    private(set) var count = 0
    /// The most recent overflight to end.
    private(set) var last: Overflight?

    init(day: String) { self.day = day }

    /// The day that `log` (the overflight log's file, and its rotated `.1`) tells, as of `today`.
    /// Lines that are not the log's (a hand edit, a torn last line) are passed over; an unreadable log counts nothing.
    init(log path: String?, today: String, dayOf: (Double) -> String = WallClock.day) {
        self.init(day: today)
        guard let path else { return }
        for file in [path + ".1", path] {
            // The log rotates at 1 MiB: more than twice that is not the kiosk's log.
            guard let text = try? FileContents.text(file, limit: 4 << 20) else { continue }
            for line in text.textLines {
                guard let overflight = Overflight(jsonLine: String(line)) else { continue }
                if dayOf(overflight.start) == today { count += 1 }
                if overflight.end >= last?.end ?? -.infinity { last = overflight }
            }
        }
    }

    /// Takes an overflight that ended; a later day than the one counted starts a new count.
    mutating func add(_ overflight: Overflight, dayOf: (Double) -> String = WallClock.day) {
        let began = dayOf(overflight.start)
        if began > day { day = began; count = 0 }
        if began == day { count += 1 }
        if overflight.end >= last?.end ?? -.infinity { last = overflight }
    }

    /// The local day is now `today`: a new day's count starts at nothing.
    mutating func roll(to today: String) {
        guard today != day else { return }
        day = today
        count = 0
    }
}
