#if canImport(Glibc)
import Glibc
#endif
import CLinux
import SystemIO

/// One GPIO line through the kernel's character device uAPI v2
/// (linux/gpio.h), without libgpiod, whose v1 and v2 APIs differ between
/// distributions. Found by line name (preferred: chip numbers move between
/// kernels and boards) or by CHIP:OFFSET. An input is requested with both
/// edges, the bias and active-low asked for, and the kernel's debounce (which
/// gpiolib emulates in software where the driver has none); an output starts
/// inactive and is driven with `setActive`.
public final class GPIOLine {
    public enum Bias: String, Sendable, CaseIterable { case asIs = "as-is", pullUp = "pull-up", pullDown = "pull-down", disabled }

    public let chip: String
    public let offset: UInt32
    public let name: String
    private let request: FileDescriptor
    /// The line request's descriptor: readable when an edge arrived.
    public var fd: Int32 { request.rawValue }

    /// `spec`: a line name (GPIO17), or CHIP:OFFSET where CHIP is gpiochipN,
    /// /dev/gpiochipN or a chip label (pinctrl-rp1:17).
    public convenience init(spec: String, activeLow: Bool = false, bias: Bias = .asIs, debounceMilliseconds: Int = 20,
                            consumer: String = "radar-kiosk") throws {
        try self.init(spec: spec, consumer: consumer) { request in
            var flags = UInt64(GPIO_V2_LINE_FLAG_INPUT.rawValue) | UInt64(GPIO_V2_LINE_FLAG_EDGE_RISING.rawValue)
                | UInt64(GPIO_V2_LINE_FLAG_EDGE_FALLING.rawValue)
            if activeLow { flags |= UInt64(GPIO_V2_LINE_FLAG_ACTIVE_LOW.rawValue) }
            switch bias {
            case .pullUp: flags |= UInt64(GPIO_V2_LINE_FLAG_BIAS_PULL_UP.rawValue)
            case .pullDown: flags |= UInt64(GPIO_V2_LINE_FLAG_BIAS_PULL_DOWN.rawValue)
            case .disabled: flags |= UInt64(GPIO_V2_LINE_FLAG_BIAS_DISABLED.rawValue)
            case .asIs: break
            }
            request.config.flags = flags
            if debounceMilliseconds > 0 {
                request.config.num_attrs = 1
                request.config.attrs.0.attr.id = UInt32(GPIO_V2_LINE_ATTR_ID_DEBOUNCE.rawValue)
                request.config.attrs.0.attr.debounce_period_us = UInt32(debounceMilliseconds * 1000)
                request.config.attrs.0.mask = 1
            }
        }
        self.request.setNonBlocking()
    }

    /// An output line (a buzzer, an LED), driven inactive from the start.
    public convenience init(outputSpec spec: String, activeLow: Bool = false, consumer: String = "radar-kiosk") throws {
        try self.init(spec: spec, consumer: consumer) { request in
            var flags = UInt64(GPIO_V2_LINE_FLAG_OUTPUT.rawValue)
            if activeLow { flags |= UInt64(GPIO_V2_LINE_FLAG_ACTIVE_LOW.rawValue) }
            request.config.flags = flags
            // The level from the request on: inactive.
            request.config.num_attrs = 1
            request.config.attrs.0.attr.id = UInt32(GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES.rawValue)
            request.config.attrs.0.attr.values = 0
            request.config.attrs.0.mask = 1
        }
    }

    private init(spec: String, consumer: String, configure: (inout gpio_v2_line_request) -> Void) throws {
        let (chipPath, offset, name) = try Self.find(spec)
        let chip: FileDescriptor
        do { chip = try FileDescriptor.open(chipPath, O_RDWR) } catch let e as SystemError {
            throw InputError("\(chipPath): cannot open (\(e.reason)); add the user to the 'gpio' group")
        }
        var request = gpio_v2_line_request()
        request.offsets.0 = offset
        request.num_lines = 1
        withUnsafeMutableBytes(of: &request.consumer) { raw in
            for (i, b) in consumer.utf8.prefix(31).enumerated() { raw[i] = b }
        }
        configure(&request)
        guard radar_ioctl_pointer(chip.rawValue, radar_gpio_v2_get_line, &request) == 0, request.fd >= 0 else {
            let e = SystemError.lastReason
            throw InputError("\(chipPath) line \(offset) (\(name)): cannot request it (\(e)); is another program using it?")
        }
        self.request = FileDescriptor(owning: request.fd)
        self.chip = chipPath
        self.offset = offset
        self.name = name
    }

    /// Drives an output line: true is active (high, or low when active-low).
    public func setActive(_ active: Bool) throws {
        var values = gpio_v2_line_values()
        values.mask = 1
        values.bits = active ? 1 : 0
        guard radar_ioctl_pointer(fd, radar_gpio_v2_line_set_values, &values) == 0 else {
            throw InputError("\(chip) line \(offset): cannot set its level (\(SystemError.lastReason))")
        }
    }

    /// The line's logical level now (active-low applied): true is active.
    public func isActive() throws -> Bool {
        var values = gpio_v2_line_values()
        values.mask = 1
        guard radar_ioctl_pointer(fd, radar_gpio_v2_line_get_values, &values) == 0 else {
            throw InputError("\(chip) line \(offset): cannot read its level (\(SystemError.lastReason))")
        }
        return values.bits & 1 == 1
    }

    /// Drains edge events; returns how many arrived (the level is then read with `isActive`).
    public func drainEvents() -> Int {
        var event = gpio_v2_line_event()
        var count = 0
        while case .bytes(MemoryLayout<gpio_v2_line_event>.size) = withUnsafeMutableBytes(of: &event, { request.read(into: $0) }) { count += 1 }
        return count
    }

    /// Every /dev/gpiochipN, in number order.
    public static func chips() -> [String] { Directory.entries(of: "/dev", prefix: "gpiochip") }

    static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// Resolves a spec to (chip path, offset, line name); errors list what exists.
    static func find(_ spec: String) throws -> (String, UInt32, String) {
        let chips = chips()
        guard !chips.isEmpty else { throw InputError("GPIO \(spec): no GPIO chips (/dev/gpiochip*)") }
        var seen: [String] = []
        for path in chips {
            guard let chip = try? FileDescriptor.open(path, O_RDONLY) else { continue }
            let fd = chip.rawValue
            var info = gpiochip_info()
            guard radar_ioctl_pointer(fd, radar_gpio_get_chipinfo, &info) == 0 else { continue }
            let label = string(info.label), chipName = String(path.dropFirst(5))
            if let colon = spec.lastIndex(of: ":"), let offset = UInt32(spec[spec.index(after: colon)...]) {
                let chipSpec = String(spec[..<colon])
                if chipSpec == chipName || chipSpec == path || chipSpec == label {
                    guard offset < info.lines else { throw InputError("GPIO \(spec): \(path) (\(label)) has \(info.lines) lines") }
                    return (path, offset, "\(chipName):\(offset)")
                }
                seen.append("\(chipName) (\(label))")
                continue
            }
            for offset in 0..<info.lines {
                var line = gpio_v2_line_info()
                line.offset = offset
                guard radar_ioctl_pointer(fd, radar_gpio_v2_get_lineinfo, &line) == 0 else { continue }
                let name = string(line.name)
                if name == spec { return (path, offset, name) }
            }
            seen.append("\(chipName) (\(label), \(info.lines) lines)")
        }
        throw InputError("GPIO \(spec): no such line; chips: \(seen.joined(separator: ", "))")
    }
}
