import KioskModel
import SystemIO

/// Keeps standby's corner current: the local time at each minute, and
/// today's overflights whenever the overflight log changes (a batch written,
/// a line added by hand, the file rotated) or the kiosk ends one it has not
/// written yet. The log is read from its end back to yesterday's first line,
/// on the loop; nothing is built per frame.
final class StandbyCorner: EventSource {
    /// What the corner shows (a reload may change it).
    var choice: StandbyInfoChoice { didSet { isStale = true } }
    let units: DisplayUnits
    /// The overflight log, nil without one (then only the clock).
    let logPath: String?
    /// The overflights the kiosk has ended but not written yet.
    let unwritten: () -> [Overflight]
    private let watch: DirectoryWatch?
    private let logName: String
    private var isStale = true
    private var nextMinute = 0.0
    /// Whether standby is shown: the corner is hidden otherwise, and a settled
    /// card wakes nothing at the minute; it is brought up to date on the way back.
    var isShown = true {
        didSet { if isShown && !oldValue { isStale = true } }
    }

    init(choice: StandbyInfoChoice, units: DisplayUnits, logPath: String?, unwritten: @escaping () -> [Overflight]) {
        self.choice = choice
        self.units = units
        self.logPath = logPath
        self.unwritten = unwritten
        let place = logPath.map(DirectoryWatch.directoryAndName)
        logName = place?.name ?? ""
        watch = place.flatMap { try? DirectoryWatch($0.directory, for: [.closedAfterWriting, .movedIn, .movedOut, .created, .deleted]) }
    }

    func forEachDescriptor(_ body: (Int32) -> Void) {
        if let watch { body(watch.descriptor) }
    }

    var nextWake: Double? {
        guard choice.showsAnything || isStale else { return nil }
        return isStale ? 0 : isShown ? nextMinute : nil
    }

    /// The kiosk ended an overflight: today's figures changed before the log did.
    func overflightEnded() { isStale = true }

    func service(now: Double) -> [KioskEvent] {
        watch?.drain { name, _ in
            if name == logName || name == logName + ".1" { isStale = true }
        }
        if let watch, !watch.isWatching { watch.rewatch() }
        guard choice.showsAnything else {
            defer { isStale = false }
            return isStale ? [.standbyInfo(.none)] : []
        }
        guard isStale || (isShown && now >= nextMinute) else { return [] }
        isStale = false
        let wall = WallClock.now()
        // Just after the next minute begins (zones are whole minutes from UTC, near enough).
        let intoMinute = wall.truncatingRemainder(dividingBy: 60)
        nextMinute = now + 60 - intoMinute + 0.05
        let local = WallClock.local(wall)
        var today: OverflightDay?
        if choice.showsToday, let logPath {
            var day = OverflightDay(log: logPath, today: WallClock.day(wall))
            for overflight in unwritten() { day.add(overflight) }
            today = day
        }
        return [.standbyInfo(StandbyInfo(choice, hour: local.hour, minute: local.minute, today: today, now: wall, units: units))]
    }
}
