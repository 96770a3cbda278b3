import Testing
import Feed
@testable import RadarKiosk

@Suite struct ConfigurationTests {
    static let full = """
    # every key
    display = drm
    output = HDMI-A-1
    size = 1280x720
    refresh = 60
    rotation = 270
    pixel_format = rgb565
    fonts = /usr/local/share/radar-kiosk/fonts
    socket = /run/radar-kiosk/control.sock
    feed = /run/readsb/aircraft.json
    station = 51.4700, -0.4543
    overhead.radius_nm = 2.5
    overhead.exit_radius_nm = 3
    overhead.ceiling_ft = 8000
    overhead.max_position_age_s = 30
    overhead.include_ground = yes
    overhead.hold_s = 5
    overhead.ignore = ABC123, BAW283
    routes = /etc/radar-kiosk/routes
    keyboard = /dev/input/event3
    keyboard.grab = no
    screenshot_dir = /var/tmp
    key.space = none
    key.t = toggle
    gpio.line = GPIO17
    gpio.active_low = yes
    gpio.bias = pull-up
    gpio.debounce_ms = 50
    """

    @Test func everyKeyIsRead() {
        let (c, problems) = KioskConfiguration.parse(Self.full, name: "k.conf")
        #expect(problems.isEmpty, "\(problems)")
        #expect(c.display == "drm" && c.output == "HDMI-A-1" && c.size == "1280x720" && c.refresh == 60 && c.rotation == 270)
        #expect(c.pixelFormat == "rgb565")
        #expect(c.fonts == "/usr/local/share/radar-kiosk/fonts" && c.socket == "/run/radar-kiosk/control.sock")
        #expect(c.feed == "/run/readsb/aircraft.json" && c.station == GeoPoint(latitude: 51.47, longitude: -0.4543))
        #expect(c.radiusNM == 2.5 && c.exitRadiusNM == 3 && c.ceilingFeet == 8000 && c.maximumPositionAge == 30)
        #expect(c.includeGround && c.holdSeconds == 5 && c.ignore == ["abc123", "baw283"] && c.routes == "/etc/radar-kiosk/routes")
        #expect(c.keyboard == "/dev/input/event3" && !c.keyboardGrab && c.screenshotDirectory == "/var/tmp")
        #expect(c.keys["space"] == nil && c.keys["t"] == .toggle && c.keys["q"] == .quit)
        #expect(c.gpioLine == "GPIO17" && c.gpioActiveLow && c.gpioBias == "pull-up" && c.gpioDebounceMilliseconds == 50)
        let s = c.selectorSettings(station: c.station!)
        #expect(s.radiusNM == 2.5 && s.exitRadiusNM == 3 && s.ignore.contains("baw283"))
        // Every documented key appears in the test file.
        for key in KioskConfiguration.keys { #expect(Self.full.contains("\n\(key.name) ="), "\(key.name)") }
    }

    @Test func defaultsWithAnEmptyFile() {
        let (c, problems) = KioskConfiguration.parse("# nothing\n\n", name: "k.conf")
        #expect(problems.isEmpty && c == KioskConfiguration())
        #expect(c.keys == ["space": .toggle, "o": .overflight, "s": .standby, "n": .next, "q": .quit])
    }

    @Test func everyProblemIsReportedWithItsLine() {
        let text = """
        display = sideways
        colour = green
        size = big
        overhead.radius_nm = far
        overhead.include_ground = maybe
        feed = relative/path.json
        just some words
        output = A
        output = B
        key.f13 = toggle
        key.x = explode
        rotation = 45
        pixel_format = rgb888
        """
        let (_, problems) = KioskConfiguration.parse(text, name: "k.conf")
        #expect(problems == [
            "k.conf:1: display: expected auto, drm or headless, not 'sideways'",
            "k.conf:2: unknown key 'colour'",
            "k.conf:3: size: expected WIDTHxHEIGHT (16...8192 each), not 'big'",
            "k.conf:4: overhead.radius_nm: expected a number in 0.1...100, not 'far'",
            "k.conf:5: overhead.include_ground: expected yes or no, not 'maybe'",
            "k.conf:6: feed: expected auto, an absolute path, http://HOST[:PORT]/PATH or sbs://HOST:PORT, not 'relative/path.json'",
            "k.conf:7: expected KEY = VALUE, not 'just some words'",
            "k.conf:9: output is set again (first on line 8)",
            "k.conf:10: key.f13: unknown key 'f13' (a-z, 0-9, space, enter, escape, up, down, left, right)",
            "k.conf:11: key.x: expected toggle, overflight, standby, next, quit or none, not 'explode'",
            "k.conf:12: rotation: expected 0, 90, 180 or 270, not '45'",
            "k.conf:13: pixel_format: expected xrgb8888 or rgb565, not 'rgb888'",
        ])
        let (_, missing) = KioskConfiguration.parse("feed = /run/readsb/aircraft.json", name: "k.conf")
        #expect(missing == ["k.conf: feed is set but station is not (distances need the kiosk's position)"])
    }

    @Test func aMissingFileNamesItself() {
        do {
            _ = try KioskRun.loadConfiguration("/nonexistent/radar-kiosk.conf")
            Issue.record("expected an error")
        } catch {
            #expect("\(error)" == "/nonexistent/radar-kiosk.conf: cannot open (No such file or directory)")
        }
    }
}
