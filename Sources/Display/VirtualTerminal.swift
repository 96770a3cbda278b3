#if canImport(Glibc)
import Glibc
#endif
import CLinux
import SystemIO

/// The virtual terminal the kiosk shows on: in graphics mode while it runs (so
/// the console does not draw over the picture) with its keyboard muted, and
/// put back on exit.
final class VirtualTerminal {
    private let console: FileDescriptor
    private let previousMode: Int32
    private let previousKeyboard: Int32
    private var processMode = false

    static func enterGraphics() -> VirtualTerminal? {
        for path in ["/dev/tty0", "/dev/tty"] {
            // Not one to fail on: a kiosk without a console (a container, ssh) draws all the same.
            guard let console = try? FileDescriptor.open(path, O_RDWR | O_NOCTTY) else { continue }
            let fd = console.rawValue
            var mode: Int32 = 0, keyboard: Int32 = 0
            guard radar_ioctl_pointer(fd, radar_kdgetmode, &mode) == 0 else { continue }
            _ = radar_ioctl_pointer(fd, radar_kdgkbmode, &keyboard)
            guard radar_ioctl_int(fd, radar_kdsetmode, UInt(radar_kd_graphics)) == 0 else { continue }
            _ = radar_ioctl_int(fd, radar_kdskbmode, UInt(radar_k_off))
            return VirtualTerminal(console, previousMode: mode, previousKeyboard: keyboard)
        }
        return nil
    }

    private init(_ console: FileDescriptor, previousMode: Int32, previousKeyboard: Int32) {
        self.console = console
        self.previousMode = previousMode
        self.previousKeyboard = previousKeyboard
    }

    /// Asks the kernel to signal `signal` before switching away from this VT
    /// and after switching back (VT_PROCESS), instead of switching under us.
    func enableSwitching(signal: Int32) {
        var mode = vt_mode()
        // `mode` is a char in older kernel headers and a __u8 in newer ones.
        mode.mode = numericCast(VT_PROCESS)
        mode.relsig = Int16(signal)
        mode.acqsig = Int16(signal)
        processMode = radar_ioctl_pointer(console.rawValue, radar_vt_setmode, &mode) == 0
    }

    /// Lets a pending switch away happen (after the display was let go).
    func allowRelease() { _ = radar_ioctl_int(console.rawValue, radar_vt_reldisp, 1) }

    /// Acknowledges that the VT is ours again.
    func acknowledgeAcquire() { _ = radar_ioctl_int(console.rawValue, radar_vt_reldisp, UInt(VT_ACKACQ)) }

    /// Puts the terminal's modes back and closes it.
    func restore() {
        let fd = console.rawValue
        if processMode {
            var mode = vt_mode()
            mode.mode = numericCast(VT_AUTO)
            _ = radar_ioctl_pointer(fd, radar_vt_setmode, &mode)
        }
        _ = radar_ioctl_int(fd, radar_kdskbmode, UInt(previousKeyboard))
        _ = radar_ioctl_int(fd, radar_kdsetmode, UInt(previousMode == radar_kd_graphics ? radar_kd_text : previousMode))
        console.close()
    }
}
