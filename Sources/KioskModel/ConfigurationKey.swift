import SystemIO
import Display
import Feed
import Input
import JSON

/// One key of the configuration file: its name, the `run` flag that
/// overrides it, the form of its value, its default and meaning, and how its
/// text is read into the configuration. `all` is the one table the file's
/// parser, the flags of `run`, `--help` and the README's table come from.
public struct ConfigurationKey: Sendable {
    public let name: String
    /// The `run` flag for it, if it has one.
    public let flag: String?
    /// The value's form, e.g. `NM` or `auto|drm|headless`.
    public let value: String
    public let defaultValue: String
    public let help: String
    /// Whether a SIGHUP applies it to the running kiosk (else it waits for a restart).
    public let appliesLive: Bool
    let apply: @Sendable (inout KioskConfiguration, String) throws -> Void

    init(_ name: String, flag: String? = nil, _ value: String, _ defaultValue: String, live: Bool = false, _ help: String,
         _ apply: @escaping @Sendable (inout KioskConfiguration, String) throws -> Void) {
        self.name = name
        self.flag = flag
        self.value = value
        self.defaultValue = defaultValue
        self.help = help
        appliesLive = live
        self.apply = apply
    }

    public static func named(_ name: String) -> ConfigurationKey? { all.first { $0.name == name } }

    /// Every key (besides `key.NAME = ACTION`, which maps keys to actions).
    public static let all: [ConfigurationKey] = [
        .init("display", flag: "--display", "auto|drm|headless", "auto", "where to show the kiosk: a free DRM output, else headless (a display that lacks the size or refresh asked for is an error, exit 2)") {
            $0.display = try choice($1, "display")
        },
        .init("output", flag: "--output", "NAME[, NAME]", "first connected", "DRM connector (HDMI-A-1, DSI-1, Virtual-1) or /dev/dri/by-path/... entry, on whichever card has it; several, comma-separated (up to \(KioskConfiguration.maximumOutputs), of one card), each show the kiosk at their own size") {
            let names = try list($1, "output", maximum: KioskConfiguration.maximumOutputs) { $0 }
            if names.count > 1, let path = names.first(where: { $0.hasPrefix("/dev/") }) {
                throw ConfigurationError("output: \(path) names a card, not an output: name the connectors (HDMI-A-1, HDMI-A-2)")
            }
            $0.outputs = names
        },
        .init("size", flag: "--size", "WxH[, WxH]", "the screen's mode", "the mode to choose (with several outputs, one for all or one each); unset, the mode on the screen or the preferred one, unless larger than 1920x1080 or slower than 50 Hz where faster is offered: then the largest up to 1920x1080 at its highest refresh, said in the log (headless: the picture size, 1920x1080)") {
            $0.sizes = try list($1, "size", maximum: KioskConfiguration.maximumOutputs) { try pixelSize($0, "size") }
        },
        .init("refresh", flag: "--refresh", "HZ", "preferred mode", "the mode's refresh rate (headless: the simulated rate, 60)") {
            $0.refresh = try number($1, "refresh", 1...240)
        },
        .init("panel_mm", "auto|WxH[, WxH]", "auto", "the panel's visible size in mm, as its mode stands (before rotation; with several outputs, one for all or one each); auto: as the display reports it (a headless display has none). With it and viewing_distance_m the card's type is sized for the distance") {
            $0.panelSizes = $1.lowercased() == "auto" ? [] : try list($1, "panel_mm", maximum: KioskConfiguration.maximumOutputs) { try panelSize($0, "panel_mm") }
        },
        .init("viewing_distance_m", flag: "--viewing-distance", "M", "2.5", "how far away the kiosk is read, metres: where the panel's size is known and the callsign's capitals would be under 15 arc-minutes there (or the altitude's under 12), the card shows four rows at the sizes the distance needs") {
            $0.viewingDistanceMetres = try number($1, "viewing_distance_m", ViewingGeometry.plausibleDistance)
        },
        .init("rotation", flag: "--rotate", "0|90|180|270[, …]", "0", "turn the picture clockwise for a panel mounted sideways or upside down (size stays the panel's mode; with several outputs, one for all or one each)") {
            let turns = try list($1, "rotation", maximum: KioskConfiguration.maximumOutputs) { text in
                guard let degrees = Int(text), let r = DisplayRotation(degrees: degrees) else {
                    throw ConfigurationError("rotation: expected 0, 90, 180 or 270, not '\(ExternalText.oneLine(text, maximumBytes: 40))'")
                }
                return r
            }
            // Upright for every output is the default, however it was said.
            $0.rotations = turns == [.upright] ? [] : turns
        },
        .init("pixel_format", flag: "--pixel-format", "xrgb8888|rgb565", "xrgb8888", "the scanout format: rgb565 for 16-bit panels (dithered)") {
            $0.pixelFormat = try choice($1, "pixel_format")
        },
        .init("render.threads", "auto|1...8", "auto", "threads that draw a whole frame (a transition's), a band of rows each; auto: the processors the kiosk may use, at most 4 (the sweep's frames are drawn on one)") {
            if $1 == "auto" { $0.renderThreads = nil; return }
            let threads = try number($1, "render.threads", 1...8)
            guard threads == threads.rounded() else { throw ConfigurationError("render.threads: expected auto or a whole number in 1...8, not '\($1)'") }
            $0.renderThreads = Int(threads)
        },
        .init("fonts", flag: "--fonts", "DIR", "install prefix", "directory holding B612-Regular.otf, B612-Bold.otf, B612Mono-Regular.otf") {
            $0.fonts = try nonEmpty($1, "fonts")
        },
        .init("socket", flag: "--socket", "PATH", "none", "unix socket for JSON commands (mode 0660)") {
            let path = try nonEmpty($1, "socket")
            guard path.utf8.count < 108 else { throw ConfigurationError("socket: a unix socket path must be under 108 bytes") }
            $0.socket = path
        },
        .init("feed", flag: "--feed", "auto|FILE|http[s]://HOST[:PORT]/PATH|sbs://HOST:PORT|adsb.lol|adsb.fi", "none",
              "live aircraft: aircraft.json from a file (auto: /run/readsb, /run/dump1090-fa, /run/dump1090-mutability, /run/skyaware978, else a feeder's http://127.0.0.1:8080/data/aircraft.json) or over HTTP or HTTPS, SBS-1 over TCP, or a public aggregator's aircraft around the station (adsb.lol, adsb.fi); several, comma-separated, are merged") {
            do { $0.feed = try FeedSpec(parsing: $1) } catch { throw ConfigurationError("feed: \(error)") }
        },
        .init("feed.ca_file", flag: "--feed-ca-file", "FILE", "the system's CAs", "certificate authorities (PEM) trusted for an https:// feed instead of the system's") {
            $0.feedCAFile = try nonEmpty($1, "feed.ca_file")
        },
        .init("station", flag: "--station", "LAT,LON", "none", live: true, "the kiosk's position in decimal degrees (with a local aircraft.json, the receiver's own from receiver.json when not set)") {
            let parts = $1.split(separator: ",", omittingEmptySubsequences: false).map { decimal($0.trimmed(" ")) }
            guard parts.count == 2, let lat = parts[0], let lon = parts[1], abs(lat) <= 90, abs(lon) <= 180 else {
                throw ConfigurationError("station: expected LAT,LON in decimal degrees, not '\($1)'")
            }
            $0.station = GeoPoint(latitude: lat, longitude: lon)
        },
        .init("station.facing_deg", "DEGREES|N|NE|E|SE|S|SW|W|NW", "none", live: true,
              "the direction the kiosk looks out on (its window): the dial's top is that way, not north, and the card says where to look as ahead, left, right or behind you") {
            $0.facing = try bearing($1, "station.facing_deg")
        },
        .init("station.elevation_ft", "FEET", "0", live: true, "the ground's height at the station above sea level: the card's angle above the horizon counts from it") {
            $0.stationElevationFeet = try number($1, "station.elevation_ft", -1500...15_000)
        },
        .init("overhead.radius_nm", flag: "--radius", "NM", "3", live: true, "an aircraft within this distance is overhead") {
            $0.radiusNM = try number($1, "overhead.radius_nm", 0.1...100)
        },
        .init("overhead.exit_radius_nm", "NM", "radius + 0.5", live: true, "the shown aircraft stays until beyond this distance") {
            $0.exitRadiusNM = try number($1, "overhead.exit_radius_nm", 0.1...100)
        },
        .init("overhead.ceiling_ft", flag: "--ceiling", "FEET", "10000", live: true, "only aircraft at or below this altitude") {
            $0.ceilingFeet = Int(try number($1, "overhead.ceiling_ft", 0...60_000))
        },
        .init("overhead.max_position_age_s", "SECONDS", "15", live: true, "positions older than this are ignored (younger ones are carried forward along the track)") {
            $0.maximumPositionAge = try number($1, "overhead.max_position_age_s", 1...3600)
        },
        .init("overhead.include_ground", flag: "--include-ground", "yes|no", "no", live: true, "also show aircraft on the ground") {
            $0.includeGround = try yesNo($1, "overhead.include_ground")
        },
        .init("overhead.hold_s", "SECONDS", "8", live: true, "keep showing an aircraft this long after it stops qualifying") {
            $0.holdSeconds = try number($1, "overhead.hold_s", 0...3600)
        },
        .init("overhead.cycle_s", "SECONDS", "8", live: true, "with several aircraft overhead, each is shown this long in turn, the card saying which (\"2/3\"); 0 shows the closest (2 to 600, or 0)") {
            let seconds = try number($1, "overhead.cycle_s", 0...600)
            guard seconds == 0 || seconds >= 2 else { throw ConfigurationError("overhead.cycle_s: expected 0 or 2 to 600 seconds, not '\($1)'") }
            $0.cycleSeconds = seconds
        },
        .init("overhead.ignore", "HEX-OR-CALLSIGN,...", "none", live: true, "aircraft never shown") {
            $0.ignore = $1.split(separator: ",").map { $0.trimmed(" ").lowercased() }.filter { !$0.isEmpty }
        },
        .init("routes", "FILE", "none", "callsign-to-route file: lines 'BAW283 LHR → LAX' (routes up to 40 characters, the file up to 2 MiB); it wins over the standing data") {
            $0.routes = try nonEmpty($1, "routes")
        },
        .init("standing_data", "auto|none|FILE", "auto", "routes, airlines and aircraft types (the shipped standing-data.rksd)") {
            switch $1 {
            case "auto": $0.standingData = .auto
            case "none": $0.standingData = .none
            default: $0.standingData = .file(try nonEmpty($1, "standing_data"))
            }
        },
        .init("overflight_log", "auto|none|FILE", "auto", "one line per overflight (auto: overflights.jsonl in the service's state directory)") {
            switch $1 {
            case "auto": $0.overflightLog = .auto
            case "none": $0.overflightLog = .none
            default: $0.overflightLog = .file(try nonEmpty($1, "overflight_log"))
            }
        },
        .init("alerts.emergency", "yes|no", "yes", "show an aircraft squawking 7500, 7600 or 7700 (or declaring an emergency) first") {
            $0.alerts.emergencies = try yesNo($1, "alerts.emergency")
        },
        .init("alerts.military", "yes|no", "no", "show military aircraft first (readsb's database flags; on feeds without them, an address in a military block of the standing data)") {
            $0.alerts.military = try yesNo($1, "alerts.military")
        },
        .init("alerts.watch_list", "FILE", "none", "aircraft to show first: lines hex:4CA7B5, reg:G-EUPT, callsign:RRR, type:A400") {
            $0.alertWatchList = try nonEmpty($1, "alerts.watch_list")
        },
        .init("alerts.radius_nm", "NM", "10", "an alert is shown from this far away") {
            $0.alerts.radiusNM = try number($1, "alerts.radius_nm", 0.1...250)
        },
        .init("alerts.ceiling_ft", "FEET", "45000", "an alert is shown at or below this altitude") {
            $0.alerts.ceilingFeet = Int(try number($1, "alerts.ceiling_ft", 0...60_000))
        },
        .init("alerts.gpio_line", "NAME|CHIP:OFFSET", "none", "an output line driven active while an alert shows (a buzzer, a lamp)") {
            $0.alertGPIOLine = try nonEmpty($1, "alerts.gpio_line")
        },
        .init("alerts.gpio_active_low", "yes|no", "no", "the alert line is active when low") {
            $0.alertGPIOActiveLow = try yesNo($1, "alerts.gpio_active_low")
        },
        .init("sweep", "wedge|line|off", "wedge", live: true,
              "standby's sweep: a wedge fading behind its edge, the edge alone, or none (then a standby screen draws nothing until something changes)") {
            $0.sweep.style = try choice($1, "sweep")
        },
        .init("sweep.period_s", "SECONDS", "6", live: true, "how long the sweep takes to turn once") {
            $0.sweep.periodSeconds = try number($1, "sweep.period_s", 2...60)
        },
        .init("sweep.opacity", "PERCENT", "60", live: true, "how bright the sweep is, of its full brightness") {
            $0.sweep.opacity = try number($1.hasSuffix("%") ? String($1.dropLast()) : $1, "sweep.opacity", 5...100) / 100
        },
        .init("standby.info", "clock,today|clock|today|none", "clock,today", live: true,
              "standby's corner: the local time, and today's overflights from the overflight log (how many, the lowest, the closest, the last)") {
            let parts = $1.lowercased().split(separator: ",").map { $0.trimmed(" \t") }
            guard !parts.isEmpty, parts == ["none"] || (Set(parts).isSubset(of: ["clock", "today"]) && Set(parts).count == parts.count) else {
                throw ConfigurationError("standby.info: expected clock,today, clock, today or none, not '\(ExternalText.oneLine($1, maximumBytes: 40))'")
            }
            $0.standbyInfo = StandbyInfoChoice(showsClock: parts.contains("clock"), showsToday: parts.contains("today"))
        },
        .init("traffic", "yes|no", "yes", "the aircraft around as blips on the dial (with a feed), dimmed in an overflight") {
            $0.showsTraffic = try yesNo($1, "traffic")
        },
        .init("traffic.airports", "yes|no", "yes", live: true,
              "the airports airlines serve within the dial's range (100 or more scheduled routes in the standing data) as small marks with their codes, under the blips") {
            $0.showsAirports = try yesNo($1, "traffic.airports")
        },
        .init("traffic.range_nm", "auto|NM", "auto", "the dial's range: auto steps through 4, 8, 20 and 40 NM to fit the traffic (in an overflight, the card's aircraft and its four nearest neighbours)") {
            $0.trafficRangeNM = $1 == "auto" ? nil : try number($1, "traffic.range_nm", 1...250)
        },
        .init("mqtt.broker", "[mqtts://]HOST[:PORT]", "none",
              "an MQTT broker (port 1883; with mqtts://, TLS on port 8883, its certificate checked) for home automation: state, events, commands, Home Assistant discovery") {
            let secure = $1.lowercased().hasPrefix("mqtts://")
            let plain = $1.lowercased().hasPrefix("mqtt://")
            let authority = secure ? $1.dropFirst(8) : plain ? $1.dropFirst(7) : $1[...]
            do {
                let (host, port) = try FeedSpec.authority(authority, defaultPort: secure ? 8883 : 1883, in: $1)
                $0.mqttBroker = NetworkAddress(host: host, port: port)
                $0.mqttPortGiven = authority.contains("]:") || (!authority.hasPrefix("[") && authority.contains(":"))
                if secure { $0.mqttTLS = true }
            } catch {
                throw ConfigurationError("mqtt.broker: \(error)")
            }
        },
        .init("mqtt.tls", "yes|no", "no", "reach the broker over TLS, on port 8883 unless mqtt.broker gives one (as mqtts:// does)") {
            $0.mqttTLS = try yesNo($1, "mqtt.tls") || $0.mqttTLS
        },
        .init("mqtt.ca_file", "FILE", "the system's CAs", "certificate authorities (PEM) trusted for a TLS broker instead of the system's") {
            $0.mqttCAFile = try nonEmpty($1, "mqtt.ca_file")
        },
        .init("mqtt.cert_file", "FILE", "none", "the kiosk's own certificate (PEM) for a TLS broker that asks for one") {
            $0.mqttCertificateFile = try nonEmpty($1, "mqtt.cert_file")
        },
        .init("mqtt.key_file", "FILE", "in the certificate's file", "the key of mqtt.cert_file (PEM, unencrypted; keep it mode 0640)") {
            $0.mqttKeyFile = try nonEmpty($1, "mqtt.key_file")
        },
        .init("mqtt.topic", "TOPIC", "radar-kiosk", "the kiosk's topics begin with this") {
            $0.mqttTopic = try topic($1, "mqtt.topic")
        },
        .init("mqtt.client_id", "ID", "radar-kiosk", "the client id (one per kiosk on a broker)") {
            let id = try nonEmpty($1, "mqtt.client_id")
            guard id.utf8.count <= 64, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
                throw ConfigurationError("mqtt.client_id: letters, digits, - _ and . only, at most 64, not '\(ExternalText.oneLine($1, maximumBytes: 40))'")
            }
            $0.mqttClientID = id
        },
        .init("mqtt.username", "NAME", "none", "the user name for the broker") {
            $0.mqttUsername = try nonEmpty($1, "mqtt.username")
        },
        .init("mqtt.password_file", "FILE", "none", "a file holding the broker's password (one line; keep it mode 0640)") {
            $0.mqttPasswordFile = try nonEmpty($1, "mqtt.password_file")
        },
        .init("mqtt.discovery", "yes|no", "yes", "announce the kiosk to Home Assistant (MQTT discovery): sensors, an overflight event, the screen's switch, mode, brightness and wake") {
            $0.mqttDiscovery = try yesNo($1, "mqtt.discovery")
        },
        .init("mqtt.discovery_prefix", "TOPIC", "homeassistant", "Home Assistant's discovery prefix") {
            $0.mqttDiscoveryPrefix = try topic($1, "mqtt.discovery_prefix")
        },
        .init("mqtt.name", "TEXT", "none", "the device's name in Home Assistant, and so the start of its entities' names (two kiosks on one broker need two; none: Radar kiosk and the host name)") {
            $0.mqttName = try deviceText($1, "mqtt.name")
        },
        .init("mqtt.area", "TEXT", "none", "the area Home Assistant suggests for the device (Living room)") {
            $0.mqttArea = try deviceText($1, "mqtt.area")
        },
        .init("night.from", "HH:MM|sunset[+-N(m|h)]|sunrise[+-N(m|h)]", "none", live: true,
              "when the night begins each day (sunrise and sunset are the station's)") {
            $0.nightFrom = try clockTime($1, "night.from")
        },
        .init("night.until", "HH:MM|sunrise[+-N(m|h)]|sunset[+-N(m|h)]", "none", live: true, "when the night ends (the next day when earlier than night.from)") {
            $0.nightUntil = try clockTime($1, "night.until")
        },
        .init("night.screen", "off|dim", "off", live: true, "at night the screen is off (a wake key, line or command shows it for screen.linger_s), or dimmed") {
            $0.screen.nightAction = try choice($1, "night.screen")
        },
        .init("night.brightness", "PERCENT", "30", live: true, "the brightness at night with night.screen = dim (of the light, in linear light; the card's text is lightened to read at it)") {
            $0.screen.nightBrightness = try number($1.hasSuffix("%") ? String($1.dropLast()) : $1, "night.brightness", 1...100) / 100
        },
        .init("screen.overhead_only", "yes|no", "no", live: true, "the screen is off unless an aircraft is shown (and screen.linger_s after it)") {
            $0.screen.overheadOnly = try yesNo($1, "screen.overhead_only")
        },
        .init("screen.linger_s", "SECONDS", "60", live: true, "how long the screen stays on after an aircraft, or after a wake") {
            $0.screen.lingerSeconds = try number($1, "screen.linger_s", 0...86_400)
        },
        .init("backlight", "auto|none|DIR", "auto", "the panel's backlight (auto: the first in /sys/class/backlight); without one, dimming darkens the picture") {
            switch $1 {
            case "auto": $0.backlight = .auto
            case "none": $0.backlight = .none
            default: $0.backlight = .directory(try nonEmpty($1, "backlight"))
            }
        },
        .init("units.altitude", "ft|m", "ft", "altitude on the card in feet or metres") {
            $0.units.altitude = try choice($1, "units.altitude")
        },
        .init("units.speed", "kt|km/h|mph", "kt", "ground speed on the card") {
            $0.units.speed = try choice($1, "units.speed")
        },
        .init("units.distance", "nm|km|mi", "nm", "distance on the card") {
            $0.units.distance = try choice($1, "units.distance")
        },
        .init("units.flight_levels_above", "FEET|none", "none", "above this transition altitude the card shows a flight level (FL360)") {
            $0.units.flightLevelsAbove = $1 == "none" ? nil : Int(try number($1, "units.flight_levels_above", 1000...20_000))
        },
        .init("keyboard", "auto|none|/dev/input/eventN", "auto", "keyboards to read: every keyboard, none, or one device") {
            switch $1 {
            case "auto": $0.keyboard = .auto
            case "none": $0.keyboard = .none
            case let path where path.hasPrefix("/dev/input/"): $0.keyboard = .device(path)
            default: throw ConfigurationError("keyboard: expected auto, none or /dev/input/eventN, not '\($1)'")
            }
        },
        .init("keyboard.grab", "yes|no", "yes", "take keys away from the console and other programs") {
            $0.keyboardGrab = try yesNo($1, "keyboard.grab")
        },
        .init("touch", "yes|no", "yes", "read touchscreens (multitouch panels such as the Pi's, USB touch panels, absolute pointers); a tap on a blip shows that aircraft's card, on the card the next one, on the dial standby; a long press steps the dial's range; a touch on a dark screen wakes it") {
            $0.touch = try yesNo($1, "touch")
        },
        .init("touch.swap_xy", "yes|no", "no", "the touchscreen's axes are swapped against the panel's (a panel wired the other way)") {
            $0.touchMapping.swapsAxes = try yesNo($1, "touch.swap_xy")
        },
        .init("touch.invert_x", "yes|no", "no", "the touchscreen's X runs the other way (after touch.swap_xy)") {
            $0.touchMapping.invertsX = try yesNo($1, "touch.invert_x")
        },
        .init("touch.invert_y", "yes|no", "no", "the touchscreen's Y runs the other way (after touch.swap_xy)") {
            $0.touchMapping.invertsY = try yesNo($1, "touch.invert_y")
        },
        .init("touch.linger_s", "SECONDS", "30", "how long a card chosen by a tap stays before standby (5 to 600)") {
            $0.touchLingerSeconds = try number($1, "touch.linger_s", 5...600)
        },
        .init("screenshot_dir", "DIR", "/run/radar-kiosk", live: true, "where screenshots go (SIGUSR1, and the screenshot command's file name)") {
            $0.screenshotDirectory = try nonEmpty($1, "screenshot_dir")
        },
        .init("gpio.line", "NAME|CHIP:OFFSET", "none", "a GPIO input: active means OVERFLIGHT, inactive STANDBY (a name like GPIO17 survives chip renumbering)") {
            $0.gpioLine = try nonEmpty($1, "gpio.line")
        },
        .init("gpio.active_low", "yes|no", "no", "the line is active when low") {
            $0.gpioActiveLow = try yesNo($1, "gpio.active_low")
        },
        .init("gpio.bias", "as-is|pull-up|pull-down|disabled", "as-is", "the line's bias") {
            $0.gpioBias = try choice($1, "gpio.bias")
        },
        .init("gpio.action", "overflight|wake", "overflight", "what the line does: OVERFLIGHT while active, or wake the screen on each press") {
            $0.gpioAction = try choice($1, "gpio.action")
        },
        .init("gpio.debounce_ms", "MILLISECONDS", "20", "the kernel's debounce period for the line (0 to 1000)") {
            $0.gpioDebounceMilliseconds = Int(try number($1, "gpio.debounce_ms", 0...1000))
        },
    ]

    // MARK: value forms, each with the one error message it gives

    static func nonEmpty(_ value: String, _ key: String) throws -> String {
        guard !value.isEmpty else { throw ConfigurationError("\(key): needs a value") }
        return value
    }

    /// Comma-separated values, each read by `read`: at least one, at most `maximum`, none repeated.
    static func list<T: Equatable>(_ value: String, _ key: String, maximum: Int, _ read: (String) throws -> T) throws -> [T] {
        let parts = value.split(separator: ",", omittingEmptySubsequences: false).map { String($0.trimmed(" \t")) }
        guard !parts.contains(where: \.isEmpty) else { throw ConfigurationError("\(key): needs a value (an empty item in '\(ExternalText.oneLine(value, maximumBytes: 80))')") }
        guard parts.count <= maximum else { throw ConfigurationError("\(key): at most \(maximum) values, not \(parts.count)") }
        let values = try parts.map(read)
        if key == "output", let twice = parts.indices.first(where: { i in parts[..<i].contains(parts[i]) }) {
            throw ConfigurationError("\(key): \(ExternalText.oneLine(parts[twice], maximumBytes: 40)) is named twice")
        }
        return values
    }

    static func choice<T: RawRepresentable & CaseIterable>(_ value: String, _ key: String) throws -> T where T.RawValue == String {
        guard let v = T(rawValue: value) else {
            let names = T.allCases.map(\.rawValue)
            throw ConfigurationError("\(key): expected \(names.dropLast().joined(separator: ", ")) or \(names.last ?? ""), not '\(value)'")
        }
        return v
    }

    /// A compass bearing: degrees (0 to under 360) or one of the sixteen points.
    static func bearing(_ value: String, _ key: String) throws -> Double {
        if let point = CompassPoint.bearing(named: value.uppercased()) { return point }
        guard let v = decimal(value), v >= 0, v < 360 else {
            throw ConfigurationError("\(key): expected degrees from 0 to under 360 or a compass point (N, NE, E, …, NNW), not '\(ExternalText.oneLine(value, maximumBytes: 40))'")
        }
        return v
    }

    static func number(_ value: String, _ key: String, _ range: ClosedRange<Double>) throws -> Double {
        guard let v = decimal(value), range.contains(v) else {
            throw ConfigurationError("\(key): expected a number in \(range.lowerBound.clean)...\(range.upperBound.clean), not '\(value)'")
        }
        return v
    }

    /// A topic to publish under: no wildcards, no leading or trailing slash.
    /// A name for home automation to show: one line of at most 64 characters, none of them control or invisible.
    static func deviceText(_ value: String, _ key: String) throws -> String {
        let text = try nonEmpty(value.trimmed(" \t"), key)
        if let problem = ShownText.problem(text, maximumLength: 64) { throw ConfigurationError("\(key): \(problem)") }
        return text
    }

    static func topic(_ value: String, _ key: String) throws -> String {
        guard !value.isEmpty, value.utf8.count <= 128, !value.hasPrefix("/"), !value.hasSuffix("/"),
              value.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "+" && $0 != "#" && $0.asciiValue! >= 0x20 }) else {
            throw ConfigurationError("\(key): expected a topic like radar-kiosk or home/radar (no + or #, spaces or outer /), not '\(ExternalText.oneLine(value, maximumBytes: 40))'")
        }
        return value
    }

    static func clockTime(_ value: String, _ key: String) throws -> ClockTime {
        guard let time = ClockTime(parsing: value) else {
            throw ConfigurationError("\(key): expected HH:MM, sunrise or sunset with an offset like sunset+30m or sunrise-1h, not '\(ExternalText.oneLine(value, maximumBytes: 40))'")
        }
        return time
    }

    static func yesNo(_ value: String, _ key: String) throws -> Bool {
        switch value.lowercased() {
        case "yes", "true", "on", "1": return true
        case "no", "false", "off", "0": return false
        default: throw ConfigurationError("\(key): expected yes or no, not '\(value)'")
        }
    }

    static func pixelSize(_ value: String, _ key: String) throws -> PixelSize {
        let parts = value.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (16...8192).contains(w), (16...8192).contains(h) else {
            throw ConfigurationError("\(key): expected WIDTHxHEIGHT, each 16...8192 (e.g. 1920x1080), not '\(value)'")
        }
        return PixelSize(width: w, height: h)
    }

    public static func panelSize(_ value: String, _ key: String) throws -> PanelSize {
        let parts = value.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = decimal(parts[0]), let h = decimal(parts[1]), (20...5000).contains(w), (20...5000).contains(h) else {
            throw ConfigurationError("\(key): expected WIDTHxHEIGHT in mm, each 20...5000 (e.g. 154x86 for a 7-inch panel), not '\(ExternalText.oneLine(value, maximumBytes: 40))'")
        }
        return PanelSize(width: w, height: h)
    }

    /// A plain decimal (no hex, exponents, `nan` or `inf`).
    static func decimal<S: StringProtocol>(_ text: S) -> Double? { PlainNumber.parse(text) }
}

extension Double {
    var clean: String { self == rounded() ? String(Int(self)) : String(self) }
}
