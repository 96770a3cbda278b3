import JSON
import Feed

/// What the kiosk does with a key.
public enum KeyAction: String, Sendable, CaseIterable {
    case toggle, overflight, standby, next, quit
}

/// The configuration file (default /etc/radar-kiosk/radar-kiosk.conf):
/// `key = value` lines, `#` comments, every key optional. Command-line flags
/// override it. Each key is documented in `KioskConfiguration.keys` (and the README).
public struct KioskConfiguration: Equatable, Sendable {
    public var display = "auto"
    public var output: String?
    public var size: String?
    public var refresh: Double?
    public var rotation = 0
    public var pixelFormat = "xrgb8888"
    public var fonts: String?
    public var socket: String?
    public var feed: String?
    public var station: GeoPoint?
    public var radiusNM = 3.0
    public var exitRadiusNM: Double?
    public var ceilingFeet = 10_000
    public var maximumPositionAge = 60.0
    public var includeGround = false
    public var holdSeconds = 8.0
    public var ignore: [String] = []
    public var routes: String?
    public var keyboard = "auto"
    public var keyboardGrab = true
    public var keys: [String: KeyAction] = ["space": .toggle, "o": .overflight, "s": .standby, "n": .next, "q": .quit]
    public var screenshotDirectory = "/run/radar-kiosk"
    public var gpioLine: String?
    public var gpioActiveLow = false
    public var gpioBias = "as-is"
    public var gpioDebounceMilliseconds = 20

    public init() {}

    public static let defaultPath = "/etc/radar-kiosk/radar-kiosk.conf"

    /// Every key: name, value form, default, meaning. `key.NAME` lines map keys to actions.
    public static let keys: [(name: String, value: String, defaultValue: String, help: String)] = [
        ("display", "auto|drm|headless", "auto", "where to show the kiosk: a free DRM output, else headless"),
        ("output", "NAME", "first connected", "DRM connector (HDMI-A-1, DSI-1, Virtual-1) or /dev/dri/by-path/... entry"),
        ("size", "WxH", "preferred mode", "the mode to choose (headless: the picture size)"),
        ("refresh", "HZ", "preferred mode", "the mode's refresh rate (headless: the simulated rate)"),
        ("rotation", "0|90|180|270", "0", "turn the picture clockwise for a panel mounted sideways or upside down (size stays the panel's mode)"),
        ("pixel_format", "xrgb8888|rgb565", "xrgb8888", "the scanout format: rgb565 for 16-bit panels (dithered)"),
        ("fonts", "DIR", "install prefix", "directory holding B612-Regular.otf, B612-Bold.otf, B612Mono-Regular.otf"),
        ("socket", "PATH", "none", "unix socket for JSON commands (mode 0660)"),
        ("feed", "auto|FILE|http://HOST/PATH|sbs://HOST:PORT", "none",
         "live aircraft: aircraft.json from a file (auto: /run/readsb, else /run/dump1090-fa) or over HTTP, or SBS-1 over TCP"),
        ("station", "LAT,LON", "none", "the kiosk's position in decimal degrees (needed with feed)"),
        ("overhead.radius_nm", "NM", "3", "an aircraft within this distance is overhead"),
        ("overhead.exit_radius_nm", "NM", "radius + 0.5", "the shown aircraft stays until beyond this distance"),
        ("overhead.ceiling_ft", "FEET", "10000", "only aircraft at or below this altitude"),
        ("overhead.max_position_age_s", "SECONDS", "60", "positions older than this are ignored"),
        ("overhead.include_ground", "yes|no", "no", "also show aircraft on the ground"),
        ("overhead.hold_s", "SECONDS", "8", "keep showing an aircraft this long after it stops qualifying"),
        ("overhead.ignore", "HEX-OR-CALLSIGN,...", "none", "aircraft never shown"),
        ("routes", "FILE", "none", "callsign-to-route file: lines 'BAW283 LHR → LAX'"),
        ("keyboard", "auto|none|/dev/input/eventN", "auto", "keyboards to read: every keyboard, none, or one device"),
        ("keyboard.grab", "yes|no", "yes", "take keys away from the console and other programs"),
        ("screenshot_dir", "DIR", "/run/radar-kiosk", "where SIGUSR1 writes screenshots"),
        ("gpio.line", "NAME|CHIP:OFFSET", "none", "a GPIO input: active means OVERFLIGHT, inactive STANDBY (a name like GPIO17 survives chip renumbering)"),
        ("gpio.active_low", "yes|no", "no", "the line is active when low"),
        ("gpio.bias", "as-is|pull-up|pull-down|disabled", "as-is", "the line's bias"),
        ("gpio.debounce_ms", "MILLISECONDS", "20", "the kernel's debounce period for the line (0 to 1000)"),
    ]

    /// Parses a file's text; problems are `NAME:LINE: what is wrong`, one each.
    public static func parse(_ text: String, name: String) -> (KioskConfiguration, [String]) {
        var c = KioskConfiguration()
        var problems: [String] = []
        var seen: [String: Int] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = index + 1
            let line = raw.trimmed(" \t\r")
            if line.isEmpty || line.hasPrefix("#") { continue }
            func problem(_ text: String) { problems.append("\(name):\(lineNumber): \(text)") }
            guard let eq = line.firstIndex(of: "=") else { problem("expected KEY = VALUE, not '\(line)'"); continue }
            let key = line[..<eq].trimmed(" \t")
            let value = line[line.index(after: eq)...].trimmed(" \t")
            if let first = seen[key] { problem("\(key) is set again (first on line \(first))"); continue }
            seen[key] = lineNumber
            func number(_ range: ClosedRange<Double>) -> Double? {
                guard let v = Double(value), range.contains(v) else {
                    problem("\(key): expected a number in \(range.lowerBound.clean)...\(range.upperBound.clean), not '\(value)'")
                    return nil
                }
                return v
            }
            func yesNo() -> Bool? {
                switch value.lowercased() {
                case "yes", "true", "on", "1": return true
                case "no", "false", "off", "0": return false
                default: problem("\(key): expected yes or no, not '\(value)'"); return nil
                }
            }
            func nonEmpty() -> String? {
                if value.isEmpty { problem("\(key): needs a value"); return nil }
                return value
            }
            switch key {
            case "display":
                if ["auto", "drm", "headless"].contains(value) { c.display = value } else { problem("display: expected auto, drm or headless, not '\(value)'") }
            case "output": c.output = nonEmpty()
            case "size":
                if (try? parseSize(value)) != nil { c.size = value } else { problem("size: expected WIDTHxHEIGHT (16...8192 each), not '\(value)'") }
            case "refresh": c.refresh = number(1...240)
            case "rotation":
                if let r = Int(value), [0, 90, 180, 270].contains(r) { c.rotation = r } else { problem("rotation: expected 0, 90, 180 or 270, not '\(value)'") }
            case "pixel_format":
                if ["xrgb8888", "rgb565"].contains(value) { c.pixelFormat = value } else { problem("pixel_format: expected xrgb8888 or rgb565, not '\(value)'") }
            case "fonts": c.fonts = nonEmpty()
            case "socket":
                if let v = nonEmpty() {
                    if v.utf8.count >= 108 { problem("socket: a unix socket path must be under 108 bytes") } else { c.socket = v }
                }
            case "feed":
                if let v = nonEmpty() {
                    if v.hasPrefix("sbs://") {
                        let hp = v.dropFirst(6).split(separator: ":")
                        if hp.count != 2 || UInt16(hp[1]) == nil { problem("feed: expected sbs://HOST:PORT, not '\(v)'") } else { c.feed = v }
                    } else if v == "auto" || v.hasPrefix("/") || v.hasPrefix("http://") { c.feed = v } else {
                        problem("feed: expected auto, an absolute path, http://HOST[:PORT]/PATH or sbs://HOST:PORT, not '\(v)'")
                    }
                }
            case "station":
                let parts = value.split(separator: ",").map { Double($0.trimmed(" ")) }
                if parts.count == 2, let lat = parts[0], let lon = parts[1], abs(lat) <= 90, abs(lon) <= 180 {
                    c.station = GeoPoint(latitude: lat, longitude: lon)
                } else { problem("station: expected LAT,LON in decimal degrees, not '\(value)'") }
            case "overhead.radius_nm": if let v = number(0.1...100) { c.radiusNM = v }
            case "overhead.exit_radius_nm": if let v = number(0.1...100) { c.exitRadiusNM = v }
            case "overhead.ceiling_ft": if let v = number(0...60_000) { c.ceilingFeet = Int(v) }
            case "overhead.max_position_age_s": if let v = number(1...3600) { c.maximumPositionAge = v }
            case "overhead.include_ground": if let v = yesNo() { c.includeGround = v }
            case "overhead.hold_s": if let v = number(0...3600) { c.holdSeconds = v }
            case "overhead.ignore": c.ignore = value.split(separator: ",").map { $0.trimmed(" ").lowercased() }.filter { !$0.isEmpty }
            case "routes": c.routes = nonEmpty()
            case "keyboard":
                if value == "auto" || value == "none" || value.hasPrefix("/dev/input/") { c.keyboard = value } else {
                    problem("keyboard: expected auto, none or /dev/input/eventN, not '\(value)'")
                }
            case "keyboard.grab": if let v = yesNo() { c.keyboardGrab = v }
            case "screenshot_dir": if let v = nonEmpty() { c.screenshotDirectory = v }
            case "gpio.line": c.gpioLine = nonEmpty()
            case "gpio.active_low": if let v = yesNo() { c.gpioActiveLow = v }
            case "gpio.bias":
                if ["as-is", "pull-up", "pull-down", "disabled"].contains(value) { c.gpioBias = value } else {
                    problem("gpio.bias: expected as-is, pull-up, pull-down or disabled, not '\(value)'")
                }
            case "gpio.debounce_ms": if let v = number(0...1000) { c.gpioDebounceMilliseconds = Int(v) }
            default:
                if key.hasPrefix("key.") {
                    let keyName = String(key.dropFirst(4))
                    guard KeyNames.code(for: keyName) != nil else {
                        problem("\(key): unknown key '\(keyName)' (a-z, 0-9, space, enter, escape, up, down, left, right)")
                        continue
                    }
                    if value == "none" { c.keys[keyName] = nil } else if let action = KeyAction(rawValue: value) { c.keys[keyName] = action } else {
                        problem("\(key): expected \(KeyAction.allCases.map(\.rawValue).joined(separator: ", ")) or none, not '\(value)'")
                    }
                } else {
                    problem("unknown key '\(key)'")
                }
            }
        }
        if c.feed != nil && c.station == nil { problems.append("\(name): feed is set but station is not (distances need the kiosk's position)") }
        return (c, problems)
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
        s.ignore = Set(ignore)
        return s
    }
}

/// Linux key codes (linux/input-event-codes.h) for the keys the kiosk maps.
public enum KeyNames {
    static let table: [String: UInt16] = {
        var t: [String: UInt16] = ["space": 57, "enter": 28, "escape": 1, "up": 103, "down": 108, "left": 105, "right": 106]
        let letters = "qwertyuiop".map { String($0) }, home = "asdfghjkl".map { String($0) }, bottom = "zxcvbnm".map { String($0) }
        for (i, k) in letters.enumerated() { t[k] = UInt16(16 + i) }
        for (i, k) in home.enumerated() { t[k] = UInt16(30 + i) }
        for (i, k) in bottom.enumerated() { t[k] = UInt16(44 + i) }
        for d in 1...9 { t[String(d)] = UInt16(1 + d) }
        t["0"] = 11
        return t
    }()

    public static func code(for name: String) -> UInt16? { table[name.lowercased()] }
    public static func name(for code: UInt16) -> String? { table.first { $0.value == code }?.key }
}

extension Double {
    var clean: String { self == rounded() ? String(Int(self)) : String(self) }
}
