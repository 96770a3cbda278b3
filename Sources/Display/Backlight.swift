#if canImport(Glibc)
import Glibc
#endif
import SystemIO

/// A panel's backlight through sysfs (/sys/class/backlight/NAME): its
/// brightness out of `max_brightness`, and `bl_power` to switch it off
/// where the driver has it (Raspberry Pi DSI panels do). The service user
/// may write them through the udev rule the package installs.
public final class Backlight {
    public let directory: String
    public let maximum: Int
    public var name: String { directory.split(separator: "/").last.map(String.init) ?? directory }

    public static let classDirectory = "/sys/class/backlight"

    /// The backlight in `directory`; throws naming what is missing or unreadable.
    public init(directory: String) throws {
        self.directory = directory
        let text = try FileContents.text(directory + "/max_brightness", limit: 64)
        guard let maximum = Int(text.filter { !$0.isWhitespace }), maximum > 0, maximum < 1 << 24 else {
            throw DisplayError("\(directory)/max_brightness: expected a positive number, not '\(ExternalText.oneLine(text, maximumBytes: 40))'")
        }
        self.maximum = maximum
    }

    /// The first backlight the kernel lists, if any.
    public static func first(in classDirectory: String = Backlight.classDirectory) -> Backlight? {
        Directory.entries(of: classDirectory).lazy.compactMap { try? Backlight(directory: $0) }.first
    }

    /// The brightness now, 0...1.
    public func brightness() throws -> Double {
        let text = try FileContents.text(directory + "/brightness", limit: 64)
        guard let value = Int(text.filter { !$0.isWhitespace }) else { throw DisplayError("\(directory)/brightness: not a number") }
        return Double(value) / Double(maximum)
    }

    /// Sets the brightness (0...1; never 0 while on, which some panels treat as off).
    public func setBrightness(_ fraction: Double) throws {
        let value = max(1, min(maximum, Int((fraction * Double(maximum)).rounded())))
        try write(String(value), to: "brightness")
    }

    /// Switches the light on or off through `bl_power` (0 on, 4 powerdown);
    /// false when the driver has no `bl_power`.
    @discardableResult
    public func setPower(_ on: Bool) throws -> Bool {
        guard access(directory + "/bl_power", F_OK) == 0 else { return false }
        try write(on ? "0" : "4", to: "bl_power")
        return true
    }

    private func write(_ text: String, to file: String) throws {
        let path = directory + "/" + file
        do {
            let fd = try FileDescriptor.open(path, O_WRONLY | O_CLOEXEC | O_TRUNC)
            defer { fd.close() }
            try fd.writeAll(text + "\n")
        } catch let error as SystemError {
            let hint = error.code == EACCES ? " (the udev rule gives the video group write access)" : ""
            throw DisplayError("\(path): cannot write (\(error.reason))\(hint)")
        }
    }
}
