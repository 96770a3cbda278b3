#if canImport(Glibc)
import Glibc
#endif
import Display
import Feed
import KioskModel
import KioskRendering
import Raster
import SystemIO

/// Puts the controller's screen decision on the display. As a source it
/// watches the wall clock for the night schedule (telling the controller
/// when a night begins or ends) and wakes when a linger runs out; `apply`
/// then blanks or lights the display and sets the backlight's level, or,
/// without a backlight, dims the picture itself.
final class ScreenControl: EventSource {
    /// Every output's tick: all are blanked, lit and dimmed together.
    var ticks: [FrameTick]
    /// A new schedule or station (a reload) is read at the next turn, not when the old one said to look again (up to 30 s).
    var schedule: NightSchedule? { didSet { nextCheck = 0 } }
    var station: GeoPoint? { didSet { nextCheck = 0 } }
    let calendar: LocalCalendar
    let backlight: Backlight?
    /// The backlight's level at start, put back at exit.
    private let startBrightness: Double?
    private var applied = ScreenPower.on(brightness: 1)
    private var night = false
    private var nextCheck = 0.0
    private var saidClockUnset = false
    private var lastServiced = 0.0
    /// When the backlight's level is written again after waking: some panels
    /// come back from DPMS off at full brightness, whatever was set before.
    private var rewriteBrightnessAt: Double?
    /// Seconds after waking that the level is written again: the screen is lit by the next present, a frame later.
    static let wakeSettle = 0.5
    /// Called after the display followed a change (for MQTT's screen state).
    var changed: ((Double) -> Void)?
    /// The wall clock before this is not set yet (a board without a real-time clock before NTP).
    static let earliestPlausibleTime = 1_577_836_800.0   // 2020-01-01

    init(ticks: [FrameTick], schedule: NightSchedule?, station: GeoPoint?, backlight: Backlight?, calendar: LocalCalendar = .system) {
        self.ticks = ticks
        self.schedule = schedule
        self.station = station
        self.backlight = backlight
        self.calendar = calendar
        startBrightness = try? backlight?.brightness()
    }

    var controller: KioskController { ticks[0].controller }

    /// The clock being set (NTP, date -s) makes the schedule be read again at once.
    private let clockChanges = WallClockChanges()

    func forEachDescriptor(_ body: (Int32) -> Void) {
        if schedule != nil, let clockChanges { body(clockChanges.descriptor.rawValue) }
    }

    var nextWake: Double? {
        let deadline = min(controller.screen.deadline(after: lastServiced) ?? .infinity, rewriteBrightnessAt ?? .infinity)
        guard schedule != nil else { return deadline.isFinite ? deadline : nil }
        return min(nextCheck, deadline)
    }

    func service(now: Double) -> [KioskEvent] {
        lastServiced = now
        if let clockChanges, clockChanges.consume() { nextCheck = now }
        if let at = rewriteBrightnessAt, now >= at {
            rewriteBrightnessAt = nil
            if case let .on(brightness) = applied, let backlight {
                do { try backlight.setBrightness(brightness) } catch { Log.line("radar-kiosk: \(error)") }
            }
        }
        var events: [KioskEvent] = []
        if let schedule, now >= nextCheck {
            let wall = WallClock.now()
            if wall < Self.earliestPlausibleTime {
                if !saidClockUnset { Log.line("radar-kiosk: the clock is not set yet: the night schedule waits for it") }
                saidClockUnset = true
                nextCheck = now + 10
            } else {
                let (isNight, change) = schedule.state(at: wall, at: station, calendar: calendar)
                // Never longer than 30 s: the wall clock may be set or jump (NTP, summer time).
                nextCheck = now + min(max((change ?? .infinity) - wall, 0.05), 30)
                if isNight != night {
                    night = isNight
                    events.append(.night(isNight))
                }
            }
        }
        if events.isEmpty { apply(at: now) }
        return events
    }

    /// Makes the display follow the controller's decision at `time`.
    func apply(at time: Double) {
        let power = controller.screenPower(at: time)
        guard power != applied else { return }
        let before = applied
        applied = power
        for tick in ticks {
            do { try tick.presenter?.setScreenOn(power.isOn) } catch { Log.line("radar-kiosk: \(error)") }
        }
        switch power {
        case .off:
            if let backlight { _ = try? backlight.setPower(false) }
        case let .on(brightness):
            // Lowered by the backlight or in the picture, the text is drawn to read at the brightness.
            for tick in ticks where tick.renderer.screenBrightness != brightness {
                tick.renderer.screenBrightness = brightness
                tick.view.requestRepaint()
            }
            if let backlight {
                do {
                    try backlight.setBrightness(brightness)
                    if before == .off {
                        try backlight.setPower(true)
                        rewriteBrightnessAt = time + Self.wakeSettle
                    }
                } catch { Log.line("radar-kiosk: \(error)") }
            } else {
                let dimming = brightness < 1 ? LinearDimming(brightness: brightness) : nil
                for tick in ticks where dimming != tick.dimming {
                    tick.dimming = dimming
                    tick.view.requestRepaint()
                }
            }
        }
        Log.line("radar-kiosk: screen \(power)" + (backlight.map { " (backlight \($0.name))" } ?? ""))
        changed?(time)
    }

    /// Leaves the panel lit as it was found (the console shows after the kiosk).
    func restore() {
        guard let backlight else { return }
        _ = try? backlight.setPower(true)
        if let startBrightness { try? backlight.setBrightness(startBrightness) }
    }
}

extension LocalCalendar {
    /// The system's time zone (TZ, /etc/localtime), summer time included.
    static let system = LocalCalendar(
        date: { seconds in
            let d = WallClock.local(seconds)
            return CivilDate(year: d.year, month: d.month, day: d.day)
        },
        moment: { date, minutes in WallClock.moment(year: date.year, month: date.month, day: date.day, minutes: minutes) })
}
