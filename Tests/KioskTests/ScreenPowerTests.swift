import Testing
#if canImport(Glibc)
import Glibc
#endif
import Display
import Feed
import Raster
import SystemIO
@testable import KioskApp
@testable import KioskModel
@testable import KioskRendering

/// The screen at night and "on only while overhead": the almanac, the
/// schedule, the policy, the controller's inputs for it, the backlight, and
/// a dimmed picture that stays right while only the sweep is redrawn.
@Suite struct ScreenPowerTests {
    /// Minutes after local midnight of `date` for a moment, in a zone `offset` seconds east of UTC.
    func localMinutes(_ moment: Double?, _ date: CivilDate, offset: Int) -> Double {
        guard let moment else { return .nan }
        return (moment + Double(offset) - date.utcMidnight) / 60
    }

    /// timeanddate.com's sunrise and sunset for 21 June 2026 (local clock time,
    /// summer time where it applies), which PyEphem also gives to the minute.
    @Test(arguments: [
        ("London", 51.5074, -0.1278, 3600, 4 * 60 + 43, 21 * 60 + 21),
        ("Sydney", -33.8688, 151.2093, 36_000, 7 * 60 + 0, 16 * 60 + 54),
        ("Reykjavik", 64.1466, -21.9426, 0, 2 * 60 + 55, 24 * 60 + 4),   // sunset 00:04 the next day
    ])
    func sunriseAndSunsetMatchTheAlmanac(_ place: String, _ lat: Double, _ lon: Double, _ offset: Int, _ rise: Int, _ set: Int) {
        let date = CivilDate(year: 2026, month: 6, day: 21)
        let station = GeoPoint(latitude: lat, longitude: lon)
        let sunrise = localMinutes(SolarAlmanac.sunrise(on: date, at: station).moment, date, offset: offset)
        let sunset = localMinutes(SolarAlmanac.sunset(on: date, at: station).moment, date, offset: offset)
        #expect(abs(sunrise - Double(rise)) <= 2, "\(place): sunrise \(sunrise) min after midnight, the almanac \(rise)")
        #expect(abs(sunset - Double(set)) <= 2, "\(place): sunset \(sunset) min after midnight, the almanac \(set)")
    }

    @Test func thePolarDaysHaveNoSunriseOrSunset() {
        let tromso = GeoPoint(latitude: 69.65, longitude: 18.96)
        #expect(SolarAlmanac.sunset(on: CivilDate(year: 2026, month: 6, day: 21), at: tromso) == .sunAlwaysUp)
        #expect(SolarAlmanac.sunrise(on: CivilDate(year: 2026, month: 12, day: 21), at: tromso) == .sunAlwaysDown)
        // No night where the sun never sets: the screen stays on.
        let schedule = NightSchedule(from: ClockTime(parsing: "sunset")!, until: ClockTime(parsing: "sunrise")!)
        let noon = CivilDate(year: 2026, month: 6, day: 21).utcMidnight + 12 * 3600
        #expect(!schedule.state(at: noon + 12 * 3600, at: tromso, calendar: .fixedOffset(7200)).isNight)
    }

    @Test func civilDatesCountDaysBothWays() {
        for days in [-800_000, -1, 0, 59, 10_957, 20_624, 2_932_896] {
            #expect(CivilDate(daysSinceEpoch: days).daysSinceEpoch == days)
        }
        #expect(CivilDate(daysSinceEpoch: 0) == CivilDate(year: 1970, month: 1, day: 1))
        #expect(CivilDate(year: 2024, month: 2, day: 28).adding(days: 1) == CivilDate(year: 2024, month: 2, day: 29))
        #expect(CivilDate(year: 2026, month: 12, day: 31).adding(days: 1) == CivilDate(year: 2027, month: 1, day: 1))
    }

    @Test func clockTimesParseAndRefuse() {
        #expect(ClockTime(parsing: "22:30") == ClockTime(anchor: .midnight, offsetMinutes: 22 * 60 + 30))
        #expect(ClockTime(parsing: "7:05") == ClockTime(anchor: .midnight, offsetMinutes: 7 * 60 + 5))
        #expect(ClockTime(parsing: "sunset+30m") == ClockTime(anchor: .sunset, offsetMinutes: 30))
        #expect(ClockTime(parsing: "Sunrise-1h") == ClockTime(anchor: .sunrise, offsetMinutes: -60))
        #expect(ClockTime(parsing: "sunset + 45") == ClockTime(anchor: .sunset, offsetMinutes: 45))
        for bad in ["", "24:00", "12:60", "12", "1:2", "sunset+", "sunset*2", "sunrise+13h", "noon", "１２:00", "12:00:00"] {
            #expect(ClockTime(parsing: bad) == nil, "'\(bad)' should be refused")
        }
        var config = KioskConfiguration()
        #expect(throws: ConfigurationError.self) { try config.set("night.from", to: "25:00") }
        let (_, problems) = KioskConfiguration.parse("night.from = 22:00\n", name: "k.conf")
        #expect(problems.contains { $0.contains("night.from and night.until go together") }, "\(problems)")
        let (_, sunProblems) = KioskConfiguration.parse("night.from = sunset\nnight.until = sunrise\n", name: "k.conf")
        #expect(sunProblems.contains { $0.contains("needs the station") }, "\(sunProblems)")
    }

    /// 22:00 to 06:30 in a zone an hour east of UTC: night either side of midnight, and the next edge.
    @Test func aClockScheduleSpansMidnight() {
        let calendar = LocalCalendar.fixedOffset(3600)
        let schedule = NightSchedule(from: ClockTime(parsing: "22:00")!, until: ClockTime(parsing: "06:30")!)
        let day = CivilDate(year: 2026, month: 12, day: 2)
        func at(_ h: Int, _ m: Int, plusDays: Int = 0) -> Double { calendar.moment(day.adding(days: plusDays), h * 60 + m) }
        for (moment, night) in [(at(21, 59), false), (at(22, 0), true), (at(23, 59), true), (at(0, 1, plusDays: 1), true),
                                (at(6, 29, plusDays: 1), true), (at(6, 30, plusDays: 1), false), (at(12, 0), false), (at(3, 0), true)] {
            #expect(schedule.state(at: moment, at: nil, calendar: calendar).isNight == night)
        }
        #expect(schedule.state(at: at(12, 0), at: nil, calendar: calendar).nextChange == at(22, 0))
        #expect(schedule.state(at: at(23, 0), at: nil, calendar: calendar).nextChange == at(6, 30, plusDays: 1))
    }

    /// Sunset+30m to sunrise in London: the night follows the sun from winter to summer.
    @Test func aSunScheduleFollowsTheSeasons() {
        let london = GeoPoint(latitude: 51.5074, longitude: -0.1278)
        let schedule = NightSchedule(from: ClockTime(parsing: "sunset+30m")!, until: ClockTime(parsing: "sunrise")!)
        let june = CivilDate(year: 2026, month: 6, day: 21), december = CivilDate(year: 2026, month: 12, day: 21)
        let summer = LocalCalendar.fixedOffset(3600), winter = LocalCalendar.fixedOffset(0)
        // 21:40 BST: sunset (21:21) was less than half an hour ago; 22:00 is night.
        #expect(!schedule.state(at: summer.moment(june, 21 * 60 + 40), at: london, calendar: summer).isNight)
        #expect(schedule.state(at: summer.moment(june, 22 * 60), at: london, calendar: summer).isNight)
        // 17:00 GMT in December is night (sunset 15:54), 08:00 is day (sunrise 08:04 → night until then).
        #expect(schedule.state(at: winter.moment(december, 17 * 60), at: london, calendar: winter).isNight)
        #expect(schedule.state(at: winter.moment(december, 8 * 60), at: london, calendar: winter).isNight)
        #expect(!schedule.state(at: winter.moment(december, 8 * 60 + 10), at: london, calendar: winter).isNight)
    }

    @Test func thePolicyDecidesTheScreen() {
        var policy = ScreenPolicy()
        policy.lingerSeconds = 60
        #expect(policy.power(overhead: false, at: 0) == .on(brightness: 1))
        policy.overheadOnly = true
        #expect(policy.power(overhead: false, at: 0) == .off)
        #expect(policy.power(overhead: true, at: 1) == .on(brightness: 1))
        policy.aircraftLeft(at: 10)
        #expect(policy.power(overhead: false, at: 69) == .on(brightness: 1), "lingers a minute")
        #expect(policy.power(overhead: false, at: 70.5) == .off)
        #expect(policy.deadline(after: 20) == 70)
        // Night off: an aircraft does not light it; a wake does, for the linger.
        policy.overheadOnly = false
        policy.setNight(true)
        #expect(policy.power(overhead: true, at: 100) == .off)
        policy.wake(at: 100)
        #expect(policy.power(overhead: false, at: 150) == .on(brightness: 1))
        #expect(policy.power(overhead: false, at: 161) == .off)
        policy.nightAction = .dim
        policy.nightBrightness = 0.25
        #expect(policy.power(overhead: false, at: 200) == .on(brightness: 0.25))
        policy.override = .off
        #expect(policy.power(overhead: true, at: 200) == .off)
        policy.override = .on
        #expect(policy.power(overhead: false, at: 200) == .on(brightness: 1))
    }

    /// Home automation repeats itself (HA resends a switch's state; a flood
    /// repeats a thousand times): a screen command is said when it changes something.
    @Test func aScreenCommandIsSaidWhenItChangesSomething() throws {
        let controller = KioskController(layout: KioskLayout(width: 800, height: 480))
        let on = try KioskCommand.parse(#"{"cmd":"screen","power":"on"}"#)
        #expect(controller.perform(on, at: 1).log == ["radar-kiosk: screen forced: on"])
        #expect(controller.perform(on, at: 2).log.isEmpty, "on again: nothing new")
        let dim = try KioskCommand.parse(#"{"cmd":"screen","brightness":50}"#)
        #expect(controller.perform(dim, at: 3).log == ["radar-kiosk: screen forced: on at 50 %"])
        #expect(controller.perform(dim, at: 4).log.isEmpty)
        #expect(controller.perform(try KioskCommand.parse(#"{"cmd":"screen","power":"auto"}"#), at: 5).log.count == 1)
    }

    @Test func keysCommandsAndTheStateDriveTheScreen() throws {
        let controller = KioskController(layout: KioskLayout(width: 800, height: 480))
        var config = KioskConfiguration()
        try config.set("screen.overhead_only", to: "yes")
        try config.set("screen.linger_s", to: "30")
        controller.keyMap = config.keyMap
        controller.screen = config.screen
        #expect(controller.screenPower(at: 1) == .off)
        _ = controller.handle(.key(code: KeyNames.code(for: "o")!, from: "test"), at: 2)
        #expect(controller.screenPower(at: 2) == .on(brightness: 1), "an aircraft shown lights it")
        _ = controller.handle(.key(code: KeyNames.code(for: "s")!, from: "test"), at: 10)
        #expect(controller.screenPower(at: 39) == .on(brightness: 1))
        #expect(controller.screenPower(at: 41) == .off, "30 s after the aircraft")
        _ = controller.handle(.key(code: KeyNames.code(for: "w")!, from: "test"), at: 50)
        #expect(controller.screenPower(at: 60) == .on(brightness: 1), "the wake key")
        _ = controller.handle(.gpio(active: true, line: "GPIO17", initial: false), at: 100)
        #expect(controller.screenPower(at: 100).isOn, "the line's OVERFLIGHT lights it")

        // A GPIO button (gpio.action = wake): its press wakes a screen that night has switched off.
        let night = KioskController(layout: KioskLayout(width: 800, height: 480))
        night.gpioAction = .wake
        night.screen.lingerSeconds = 30
        _ = night.handle(.night(true), at: 0)
        _ = night.handle(.gpio(active: true, line: "BUTTON", initial: true), at: 0)
        #expect(night.screenPower(at: 1) == .off, "the level at start is not a press")
        _ = night.handle(.gpio(active: true, line: "BUTTON", initial: false), at: 10)
        #expect(night.screenPower(at: 20) == .on(brightness: 1) && night.state.mode == .standby, "a press wakes it, no OVERFLIGHT")
        #expect(night.screenPower(at: 41) == .off)

        let off = controller.perform(try KioskCommand.parse(#"{"cmd":"screen","power":"off"}"#), at: 101)
        #expect(off.reply == KioskCommand.okReply)
        #expect(controller.screenPower(at: 101) == .off)
        let get = controller.perform(.get, at: 101).reply ?? ""
        #expect(get.contains(#""screen":{"power":"off"}"#), "\(get)")
        _ = controller.perform(try KioskCommand.parse(#"{"cmd":"screen","power":"auto","brightness":40}"#), at: 102)
        #expect(controller.screenPower(at: 102) == .on(brightness: 0.4))
        for bad in [#"{"cmd":"screen"}"#, #"{"cmd":"screen","power":"dim"}"#, #"{"cmd":"screen","brightness":0}"#,
                    #"{"cmd":"screen","brightness":1e999}"#, #"{"cmd":"wake","x":1}"#] {
            #expect(throws: CommandError.self, "\(bad)") { try KioskCommand.parse(bad) }
        }
    }

    /// A sysfs-shaped backlight: brightness out of max_brightness, bl_power 4 for off.
    @Test func theBacklightIsWrittenAsSysfsWantsIt() throws {
        let dir = "/tmp/rk-backlight-\(getpid())-\(Int(MonotonicClock.now() * 1e6))"
        let panel = dir + "/10-0045"
        mkdir(dir, 0o755); mkdir(panel, 0o755)
        defer { _ = unlink(panel + "/max_brightness"); _ = unlink(panel + "/brightness"); _ = unlink(panel + "/bl_power"); rmdir(panel); rmdir(dir) }
        func put(_ name: String, _ text: String) throws {
            let fd = try FileDescriptor.open(panel + "/" + name, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
            try fd.writeAll(text)
            fd.close()
        }
        try put("max_brightness", "255\n")
        try put("brightness", "200\n")
        try put("bl_power", "0\n")
        let backlight = try #require(Backlight.first(in: dir))
        #expect(backlight.maximum == 255 && backlight.name == "10-0045")
        #expect(abs(try backlight.brightness() - 200.0 / 255) < 1e-9)

        let tick = FrameTick(controller: KioskController(layout: KioskLayout(width: 320, height: 240)), renderer: KioskRenderer(fonts: try FontSet()),
                             presenter: try HeadlessDisplay(width: 320, height: 240, refreshRate: 60))
        let control = ScreenControl(ticks: [tick], schedule: nil, station: nil, backlight: backlight)
        tick.controller.screen.nightAction = .dim
        tick.controller.screen.nightBrightness = 0.3
        _ = tick.controller.handle(.night(true), at: 1)
        control.apply(at: 1)
        #expect(try FileContents.text(panel + "/brightness") == "77\n")
        #expect(tick.dimming == nil, "with a backlight the picture is not darkened")
        #expect(tick.renderer.screenBrightness == 0.3, "but its text is drawn to read at the backlight's level")
        _ = tick.controller.perform(.screen(.off, brightness: nil), at: 2)
        control.apply(at: 2)
        #expect(try FileContents.text(panel + "/bl_power") == "4\n")
        #expect(tick.presenter?.isScreenOn == false && tick.presenter?.isReadyToPresent == false, "blanked: nothing is presented")
        _ = tick.controller.perform(.screen(.auto, brightness: nil), at: 3)
        control.apply(at: 3)
        #expect(try FileContents.text(panel + "/bl_power") == "0\n" && tick.presenter?.isScreenOn == true)
        // The panel came back from DPMS off at full brightness: the level is written again once it is lit.
        try put("brightness", "255\n")
        #expect(control.nextWake == 3 + ScreenControl.wakeSettle)
        _ = control.service(now: 3 + ScreenControl.wakeSettle)
        #expect(try FileContents.text(panel + "/brightness") == "77\n", "the wanted level after waking, not the panel's full")
        #expect(control.nextWake == nil)
        control.restore()
        #expect(try FileContents.text(panel + "/brightness") == "200\n", "the level found at start is put back")

        try put("max_brightness", "zero\n")
        #expect(throws: DisplayError.self) { try Backlight(directory: panel) }
    }

    /// A reloaded schedule is read at the next turn: the old one had said to
    /// look again in up to 30 s, and a night set around now would wait that long.
    @Test func aNewScheduleIsReadAtOnce() throws {
        let tick = FrameTick(controller: KioskController(layout: KioskLayout(width: 320, height: 240)), renderer: KioskRenderer(fonts: try FontSet()),
                             presenter: try HeadlessDisplay(width: 320, height: 240, refreshRate: 60))
        let local = WallClock.local(WallClock.now())
        let minutes = local.hour * 60 + local.minute
        func clock(_ m: Int) -> ClockTime { ClockTime(anchor: .midnight, offsetMinutes: ((m % 1440) + 1440) % 1440) }
        let control = ScreenControl(ticks: [tick], schedule: NightSchedule(from: clock(minutes + 120), until: clock(minutes + 180)),
                                    station: nil, backlight: nil)
        #expect(control.service(now: 100).isEmpty, "day now")
        #expect((control.nextWake ?? 0) > 100 + 25, "the next look is far off: \(String(describing: control.nextWake))")
        control.schedule = NightSchedule(from: clock(minutes - 60), until: clock(minutes + 60))
        #expect((control.nextWake ?? .infinity) <= 101)
        #expect(control.service(now: 101).contains { if case .night(true) = $0 { true } else { false } })
    }

    /// Without a backlight, night darkens the picture: every frame, the
    /// sweep-only ones included, is the full-brightness frame darkened once.
    @Test func aDimmedPictureStaysRightWhileTheSweepMoves() throws {
        let fonts = try FontSet()
        let (w, h) = (800, 480)
        let layout = KioskLayout(width: w, height: h)
        let renderer = KioskRenderer(fonts: fonts)
        let tick = FrameTick(controller: KioskController(layout: layout, measure: renderer), renderer: renderer, presenter: try HeadlessDisplay(width: w, height: h, refreshRate: 60))
        let control = ScreenControl(ticks: [tick], schedule: nil, station: nil, backlight: nil)
        let plain = FrameTick(controller: KioskController(layout: layout, measure: renderer), renderer: KioskRenderer(fonts: fonts),
                              buffer: PixelBuffer(width: w, height: h))
        // Steady first (sweep-only frames), so that the dimming itself must ask for a whole frame.
        for frame in 0..<6 { tick.draw(at: Double(frame) / 30) }
        #expect(tick.canvas.damage.area < w * h)
        tick.controller.screen.nightAction = .dim
        tick.controller.screen.nightBrightness = 0.5
        _ = tick.controller.handle(.night(true), at: 0.2)
        control.apply(at: 0.2)
        #expect(tick.dimming == LinearDimming(brightness: 0.5) && tick.renderer.screenBrightness == 0.5)
        plain.renderer.screenBrightness = 0.5
        let expected = PixelBuffer(width: w, height: h)
        var wrong = 0, partial = 0
        for frame in 0..<40 {
            let t = 0.25 + Double(frame) / 30
            tick.draw(at: t)
            if tick.canvas.damage.area < w * h { partial += 1 }
            plain.draw(at: t)
            expected.copy(expected.bounds, from: plain.frame)
            LinearDimming(brightness: 0.5).apply(expected.bounds, of: expected)
            for y in 0..<h where memcmp(tick.frame.row(y), expected.row(y), w * 4) != 0 { wrong += 1; break }
        }
        #expect(wrong == 0, "\(wrong) of 40 dimmed frames differ from the darkened whole frame")
        #expect(partial >= 36, "the sweep alone is redrawn while dimmed (\(partial) of 40)")
        // Dimmed, not blacked out: each lit pixel of the whole frame at half its light.
        var lit = 0, halved = 0
        for y in stride(from: 0, to: h, by: 3) {
            for x in stride(from: 0, to: w, by: 3) where plain.frame[x, y] & 0xFF > 40 {
                lit += 1
                let full = LinearDimming.decoded(Double(plain.frame[x, y] & 0xFF) / 255), dim = LinearDimming.decoded(Double(tick.frame[x, y] & 0xFF) / 255)
                if abs(dim / full - 0.5) < 0.03 { halved += 1 }
            }
        }
        #expect(lit > 500 && halved == lit, "\(halved) of \(lit) lit pixels at half their light")
    }
}
