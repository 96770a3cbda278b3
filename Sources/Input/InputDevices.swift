import SystemIO

/// Every keyboard and touchscreen, including ones plugged in later:
/// /dev/input is watched with inotify (created, and attributes changed,
/// since a new node gets its permissions a moment after it appears), and
/// unplugged devices are dropped. The one finder for both kinds.
public final class InputDevices {
    public let grab: Bool
    public let findsKeyboards: Bool
    public let findsTouchscreens: Bool
    public private(set) var keyboards: [EvdevKeyboard] = []
    public private(set) var touchscreens: [EvdevTouchscreen] = []
    private let watch: DirectoryWatch?
    /// The one keyboard to read, when not every keyboard.
    private let onlyKeyboard: String?
    public var log: (String) -> Void = { _ in }

    /// What a device said.
    public enum Event: Equatable, Sendable {
        case key(KeyEvent)
        case touch(TouchEvent)
    }

    /// `onlyKeyboard`: the one keyboard's device path, or nil for every keyboard.
    public init(grab: Bool, keyboards: Bool = true, touchscreens: Bool = false, onlyKeyboard: String? = nil) {
        self.grab = grab
        findsKeyboards = keyboards
        findsTouchscreens = touchscreens
        self.onlyKeyboard = onlyKeyboard
        // Without inotify the devices found at start are all there are.
        watch = try? DirectoryWatch("/dev/input", for: [.created, .attributesChanged])
    }

    /// The hotplug watch, then every open device.
    public func forEachDescriptor(_ body: (Int32) -> Void) {
        if let watch { body(watch.descriptor) }
        for k in keyboards { body(k.fd) }
        for t in touchscreens { body(t.fd) }
    }

    /// Opens devices not yet open.
    public func scan() {
        var candidates = findsTouchscreens ? Directory.entries(of: "/dev/input", prefix: "event") : onlyKeyboard.map { [$0] } ?? Directory.entries(of: "/dev/input", prefix: "event")
        if let onlyKeyboard, !candidates.contains(onlyKeyboard) { candidates.append(onlyKeyboard) }
        for path in candidates where !keyboards.contains(where: { $0.path == path }) && !touchscreens.contains(where: { $0.path == path }) {
            if findsKeyboards && (onlyKeyboard == nil || onlyKeyboard == path), let k = EvdevKeyboard(path: path, grab: grab) {
                keyboards.append(k)
                log("radar-kiosk: keyboard \(k.name) (\(path))\(grab ? ", grabbed" : "")")
            } else if findsTouchscreens, let t = EvdevTouchscreen(path: path, grab: grab) {
                touchscreens.append(t)
                log("radar-kiosk: touchscreen \(t.name) (\(path), \(t.description))\(grab ? ", grabbed" : "")")
            }
        }
    }

    /// Reads every ready device and hotplug notices; returns key presses and touches.
    public func service() -> [Event] {
        var changed = false
        watch?.drain { _, _ in changed = true }
        if changed { scan() }
        var events: [Event] = []
        keyboards.removeAll { k in
            guard let got = k.read() else {
                log("radar-kiosk: keyboard \(k.name) (\(k.path)) removed")
                return true
            }
            events += got.map { .key($0) }
            return false
        }
        touchscreens.removeAll { t in
            guard let got = t.read() else {
                log("radar-kiosk: touchscreen \(t.name) (\(t.path)) removed")
                return true
            }
            events += got.map { .touch($0) }
            return false
        }
        return events
    }
}
