import Testing
import Display
import Feed
import SystemIO
import Input
@testable import KioskModel

@Suite struct ConfigurationTests {
    static let full = """
    # every key
    display = drm
    output = HDMI-A-1
    size = 1280x720
    refresh = 60
    rotation = 270
    panel_mm = 154x86
    viewing_distance_m = 3.5
    pixel_format = rgb565
    render.threads = 3
    fonts = /usr/local/share/radar-kiosk/fonts
    socket = /run/radar-kiosk/control.sock
    feed = /run/readsb/aircraft.json
    feed.ca_file = /etc/radar-kiosk/receiver-ca.pem
    station = 51.4700, -0.4543
    station.facing_deg = SW
    station.elevation_ft = 80
    overhead.radius_nm = 2.5
    overhead.exit_radius_nm = 3
    overhead.ceiling_ft = 8000
    overhead.max_position_age_s = 30
    overhead.include_ground = yes
    overhead.hold_s = 5
    overhead.cycle_s = 12
    overhead.ignore = ABC123, BAW283
    routes = /etc/radar-kiosk/routes
    standing_data = /srv/standing-data.rksd
    overflight_log = /srv/overflights.jsonl
    alerts.emergency = no
    alerts.military = yes
    alerts.watch_list = /etc/radar-kiosk/watch
    alerts.radius_nm = 12.5
    alerts.ceiling_ft = 30000
    alerts.gpio_line = BUZZER
    alerts.gpio_active_low = yes
    units.altitude = m
    units.speed = mph
    units.distance = km
    units.flight_levels_above = 6000
    traffic = no
    traffic.airports = no
    standby.info = clock
    sweep = line
    sweep.period_s = 10
    sweep.opacity = 40%
    mqtt.broker = [::1]:1884
    mqtt.ca_file = /etc/radar-kiosk/broker-ca.pem
    mqtt.tls = yes
    mqtt.cert_file = /etc/radar-kiosk/kiosk.pem
    mqtt.key_file = /etc/radar-kiosk/kiosk.key
    mqtt.topic = home/radar
    mqtt.client_id = radar-hall
    mqtt.username = kiosk
    mqtt.password_file = /etc/radar-kiosk/mqtt-password
    mqtt.discovery = no
    mqtt.discovery_prefix = ha
    mqtt.name = Hall kiosk
    mqtt.area = Hall
    traffic.range_nm = 10
    night.from = sunset+30m
    night.until = 06:45
    night.screen = dim
    night.brightness = 20%
    screen.overhead_only = yes
    screen.linger_s = 90
    backlight = /sys/class/backlight/10-0045
    keyboard = /dev/input/event3
    keyboard.grab = no
    touch = no
    touch.swap_xy = yes
    touch.invert_x = yes
    touch.invert_y = no
    touch.linger_s = 45
    screenshot_dir = /var/tmp
    key.space = none
    key.t = toggle
    gpio.line = GPIO17
    gpio.active_low = yes
    gpio.bias = pull-up
    gpio.action = wake
    gpio.debounce_ms = 50
    """

    @Test func everyKeyIsRead() {
        let (c, problems) = KioskConfiguration.parse(Self.full, name: "k.conf")
        #expect(problems.isEmpty, "\(problems)")
        #expect(c.display == .drm && c.output == "HDMI-A-1" && c.size == PixelSize(width: 1280, height: 720) && c.refresh == 60)
        #expect(c.rotation == .threeQuarterTurn && c.pixelFormat == .rgb565)
        #expect(c.panelSizes == [PanelSize(width: 154, height: 86)] && c.viewingDistanceMetres == 3.5)
        #expect(c.fonts == "/usr/local/share/radar-kiosk/fonts" && c.socket == "/run/radar-kiosk/control.sock")
        #expect(c.feedCAFile == "/etc/radar-kiosk/receiver-ca.pem")
        #expect(c.feed == .file("/run/readsb/aircraft.json") && c.station == GeoPoint(latitude: 51.47, longitude: -0.4543))
        #expect(c.radiusNM == 2.5 && c.exitRadiusNM == 3 && c.ceilingFeet == 8000 && c.maximumPositionAge == 30)
        #expect(c.includeGround && c.holdSeconds == 5 && c.ignore == ["abc123", "baw283"] && c.routes == "/etc/radar-kiosk/routes")
        #expect(c.standingData == .file("/srv/standing-data.rksd"))
        #expect(c.units == DisplayUnits(altitude: .meters, speed: .milesPerHour, distance: .kilometres, flightLevelsAbove: 6000))
        #expect(c.overflightLog == .file("/srv/overflights.jsonl"))
        #expect(!c.alerts.emergencies && c.alerts.military && c.alertWatchList == "/etc/radar-kiosk/watch"
                && c.alerts.radiusNM == 12.5 && c.alerts.ceilingFeet == 30_000 && c.alertGPIOLine == "BUZZER" && c.alertGPIOActiveLow)
        #expect(c.keyboard == .device("/dev/input/event3") && !c.keyboardGrab && c.screenshotDirectory == "/var/tmp")
        #expect(!c.touch && c.touchMapping == TouchMapping(swapsAxes: true, invertsX: true) && c.touchLingerSeconds == 45)
        #expect(c.keys["space"] == nil && c.keys["t"] == .toggle && c.keys["q"] == .quit)
        #expect(c.gpioLine == "GPIO17" && c.gpioActiveLow && c.gpioBias == .pullUp && c.gpioDebounceMilliseconds == 50 && c.gpioAction == .wake)
        #expect(c.night == NightSchedule(from: ClockTime(anchor: .sunset, offsetMinutes: 30), until: ClockTime(anchor: .midnight, offsetMinutes: 6 * 60 + 45)))
        #expect(c.screen.nightAction == .dim && c.screen.nightBrightness == 0.2 && c.screen.overheadOnly && c.screen.lingerSeconds == 90)
        #expect(c.backlight == .directory("/sys/class/backlight/10-0045"))
        #expect(!c.showsTraffic && !c.showsAirports && c.trafficRangeNM == 10 && c.standbyInfo == StandbyInfoChoice(showsClock: true, showsToday: false)
                && c.sweep == SweepSettings(style: .line, periodSeconds: 10, opacity: 0.4))
        #expect(c.mqttBroker == NetworkAddress(host: "::1", port: 1884) && c.mqttTopic == "home/radar" && c.mqttClientID == "radar-hall"
                && c.mqttUsername == "kiosk" && c.mqttPasswordFile == "/etc/radar-kiosk/mqtt-password" && !c.mqttDiscovery
                && c.mqttDiscoveryPrefix == "ha" && c.mqttName == "Hall kiosk" && c.mqttArea == "Hall")
        #expect(c.facing == 225 && c.stationElevationFeet == 80)
        #expect(c.renderThreads == 3)
        #expect(c.mqttTLS && c.mqttCAFile == "/etc/radar-kiosk/broker-ca.pem" && c.mqttCertificateFile == "/etc/radar-kiosk/kiosk.pem"
                && c.mqttKeyFile == "/etc/radar-kiosk/kiosk.key")
        // The port was given, so TLS keeps it.
        #expect(c.mqttAddress == NetworkAddress(host: "::1", port: 1884))
        let s = c.selectorSettings(station: c.station!)
        #expect(s.radiusNM == 2.5 && s.exitRadiusNM == 3 && s.ignore.contains("baw283") && s.cycleSeconds == 12)
        // Every documented key appears in the test file.
        for key in ConfigurationKey.all { #expect(Self.full.contains("\n\(key.name) ="), "\(key.name)") }
    }

    /// mqtts:// is TLS, on port 8883 unless another is given; mqtt:// and a bare host are plain.
    @Test func theBrokersSchemeSaysTLS() {
        for (text, host, port, tls) in [("mqtts://broker.lan", "broker.lan", 8883, true), ("MQTTS://10.0.0.2:9883", "10.0.0.2", 9883, true),
                                        ("mqtt://broker.lan", "broker.lan", 1883, false), ("broker.lan:1884", "broker.lan", 1884, false)] {
            let (c, problems) = KioskConfiguration.parse("mqtt.broker = \(text)\n", name: "k.conf")
            #expect(problems.isEmpty, "\(text): \(problems)")
            #expect(c.mqttAddress == NetworkAddress(host: host, port: UInt16(port)) && c.mqttTLS == tls, "\(text)")
        }
        // mqtt.tls = yes on a bare host: TLS's port.
        let (bare, _) = KioskConfiguration.parse("mqtt.broker = broker.lan\nmqtt.tls = yes\n", name: "k.conf")
        #expect(bare.mqttTLS && bare.mqttAddress == NetworkAddress(host: "broker.lan", port: 8883))
        let (_, bad) = KioskConfiguration.parse("mqtt.broker = mqtts://\n", name: "k.conf")
        #expect(bad.count == 1 && bad[0].contains("mqtt.broker"), "\(bad)")
    }

    @Test func defaultsWithAnEmptyFile() {
        let (c, problems) = KioskConfiguration.parse("# nothing\n\n", name: "k.conf")
        #expect(problems.isEmpty)
        // The documented defaults, pinned here rather than compared with the type's own.
        #expect(c.display == .auto && c.output == nil && c.size == nil && c.refresh == nil && c.rotation == .upright)
        #expect(c.pixelFormat == .xrgb8888 && c.fonts == nil && c.socket == nil && c.feed == nil && c.feedCAFile == nil && c.station == nil)
        #expect(c.facing == nil && c.stationElevationFeet == 0 && !c.mqttTLS && c.mqttCAFile == nil
                && c.mqttCertificateFile == nil && c.mqttKeyFile == nil)
        #expect(c.radiusNM == 3 && c.exitRadiusNM == nil && c.ceilingFeet == 10_000 && c.maximumPositionAge == 15)
        #expect(!c.includeGround && c.holdSeconds == 8 && c.ignore.isEmpty && c.routes == nil && c.standingData == .auto)
        #expect(c.units == DisplayUnits(altitude: .feet, speed: .knots, distance: .nauticalMiles, flightLevelsAbove: nil))
        #expect(c.overflightLog == .auto && c.overflightLog.path(stateDirectory: nil) == nil
                && c.overflightLog.path(stateDirectory: "/var/lib/radar-kiosk") == "/var/lib/radar-kiosk/overflights.jsonl")
        #expect(c.alerts.emergencies && !c.alerts.military && c.alertWatchList == nil && c.alerts.radiusNM == 10 && c.alerts.ceilingFeet == 45_000)
        #expect(c.keyboard == .auto && c.keyboardGrab && c.screenshotDirectory == "/run/radar-kiosk")
        #expect(c.gpioLine == nil && !c.gpioActiveLow && c.gpioBias == .asIs && c.gpioDebounceMilliseconds == 20 && c.gpioAction == .overflight)
        #expect(c.keys == ["space": .toggle, "o": .overflight, "s": .standby, "n": .next, "q": .quit, "w": .wake])
        #expect(c.night == nil && c.screen == ScreenPolicy() && c.screen.nightAction == .off && c.screen.nightBrightness == 0.3
                && !c.screen.overheadOnly && c.screen.lingerSeconds == 60 && c.backlight == .auto)
        #expect(c.showsTraffic && c.trafficRangeNM == nil && c.standbyInfo == .clockAndToday && c.sweep == SweepSettings())
        #expect(c.mqttBroker == nil && c.mqttTopic == "radar-kiosk" && c.mqttClientID == "radar-kiosk" && c.mqttUsername == nil
                && c.mqttDiscovery && c.mqttDiscoveryPrefix == "homeassistant")
        // And the help text says the same for every key whose default is a value.
        for key in ConfigurationKey.all where !["none", "first connected", "preferred mode", "the screen's mode", "the system's CAs", "install prefix", "radius + 0.5", "in the certificate's file"].contains(key.defaultValue) {
            var explicit = KioskConfiguration()
            #expect(throws: Never.self) { try explicit.set(key.name, to: key.defaultValue) }
            #expect(explicit.forgettingGivenValues() == c, "\(key.name) = \(key.defaultValue) is not the default")
        }
    }

    @Test func crlfBomCommentsAndCaseAreHandled() {
        let text = "\u{FEFF}# a CRLF file\r\ndisplay = headless # trailing comment\r\nKEY.Q = toggle\r\nkey.q = standby\r\n"
        let (c, problems) = KioskConfiguration.parse(text, name: "k.conf")
        #expect(c.display == .headless)
        #expect(problems == ["k.conf:4: key.q is set again (first on line 3)"], "key names are one name whatever their case")
        #expect(c.keys["q"] == .toggle)
        let (_, nonsense) = KioskConfiguration.parse("# comment first\r\nnonsense here\r\n", name: "k.conf")
        #expect(nonsense == ["k.conf:2: expected KEY = VALUE, not 'nonsense here'"])
    }

    @Test func theStandbyCornerAndHomeAssistantNamesAreChecked() {
        let (_, problems) = KioskConfiguration.parse("standby.info = clock,clock\nmqtt.name = Hall\u{202E}kiosk\nmqtt.area = \n", name: "k.conf")
        #expect(problems == ["k.conf:1: standby.info: expected clock,today, clock, today or none, not 'clock,clock'",
                             "k.conf:2: mqtt.name: contains U+202E, a control or invisible formatting character",
                             "k.conf:3: mqtt.area: needs a value"], "\(problems)")
        let (c, none) = KioskConfiguration.parse("standby.info = none\n", name: "k.conf")
        #expect(none.isEmpty && c.standbyInfo == .nothing)
    }

    @Test func numbersAreDecimalsOnly() {
        for text in ["0x3C", "+90", "1e3", "nan", "inf", "-inf", "", ".", "1.2.3", " 5"] {
            #expect(ConfigurationKey.decimal(text) == nil, "'\(text)'")
        }
        #expect(ConfigurationKey.decimal("0.5") == 0.5 && ConfigurationKey.decimal("-117.8") == -117.8 && ConfigurationKey.decimal("10") == 10)
    }

    @Test func flagsOverTheFileNameTheFlag() throws {
        var c = try KioskConfiguration.parse("overhead.radius_nm = 2\n", name: "k").0
        let args = try ParsedArguments.parse(["--radius", "5", "--include-ground", "--rotate", "90"], for: CommandSpec("run", "", flags: KioskConfiguration.flags))
        try c.applyFlags(args)
        #expect(c.radiusNM == 5 && c.includeGround && c.rotation == .quarterTurn)
        let bad = try ParsedArguments.parse(["--radius", "500"], for: CommandSpec("run", "", flags: KioskConfiguration.flags))
        #expect(throws: ArgumentError.self) { try c.applyFlags(bad) }
        do { try c.applyFlags(bad) } catch { #expect("\(error)" == "--radius 500: expected a number in 0.1...100, not '500'") }
    }

    @Test func feedSpecsParseOnceForCheckAndRun() throws {
        #expect(try FeedSpec(parsing: "sbs://[::1]:30003") == .sbs(host: "::1", port: 30003))
        #expect(try FeedSpec(parsing: "http://piaware.local/skyaware/data/aircraft.json") == .http(host: "piaware.local", port: 80, path: "/skyaware/data/aircraft.json"))
        #expect(try FeedSpec(parsing: "http://[fe80::1%eth0]:8080/data/aircraft.json").description == "http://[fe80::1%eth0]:8080/data/aircraft.json")
        #expect(try FeedSpec(parsing: "https://receiver.example/data/aircraft.json") == .https(host: "receiver.example", port: 443, path: "/data/aircraft.json"))
        #expect(try FeedSpec(parsing: "https://[::1]:8443/a.json").description == "https://[::1]:8443/a.json")
        #expect(try FeedSpec(parsing: "adsb.lol") == .aggregator(.adsbLol) && FeedSpec.aggregator(.adsbFi).description == "adsb.fi")
        #expect(FeedSpec.aggregator(.adsbFi).attribution == "Data: https://adsb.fi" && FeedSpec.auto.attribution == nil)
        let (aggregated, problems) = KioskConfiguration.parse("feed = adsb.lol\n", name: "k.conf")
        #expect(aggregated.feed == .aggregator(.adsbLol) && problems == ["k.conf: feed is set but station is not (distances need the kiosk's position)"])
        #expect(try FeedSpec(parsing: "/run/readsb/aircraft.json, /run/skyaware978/aircraft.json,adsb.lol")
                == .several([.file("/run/readsb/aircraft.json"), .file("/run/skyaware978/aircraft.json"), .aggregator(.adsbLol)]))
        #expect(FeedSpec.several([.file("/a.json"), .aggregator(.adsbFi)]).description == "/a.json, adsb.fi")
        #expect(FeedSpec.several([.file("/a.json"), .aggregator(.adsbFi)]).attribution == "Data: https://adsb.fi")
        #expect(KioskConfiguration.parse("feed = /a.json, /b.json\n", name: "k").1.isEmpty, "local files: their receiver.json")
        #expect(KioskConfiguration.parse("feed = /a.json, adsb.fi\n", name: "k").1.count == 1, "an aggregator needs the station")
        for bad in ["/a.json,", "/a.json, /a.json", "/a, /b, /c, /d, /e", "/a.json, relative.json"] {
            #expect(throws: FeedError.self, "\(bad)") { try FeedSpec(parsing: bad) }
        }
        for bad in ["http://", "sbs://host", "sbs://host:0", "sbs://host:70000", "sbs://::1:30003", "http://host:x/", "ftp://x",
                    "https://host/a b", "http://host/a\r\nX-Injected: 1", "adsb.example"] {
            #expect(throws: FeedError.self, "\(bad)") { try FeedSpec(parsing: bad) }
        }
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
        render.threads = 2.5
        """
        let (_, problems) = KioskConfiguration.parse(text, name: "k.conf")
        #expect(problems == [
            "k.conf:1: display: expected auto, drm or headless, not 'sideways'",
            "k.conf:2: unknown key 'colour'",
            "k.conf:3: size: expected WIDTHxHEIGHT, each 16...8192 (e.g. 1920x1080), not 'big'",
            "k.conf:4: overhead.radius_nm: expected a number in 0.1...100, not 'far'",
            "k.conf:5: overhead.include_ground: expected yes or no, not 'maybe'",
            "k.conf:6: feed: expected auto, an absolute path, http://HOST[:PORT]/PATH, https://HOST[:PORT]/PATH, sbs://HOST:PORT (an IPv6 address in brackets), adsb.lol or adsb.fi, not 'relative/path.json'",
            "k.conf:7: expected KEY = VALUE, not 'just some words'",
            "k.conf:9: output is set again (first on line 8)",
            "k.conf:10: key.f13: unknown key 'f13' (a-z, 0-9, space, enter, escape, up, down, left, right)",
            "k.conf:11: key.x: expected toggle, overflight, standby, next, quit, wake or none, not 'explode'",
            "k.conf:12: rotation: expected 0, 90, 180 or 270, not '45'",
            "k.conf:13: pixel_format: expected xrgb8888 or rgb565, not 'rgb888'",
            "k.conf:14: render.threads: expected auto or a whole number in 1...8, not '2.5'",
        ])
        #expect(KioskConfiguration.parse("render.threads = 9", name: "k.conf").1 == ["k.conf:1: render.threads: expected a number in 1...8, not '9'"])
        #expect(KioskConfiguration.parse("render.threads = auto", name: "k.conf").0.renderThreads == nil)
        // A panel's size and a distance that are not one.
        #expect(KioskConfiguration.parse("panel_mm = 0x0\nviewing_distance_m = nan\npanel_mm = auto", name: "k.conf").1 == [
            "k.conf:1: panel_mm: expected WIDTHxHEIGHT in mm, each 20...5000 (e.g. 154x86 for a 7-inch panel), not '0x0'",
            "k.conf:2: viewing_distance_m: expected a number in 0.3...20, not 'nan'",
            "k.conf:3: panel_mm is set again (first on line 1)",
        ])
        #expect(KioskConfiguration.parse("panel_mm = auto", name: "k.conf").0.panelSizes.isEmpty)
        #expect(KioskConfiguration.automaticRenderThreads(available: 2) == 2 && KioskConfiguration.automaticRenderThreads(available: 16) == 4)
        let (_, missing) = KioskConfiguration.parse("feed = sbs://receiver:30003", name: "k.conf")
        #expect(missing == ["k.conf: feed is set but station is not (distances need the kiosk's position)"])
        // A local aircraft.json may leave it out: the receiver.json beside it stands in.
        #expect(KioskConfiguration.parse("feed = /run/readsb/aircraft.json", name: "k.conf").1.isEmpty)
    }

    @Test func aMissingFileNamesItself() {
        do {
            _ = try KioskConfiguration.read("/nonexistent/radar-kiosk.conf")
            Issue.record("expected an error")
        } catch {
            #expect("\(error)" == "/nonexistent/radar-kiosk.conf: cannot open (No such file or directory)")
        }
    }
}

/// The documented table of keys (docs/configuration.md) is the configuration's own table, down to what a reload applies.
@Suite struct ConfigurationDocumentationTests {
    @Test func theReadmeListsEveryKeyWithItsFormAndDefault() throws {
        let root = #filePath.split(separator: "/", omittingEmptySubsequences: false).prefix { $0 != "Tests" }.joined(separator: "/")
        let readme = try FileContents.text(root + "/docs/configuration.md")
        for key in ConfigurationKey.all {
            let row = "| `\(key.name)` | `\(key.value.split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|"))` | \(key.defaultValue) | "
                + "\(key.appliesLive ? "at once" : "restart") | \(key.help) |"
            #expect(readme.contains(row), "docs/configuration.md row for \(key.name): \(row)")
        }
    }
}

/// Several outputs: one name each, the mode and turn for all or one each.
@Suite struct SeveralOutputsConfigurationTests {
    @Test func twoOutputsWithASizeAndATurnEach() {
        let (c, problems) = KioskConfiguration.parse("output = HDMI-A-1, HDMI-A-2\nsize = 1920x1080, 800x480\nrotation = 0,90\n", name: "k.conf")
        #expect(problems.isEmpty, "\(problems)")
        #expect(c.outputCount == 2 && c.output == "HDMI-A-1")
        #expect(c.outputSettings(0) == OutputSettings(name: "HDMI-A-1", size: PixelSize(width: 1920, height: 1080), refresh: nil, rotation: .upright))
        #expect(c.outputSettings(1) == OutputSettings(name: "HDMI-A-2", size: PixelSize(width: 800, height: 480), refresh: nil, rotation: .quarterTurn))
    }

    @Test func oneValueIsForEveryOutput() {
        let (c, problems) = KioskConfiguration.parse("output = HDMI-A-1, HDMI-A-2\nrotation = 180\n", name: "k.conf")
        #expect(problems.isEmpty, "\(problems)")
        #expect(c.outputSettings(1).rotation == .halfTurn && c.outputSettings(1).size == nil)
    }

    @Test func listsThatDoNotMatchTheOutputsAreOneLineEach() {
        let (_, three) = KioskConfiguration.parse("output = HDMI-A-1, HDMI-A-2\nsize = 800x480, 800x480, 640x480\n", name: "k.conf")
        #expect(three == ["k.conf: size gives 3 values for 2 outputs (one for all, or one each)"])
        let (_, twice) = KioskConfiguration.parse("output = HDMI-A-1, HDMI-A-1\n", name: "k.conf")
        #expect(twice == ["k.conf:1: output: HDMI-A-1 is named twice"])
        let (_, empty) = KioskConfiguration.parse("output = HDMI-A-1,\n", name: "k.conf")
        #expect(empty.count == 1 && empty[0].contains("an empty item"))
        let (_, many) = KioskConfiguration.parse("output = A, B, C, D, E\n", name: "k.conf")
        #expect(many == ["k.conf:1: output: at most 4 values, not 5"])
        let (_, card) = KioskConfiguration.parse("output = /dev/dri/card0, HDMI-A-1\n", name: "k.conf")
        #expect(card.count == 1 && card[0].contains("names a card"))
    }

    @Test func theFlagsAreCheckedWithTheFileUnderThem() throws {
        let spec = CommandSpec("run", "", flags: KioskConfiguration.flags)
        let args = try ParsedArguments.parse(["--output", "HDMI-A-1,HDMI-A-2", "--size", "800x480,640x480,320x240"], for: spec)
        #expect(throws: ArgumentError.self) { try KioskConfiguration.load(path: nil, flags: args) }
        let fine = try KioskConfiguration.load(path: nil, flags: try ParsedArguments.parse(["--output", "HDMI-A-1,HDMI-A-2", "--size", "800x480"], for: spec))
        #expect(fine.outputSettings(1).size == PixelSize(width: 800, height: 480))
    }
}

/// What a reload applies is what the table marks live: the rest stays as it started.
@Suite struct LiveReloadTests {
    @Test func liveKeysComeFromTheNewFileAndTheRestStays() {
        let (old, _) = KioskConfiguration.parse("rotation = 90\noverhead.radius_nm = 3\nkey.space = none\nfeed = auto\n", name: "old.conf")
        let (fresh, problems) = KioskConfiguration.parse("rotation = 0\noverhead.radius_nm = 5\nstation = 51.47,-0.45\nfeed = auto\n", name: "new.conf")
        #expect(problems.isEmpty, "\(problems)")
        var running = old
        running.feed = .file("/run/readsb/aircraft.json")   // what auto found at start
        running.adoptLiveSettings(from: fresh)
        #expect(running.rotation == .quarterTurn, "rotation waits for a restart")
        #expect(running.radiusNM == 5 && running.station == GeoPoint(latitude: 51.47, longitude: -0.45), "live keys are the new file's")
        #expect(running.keys["space"] == .toggle, "a binding taken out of the file is back to its default")
        #expect(running.feed == .file("/run/readsb/aircraft.json"), "what was decided at start stays decided")
        #expect(running.agrees(with: fresh, on: "station") && !running.agrees(with: fresh, on: "rotation"))
    }
}
