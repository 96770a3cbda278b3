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

/// One evdev record: its type (EV_KEY, EV_ABS, EV_SYN…), code and value.
public struct EvdevRecord: Equatable, Sendable {
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(type: UInt16, code: UInt16, value: Int32) {
        self.type = type
        self.code = code
        self.value = value
    }
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

    public static let evSyn: UInt16 = 0, evKey: UInt16 = 1, evAbs: UInt16 = 3, synReport: UInt16 = 0, synDropped: UInt16 = 3

    /// Appends bytes read from the device; returns the key events of whole records.
    public mutating func decode(_ bytes: UnsafeRawBufferPointer) -> [KeyEvent] {
        records(bytes).compactMap { $0.type == Self.evKey ? KeyEvent(code: $0.code, value: $0.value) : nil }
    }

    /// Appends bytes read from the device; returns its whole records (a
    /// dropped synchronisation, the kernel's buffer overrun, is counted).
    public mutating func records(_ bytes: UnsafeRawBufferPointer) -> [EvdevRecord] {
        pending.append(contentsOf: bytes)
        var records: [EvdevRecord] = []
        var offset = 0
        while pending.count - offset >= recordSize {
            let base = offset + 2 * wordSize
            let type = UInt16(pending[base]) | UInt16(pending[base + 1]) << 8
            let code = UInt16(pending[base + 2]) | UInt16(pending[base + 3]) << 8
            let value = Int32(bitPattern: UInt32(pending[base + 4]) | UInt32(pending[base + 5]) << 8
                              | UInt32(pending[base + 6]) << 16 | UInt32(pending[base + 7]) << 24)
            if type == Self.evSyn && code == Self.synDropped { droppedSynchronisations += 1 }
            records.append(EvdevRecord(type: type, code: code, value: value))
            offset += recordSize
        }
        pending.removeFirst(offset)
        return records
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
        var events: [KeyEvent] = []
        // A key-repeat storm is bounded per turn: the rest waits for the next.
        let present = readEvdev(device) { bytes in
            events += decoder.decode(bytes)
            return events.count <= 256
        }
        return present ? events : nil
    }
}

/// Reads an evdev device until it has nothing more, handing each chunk to
/// `take`, which says whether to read on (a flood is bounded per loop turn).
/// False when the device is gone (unplugged: ENODEV).
func readEvdev(_ device: FileDescriptor, _ take: (UnsafeRawBufferPointer) -> Bool) -> Bool {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        switch buffer.withUnsafeMutableBytes({ device.read(into: $0) }) {
        case let .bytes(n):
            guard buffer.withUnsafeBytes({ take(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }) else { return true }
        case .wouldBlock, .end:
            return true
        case let .failed(e):
            return e.code != ENODEV
        }
    }
}
