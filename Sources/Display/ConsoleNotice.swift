#if canImport(Glibc)
import Glibc
#endif
import CLinux
import SystemIO

/// Words for the person at the screen when the kiosk stops for good (a
/// configuration it cannot run with): written on the virtual terminal it was
/// started on (tty1 under systemd), which the console shows once the display
/// is let go. The journal has the same lines; this is for a board without a
/// keyboard or a network login, where a dark screen would say nothing.
public enum ConsoleNotice {
    /// Clears the kiosk's virtual terminal and writes `lines` on it, each
    /// cleaned as a log line is (nothing from a file can move the cursor or
    /// recolour the console). Only when standard input is a VT and standard
    /// error is not that same terminal (where the lines are already shown);
    /// whether they were written.
    @discardableResult
    public static func show(_ lines: [String]) -> Bool {
        guard isVirtualTerminal(0), !isSameTerminal(0, 2) else { return false }
        // A kiosk killed while drawing leaves its VT in graphics mode, where
        // the console draws nothing: this one is done with the display.
        var mode: Int32 = 0
        if radar_ioctl_pointer(0, radar_kdgetmode, &mode) == 0, mode == radar_kd_graphics {
            _ = radar_ioctl_int(0, radar_kdsetmode, UInt(radar_kd_text))
        }
        // Standard input may be open for reading only (a shell's `<`): then the same terminal again, for writing.
        let writable = fcntl(0, F_GETFL) & O_ACCMODE != O_RDONLY
        guard let terminal = writable ? FileDescriptor(borrowing: 0) : try? FileDescriptor.open("/proc/self/fd/0", O_WRONLY | O_NOCTTY | O_NONBLOCK) else { return false }
        let text = lines.map { ExternalText.oneLine($0, maximumBytes: 1024) }.joined(separator: "\r\n")
        return (try? terminal.writeAll("\u{1b}[H\u{1b}[2J" + text + "\r\n")) != nil
    }

    /// Whether `fd` is one of the kernel's virtual terminals (tty1...tty63:
    /// character major 4, minors below 64; 64 and up are serial ports). Told
    /// by the device number rather than by a KD ioctl, which qemu-user (the
    /// arm64 package's boot test) does not carry.
    private static func isVirtualTerminal(_ fd: Int32) -> Bool {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFCHR else { return false }
        let device = UInt64(info.st_rdev)
        let major = (device >> 8) & 0xfff | (device >> 32) & ~0xfff
        let minor = device & 0xff | (device >> 12) & ~0xff
        return major == 4 && (1..<64).contains(minor)
    }

    private static func isSameTerminal(_ a: Int32, _ b: Int32) -> Bool {
        var first = stat(), second = stat()
        guard fstat(a, &first) == 0, fstat(b, &second) == 0 else { return false }
        return first.st_rdev == second.st_rdev && (first.st_mode & S_IFMT) == (second.st_mode & S_IFMT)
    }
}
