#if canImport(Glibc)
import Glibc
#endif
import CLinux
import SystemIO

/// An evdev touchscreen: /dev/input/eventN with absolute X and Y that is a
/// screen's touch (INPUT_PROP_DIRECT, or BTN_TOUCH) or an absolute pointer
/// with a button and no relative axes (QEMU's tablet, some kiosk frames).
/// Its axis ranges come from the device (EVIOCGABS); touches are reported
/// as fractions of them.
public final class EvdevTouchscreen {
    public let path: String
    public let name: String
    private let device: FileDescriptor
    public var fd: Int32 { device.rawValue }
    private var records = EvdevDecoder()
    private var touches: TouchDecoder
    /// The ranges and protocol, for the log.
    public var description: String {
        "\(touches.multitouch ? "multitouch" : "single touch"), \(touches.x.minimum)...\(touches.x.maximum) x \(touches.y.minimum)...\(touches.y.maximum)"
    }

    /// Opens `path` if it is a touchscreen; nil otherwise.
    public init?(path: String, grab: Bool) {
        guard let device = try? FileDescriptor.open(path, O_RDONLY | O_NONBLOCK) else { return nil }
        let fd = device.rawValue
        func bits(_ type: Int32, _ count: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            return bytes.withUnsafeMutableBytes { radar_ioctl_pointer(fd, radar_eviocgbit(type, Int32(count)), $0.baseAddress) } >= 0 ? bytes : nil
        }
        func has(_ bytes: [UInt8]?, _ bit: Int) -> Bool { bytes.map { bit / 8 < $0.count && ($0[bit / 8] >> UInt8(bit % 8)) & 1 == 1 } ?? false }
        let abs = bits(3, 8), keys = bits(1, 96), rel = bits(2, 2)
        var properties = [UInt8](repeating: 0, count: 4)
        let direct = properties.withUnsafeMutableBytes { radar_ioctl_pointer(fd, radar_eviocgprop(4), $0.baseAddress) } >= 0 && properties[0] & 0x02 != 0
        let multitouch = has(abs, 0x35) && has(abs, 0x36) && has(abs, 0x39)
        let single = has(abs, 0x00) && has(abs, 0x01)
        let touch = has(keys, 0x14a), button = has(keys, 0x110)
        let relative = has(rel, 0) || has(rel, 1)
        guard multitouch || single, direct || touch || (button && !relative) else { return nil }
        func range(_ axis: Int32) -> TouchDecoder.AxisRange? {
            var info = input_absinfo()
            guard radar_ioctl_pointer(fd, radar_eviocgabs(axis), &info) >= 0, info.maximum > info.minimum else { return nil }
            return TouchDecoder.AxisRange(minimum: info.minimum, maximum: info.maximum)
        }
        guard let x = range(multitouch ? 0x35 : 0x00), let y = range(multitouch ? 0x36 : 0x01) else { return nil }
        var nameBytes = [CChar](repeating: 0, count: 256)
        _ = nameBytes.withUnsafeMutableBytes { radar_ioctl_pointer(fd, radar_eviocgname(256), $0.baseAddress) }
        name = String(decoding: nameBytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.path = path
        self.device = device
        touches = TouchDecoder(x: x, y: y, multitouch: multitouch)
        if grab { _ = radar_ioctl_int(fd, radar_eviocgrab, 1) }
    }

    deinit { _ = radar_ioctl_int(fd, radar_eviocgrab, 0) }

    /// Reads what is available; nil when the device is gone (unplugged).
    public func read() -> [TouchEvent]? {
        var events: [TouchEvent] = []
        // A flood is bounded per turn: the rest waits for the next.
        let present = readEvdev(device) { bytes in
            events += touches.feed(records.records(bytes))
            return events.count <= 256
        }
        return present ? events : nil
    }
}
