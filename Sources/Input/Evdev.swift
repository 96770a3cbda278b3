#if canImport(Glibc)
import Glibc
#endif
import CLinux
import SystemIO

/// One key press or release from an evdev device.
public struct KeyEvent: Equatable, Sendable {
    public var code: UInt16
    /// 1 press, 0 release, 2 autorepeat.
    public var value: Int32
}

/// Decodes evdev records. A record is `struct input_event`: its time field is
/// two C longs, so a record is 24 bytes on 64-bit systems and 16 on 32-bit
/// ARM, even with a 64-bit time_t (design/adsb-and-devices.md §5.2). Records
/// are decoded by word size, never through the C timeval.
public struct EvdevDecoder {
    public let wordSize: Int
    public var recordSize: Int { 2 * wordSize + 8 }
    private var pending: [UInt8] = []
    public private(set) var droppedSynchronisations = 0

    public init(wordSize: Int = MemoryLayout<Int>.size) {
        precondition(wordSize == 4 || wordSize == 8)
        self.wordSize = wordSize
    }

    public static let evSyn: UInt16 = 0, evKey: UInt16 = 1, synDropped: UInt16 = 3

    /// Appends bytes read from the device; returns the key events of whole records.
    public mutating func decode(_ bytes: UnsafeRawBufferPointer) -> [KeyEvent] {
        pending.append(contentsOf: bytes)
        var events: [KeyEvent] = []
        var offset = 0
        while pending.count - offset >= recordSize {
            let base = offset + 2 * wordSize
            let type = UInt16(pending[base]) | UInt16(pending[base + 1]) << 8
            let code = UInt16(pending[base + 2]) | UInt16(pending[base + 3]) << 8
            let value = Int32(bitPattern: UInt32(pending[base + 4]) | UInt32(pending[base + 5]) << 8
                              | UInt32(pending[base + 6]) << 16 | UInt32(pending[base + 7]) << 24)
            if type == Self.evKey {
                events.append(KeyEvent(code: code, value: value))
            } else if type == Self.evSyn && code == Self.synDropped {
                droppedSynchronisations += 1
            }
            offset += recordSize
        }
        pending.removeFirst(offset)
        return events
    }
}

/// An evdev keyboard: /dev/input/eventN with key capabilities, optionally grabbed
/// so its keys reach nothing else (not the console, not a getty).
public final class EvdevKeyboard {
    public let path: String
    public let name: String
    private let device: FileDescriptor
    public var fd: Int32 { device.rawValue }
    private var decoder = EvdevDecoder()

    /// Opens `path` if it is a keyboard (it has EV_KEY and letter or space keys); nil otherwise.
    public init?(path: String, grab: Bool) {
        guard let device = try? FileDescriptor.open(path, O_RDONLY | O_NONBLOCK) else { return nil }
        let fd = device.rawValue
        var types = [UInt8](repeating: 0, count: 4)
        var keys = [UInt8](repeating: 0, count: 96)
        let isKeyboard = types.withUnsafeMutableBytes { radar_ioctl_pointer(fd, radar_eviocgbit(0, 4), $0.baseAddress) } >= 0
            && types[0] & (1 << 1) != 0
            && keys.withUnsafeMutableBytes { radar_ioctl_pointer(fd, radar_eviocgbit(1, 96), $0.baseAddress) } >= 0
            && [30, 57].contains { (keys[$0 / 8] >> UInt8($0 % 8)) & 1 == 1 }   // KEY_A or KEY_SPACE
        guard isKeyboard else { return nil }
        var nameBytes = [CChar](repeating: 0, count: 256)
        _ = nameBytes.withUnsafeMutableBytes { radar_ioctl_pointer(fd, radar_eviocgname(256), $0.baseAddress) }
        name = String(decoding: nameBytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.path = path
        self.device = device
        if grab { _ = radar_ioctl_int(fd, radar_eviocgrab, 1) }
    }

    deinit { _ = radar_ioctl_int(fd, radar_eviocgrab, 0) }

    /// Reads what is available; nil when the device is gone (unplugged).
    public func read() -> [KeyEvent]? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var events: [KeyEvent] = []
        while true {
            switch buffer.withUnsafeMutableBytes({ device.read(into: $0) }) {
            case let .bytes(n):
                events += buffer.withUnsafeBytes { decoder.decode(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                // A key-repeat storm is bounded by the buffer: the rest waits for the next turn.
                if events.count > 256 { return events }
            case .wouldBlock, .end:
                return events
            case let .failed(e):
                return e.code == ENODEV ? nil : events
            }
        }
    }
}

/// Every keyboard, including ones plugged in later: /dev/input is watched with
/// inotify (IN_CREATE and IN_ATTRIB, since a new node gets its permissions a
/// moment after it appears), and unplugged devices are dropped.
public final class KeyboardSet {
    public let grab: Bool
    public private(set) var keyboards: [EvdevKeyboard] = []
    private let watch: DirectoryWatch?
    private let only: String?
    public var log: (String) -> Void = { _ in }

    /// `only`: a single device path, or nil for every keyboard.
    public init(grab: Bool, only: String? = nil) {
        self.grab = grab
        self.only = only
        // Without inotify the keyboards found at start are all there are.
        watch = try? DirectoryWatch("/dev/input", for: [.created, .attributesChanged])
    }

    /// The hotplug watch, then every open keyboard.
    public func forEachDescriptor(_ body: (Int32) -> Void) {
        if let watch { body(watch.descriptor) }
        for k in keyboards { body(k.fd) }
    }

    /// Opens keyboards not yet open.
    public func scan() {
        let candidates = only.map { [$0] } ?? Directory.entries(of: "/dev/input", prefix: "event")
        for path in candidates where !keyboards.contains(where: { $0.path == path }) {
            if let k = EvdevKeyboard(path: path, grab: grab) {
                keyboards.append(k)
                log("radar-kiosk: keyboard \(k.name) (\(path))\(grab ? ", grabbed" : "")")
            }
        }
    }

    /// Reads every ready keyboard and hotplug notices; returns key presses.
    public func service() -> [KeyEvent] {
        var changed = false
        watch?.drain { _, _ in changed = true }
        if changed { scan() }
        var events: [KeyEvent] = []
        keyboards.removeAll { k in
            guard let got = k.read() else {
                log("radar-kiosk: keyboard \(k.name) (\(k.path)) removed")
                return true
            }
            events += got
            return false
        }
        return events
    }
}
