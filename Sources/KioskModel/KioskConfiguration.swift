import Display
import Feed
import Input
import JSON
import SystemIO

/// What the kiosk does with a key.
public enum KeyAction: String, Sendable, CaseIterable {
    case toggle, overflight, standby, next, quit
    /// Switches the screen on for a while (night, or "on only while overhead").
    case wake
}

/// What the GPIO input line does.
public enum GPIOAction: String, Sendable, CaseIterable {
    /// Active means OVERFLIGHT, inactive STANDBY (a sensor or a switch saying something is overhead).
    case overflight
    /// An active edge wakes the screen for screen.linger_s (a button, a motion sensor).
    case wake
}

/// Where the kiosk shows its picture.
public enum DisplayChoice: String, Sendable, CaseIterable {
    /// A free DRM output if there is one, else headless (taking a display that appears later).
    case auto
    /// A DRM output or nothing: exit if none can be had, so systemd retries.
    case drm
    /// No screen: a simulated display (recordings, screenshots, tests).
    case headless
}

/// Which keyboards the kiosk reads.
public enum KeyboardChoice: Equatable, Sendable {
    case auto
    case none
    case device(String)
}

/// What one output is asked to show: which connector, the mode's size and
/// refresh (nil: the output chooses), and the turn for a panel mounted sideways.
public struct OutputSettings: Equatable, Sendable {
    public var name: String?
    public var size: PixelSize?
    public var refresh: Double?
    public var rotation: DisplayRotation
}

/// A picture or mode size in pixels.
/// Where overflights are logged.
public enum OverflightLogChoice: Equatable, Sendable {
    /// overflights.jsonl in $STATE_DIRECTORY (the service's); none when run by hand.
    case auto
    case none
    case file(String)

    /// The file this choice means here, if any.
    public func path(stateDirectory: String?) -> String? {
        switch self {
        case .none: return nil
        case let .file(path): return path
        case .auto: return stateDirectory.flatMap { $0.isEmpty ? nil : $0.split(separator: ":").first.map { $0 + "/overflights.jsonl" } }
        }
    }
}

/// A host and port on the network.
public struct NetworkAddress: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: UInt16
    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Which backlight the kiosk drives.
public enum BacklightChoice: Equatable, Sendable {
    /// The first in /sys/class/backlight, if any.
    case auto
    /// None: dimming darkens the picture.
    case none
    /// This sysfs backlight directory.
    case directory(String)
}

/// Where the card's routes, airline names and aircraft types come from.
public enum StandingDataChoice: Equatable, Sendable {
    /// The shipped file, wherever it is installed.
    case auto
    case none
    case file(String)
}

public struct PixelSize: Equatable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    public var description: String { "\(width)x\(height)" }
}

/// A panel's visible size, mm, as its mode stands (before any rotation).
public struct PanelSize: Equatable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
    public var description: String { "\(width.clean)x\(height.clean) mm" }

    /// The size as a picture of `width` x `height` px stands on it: turned
    /// when the picture is turned a quarter from the mode.
    public func standing(width: Int, height: Int) -> PanelSize {
        (self.width > self.height) != (width > height) && self.width != self.height && width != height
            ? PanelSize(width: self.height, height: self.width) : self
    }
}

/// The configuration file (default /etc/radar-kiosk/radar-kiosk.conf):
/// `key = value` lines, `#` comments, every key optional. Command-line flags
/// override it. Each key, its flag, its form and its meaning are one row of
/// `ConfigurationKey.all`, which drives the file's parser, the flags of `run`
/// and the help text alike.
public struct KioskConfiguration: Equatable, Sendable {
    public var display = DisplayChoice.auto
    /// The connectors to show on; none: the first connected one.
    public var outputs: [String] = []
    /// The modes asked for: none (each output chooses), one for every output, or one each.
    public var sizes: [PixelSize] = []
    public var refresh: Double?
    /// The turns asked for: none (upright), one for every output, or one each.
    public var rotations: [DisplayRotation] = []
    /// Each panel's size, mm (empty: as the display reports it).
    public var panelSizes: [PanelSize] = []
    /// How far away the kiosk is read, metres: the card's type is sized for it.
    public var viewingDistanceMetres = ViewingGeometry.defaultDistanceMetres
    public var pixelFormat = ScanoutPixelFormat.xrgb8888
    /// Threads drawing a whole frame; nil: `automaticRenderThreads`.
    public var renderThreads: Int?
    /// The processors the kiosk may use, at most four: every board it targets
    /// has four cores, and each band more repeats every leaf's shaping and
    /// flattening for fewer rows.
    public static func automaticRenderThreads(available: Int) -> Int { min(max(available, 1), 4) }
    public var fonts: String?
    public var socket: String?
    public var feed: FeedSpec?
    public var feedCAFile: String?
    public var station: GeoPoint?
    /// The compass bearing the dial's top stands for (the window's view); nil: north up.
    public var facing: Double?
    /// The ground's height at the station above sea level, ft: how far above it an aircraft is.
    public var stationElevationFeet = 0.0
    public var radiusNM = 3.0
    public var exitRadiusNM: Double?
    public var ceilingFeet = 10_000
    public var maximumPositionAge = 15.0
    public var includeGround = false
    public var holdSeconds = 8.0
    public var cycleSeconds = 8.0
    public var ignore: [String] = []
    public var routes: String?
    public var standingData = StandingDataChoice.auto
    public var units = DisplayUnits()
    /// Emergencies on, military off, no watch list: an alert is rare and means something.
    public var alerts: AlertRules = {
        var rules = AlertRules()
        rules.military = false
        return rules
    }()
    public var alertWatchList: String?
    public var alertGPIOLine: String?
    public var alertGPIOActiveLow = false
    public var overflightLog = OverflightLogChoice.auto
    public var nightFrom: ClockTime?
    public var nightUntil: ClockTime?
    /// The screen's settings (night action and brightness, on only while overhead, linger).
    public var screen = ScreenPolicy()
    public var backlight = BacklightChoice.auto
    public var showsTraffic = true
    /// Whether the dial marks the airports around the station.
    public var showsAirports = true
    /// How standby's dial sweeps.
    public var sweep = SweepSettings()
    /// What standby's corner shows.
    public var standbyInfo = StandbyInfoChoice.clockAndToday
    public var mqttBroker: NetworkAddress?
    /// The broker is reached over TLS (mqtts://, or mqtt.tls = yes).
    public var mqttTLS = false
    /// Whether mqtt.broker named a port (else 1883, or 8883 with TLS).
    public var mqttPortGiven = false
    public var mqttCAFile: String?
    public var mqttCertificateFile: String?
    public var mqttKeyFile: String?
    /// The broker as the client reaches it: TLS's port 8883 unless one was given.
    public var mqttAddress: NetworkAddress? {
        mqttBroker.map { NetworkAddress(host: $0.host, port: mqttTLS && !mqttPortGiven ? 8883 : $0.port) }
    }
    public var mqttTopic = "radar-kiosk"
    public var mqttClientID = "radar-kiosk"
    public var mqttUsername: String?
    public var mqttPasswordFile: String?
    public var mqttDiscovery = true
    public var mqttDiscoveryPrefix = "homeassistant"
    /// The device's name in Home Assistant; nil: "Radar kiosk" and the host name.
    public var mqttName: String?
    /// The area Home Assistant suggests for the device.
    public var mqttArea: String?
    /// A fixed range for the dial, NM; nil steps with the traffic.
    public var trafficRangeNM: Double?
    public var keyboard = KeyboardChoice.auto
    public var keyboardGrab = true
    public var touch = true
    /// The touchscreen's calibration; its turn is the first output's rotation.
    public var touchMapping = TouchMapping()
    public var touchLingerSeconds = 30.0
    /// Key name (lower case) → action.
    public var keys: [String: KeyAction] = ["space": .toggle, "o": .overflight, "s": .standby, "n": .next, "q": .quit, "w": .wake]
    public var screenshotDirectory = "/run/radar-kiosk"
    public var gpioLine: String?
    public var gpioActiveLow = false
    public var gpioBias = GPIOLine.Bias.asIs
    public var gpioDebounceMilliseconds = 20
    public var gpioAction = GPIOAction.overflight
    /// The most outputs shown at once: a Pi's two HDMI ports, with room to spare.
    public static let maximumOutputs = 4

    /// The first output's connector, if one is named.
    public var output: String? { outputs.first }
    /// The first output's mode size, if one is asked for (the headless picture's too).
    public var size: PixelSize? { sizes.first }
    /// The first output's turn.
    public var rotation: DisplayRotation { rotations.first ?? .upright }

    /// What output `index` is asked to show: its name, its mode and its turn.
    public func outputSettings(_ index: Int) -> OutputSettings {
        func pick<T>(_ values: [T]) -> T? { values.count > index ? values[index] : values.count == 1 ? values[0] : nil }
        return OutputSettings(name: outputs.count > index ? outputs[index] : nil, size: pick(sizes), refresh: refresh,
                              rotation: pick(rotations) ?? .upright)
    }

    /// The layout of output `index` showing `presenter`'s picture: its size,
    /// and how it is seen (`panel_mm`, else the size the display reports,
    /// at `viewing_distance_m`).
    public func layout(for presenter: Presenter, output index: Int) -> KioskLayout {
        let (width, height) = (presenter.width, presenter.height)
        // Given as the mode stands: turned with a picture that stands the other way.
        let panel = (panelSizes.count > index ? panelSizes[index] : panelSizes.count == 1 ? panelSizes[0] : nil)?.standing(width: width, height: height)
        let size = panel ?? presenter.physicalSize.map { PanelSize(width: Double($0.width), height: Double($0.height)) }
        let viewing = size.flatMap {
            ViewingGeometry(distanceMetres: viewingDistanceMetres, widthMM: $0.width, heightMM: $0.height, width: width, height: height)
        }
        return KioskLayout(width: width, height: height, viewing: viewing)
    }

    /// How many outputs are shown: those named, else the first connected one.
    public var outputCount: Int { max(outputs.count, 1) }

    /// What is wrong between `output`, `size` and `rotation`: a list of sizes or turns that is not one per output.
    var outputProblems: [String] {
        var problems: [String] = []
        for (key, count) in [("size", sizes.count), ("rotation", rotations.count), ("panel_mm", panelSizes.count)] where count > 1 && count != outputCount {
            problems.append("\(key) gives \(count) values for \(outputCount) output\(outputCount == 1 ? "" : "s") (one for all, or one each)")
        }
        return problems
    }

    /// Each key's text as the file or a flag gave it, to tell what a reload changes.
    public private(set) var givenValues: [String: String] = [:]

    public init() {}

    public static let defaultPath = "/etc/radar-kiosk/radar-kiosk.conf"

    /// Parses a file's text; problems are `NAME:LINE: what is wrong`, one each.
    /// Lines may end in LF or CRLF, a byte-order mark is ignored, and a value
    /// may be followed by a `#` comment.
    public static func parse(_ text: String, name: String) -> (KioskConfiguration, [String]) {
        var c = KioskConfiguration()
        var problems: [String] = []
        var seen: [String: Int] = [:]
        let body = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        for (index, raw) in body.textLines.enumerated() {
            let lineNumber = index + 1
            var line = raw.trimmed(" \t")
            if let hash = line.firstIndex(of: "#") { line = line[..<hash].trimmed(" \t") }
            if line.isEmpty { continue }
            func problem(_ text: String) { problems.append("\(name):\(lineNumber): \(text)") }
            guard let eq = line.firstIndex(of: "=") else { problem("expected KEY = VALUE, not '\(ExternalText.oneLine(String(line), maximumBytes: 80))'"); continue }
            let key = line[..<eq].trimmed(" \t").lowercased()
            let value = line[line.index(after: eq)...].trimmed(" \t")
            if let first = seen[key] { problem("\(key) is set again (first on line \(first))"); continue }
            seen[key] = lineNumber
            do {
                try c.set(key, to: value)
            } catch {
                problem("\(error)")
            }
        }
        problems += c.outputProblems.map { "\(name): \($0)" }
        if (c.nightFrom == nil) != (c.nightUntil == nil) {
            problems.append("\(name): night.from and night.until go together (one is set without the other)")
        }
        if c.night?.usesSun == true && c.station == nil && c.feed == nil {
            problems.append("\(name): night.from/night.until use the sun, which needs the station (station = LAT,LON)")
        }
        // A local aircraft.json has the receiver's position beside it (receiver.json); a network feed has not.
        let needsStation = c.feed?.sources.contains { spec in
            switch spec {
            case .http, .https, .sbs, .aggregator, .several: return true // only local files have a receiver.json beside them
            case .file, .auto: return false
            }
        } ?? false
        if needsStation && c.station == nil {
            problems.append("\(name): feed is set but station is not (distances need the kiosk's position)")
        }
        return (c, problems)
    }

    /// Sets one key from its text, as the file and the flags give it.
    public mutating func set(_ key: String, to value: String) throws {
        defer { givenValues[key] = value }
        if let entry = ConfigurationKey.named(key) {
            try entry.apply(&self, value)
        } else if key.hasPrefix("key.") {
            let keyName = String(key.dropFirst(4)).lowercased()
            guard KeyNames.code(for: keyName) != nil else {
                throw ConfigurationError("\(key): unknown key '\(keyName)' (a-z, 0-9, space, enter, escape, up, down, left, right)")
            }
            if value == "none" { keys[keyName] = nil } else if let action = KeyAction(rawValue: value) { keys[keyName] = action } else {
                throw ConfigurationError("\(key): expected \(KeyAction.allCases.map(\.rawValue).joined(separator: ", ")) or none, not '\(value)'")
            }
        } else {
            throw ConfigurationError("unknown key '\(ExternalText.oneLine(key, maximumBytes: 80))'")
        }
    }

    /// Whether `other` gives `key` the same text (both leaving it unset counts).
    public func agrees(with other: KioskConfiguration, on key: String) -> Bool {
        givenValues[key] == other.givenValues[key]
    }

    /// Takes the settings a running kiosk applies without a restart: the
    /// configuration is made again from the texts given, `fresh`'s for the
    /// keys the table marks live (and the key bindings), this one's for the
    /// rest. The table is the one list of what a reload applies.
    public mutating func adoptLiveSettings(from fresh: KioskConfiguration) {
        func isLive(_ name: String) -> Bool { ConfigurationKey.named(name)?.appliesLive ?? name.hasPrefix("key.") }
        var next = KioskConfiguration()
        // Both texts were read without a problem, so setting them again cannot fail.
        for (name, text) in givenValues.sorted(by: { $0.key < $1.key }) where !isLive(name) { try? next.set(name, to: text) }
        for (name, text) in fresh.givenValues.sorted(by: { $0.key < $1.key }) where isLive(name) { try? next.set(name, to: text) }
        // What was decided at start from the texts (feed = auto's find) stays as decided.
        next.feed = feed
        self = next
    }

    /// The same settings without the record of how they were given (to compare settings alone).
    func forgettingGivenValues() -> KioskConfiguration {
        var copy = self
        copy.givenValues = [:]
        return copy
    }

    /// The night, when both ends are set.
    public var night: NightSchedule? {
        guard let nightFrom, let nightUntil else { return nil }
        return NightSchedule(from: nightFrom, until: nightUntil)
    }

    /// Key code → action, one action per key.
    public var keyMap: [UInt16: KeyAction] {
        var map: [UInt16: KeyAction] = [:]
        for name in keys.keys.sorted() {
            if let code = KeyNames.code(for: name), let action = keys[name] { map[code] = action }
        }
        return map
    }

    /// The overhead settings, given the station.
    public func selectorSettings(station: GeoPoint) -> OverheadSelector.Settings {
        var s = OverheadSelector.Settings(station: station)
        s.radiusNM = radiusNM
        s.exitRadiusNM = exitRadiusNM ?? radiusNM + 0.5
        s.ceilingFeet = ceilingFeet
        s.maximumPositionAge = maximumPositionAge
        s.includeGround = includeGround
        s.holdSeconds = holdSeconds
        s.cycleSeconds = cycleSeconds
        s.ignore = Set(ignore)
        return s
    }
}

/// What is wrong with one configuration value, naming the key.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
