#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// The process's signals as the loop sees them: the ones it handles are
/// blocked and read from a signalfd, so none interrupts a frame or runs code
/// at an arbitrary point; SIGPIPE is ignored, so a peer that goes away costs
/// a failed write, never the process.
public enum Signals {
    /// Ignores SIGPIPE and blocks `signals`, returning a descriptor that reads them.
    /// Called first thing, before anything slow, so that a SIGTERM during
    /// start-up is handled like one later.
    public static func watch(_ signals: [Int32]) throws -> FileDescriptor {
        signal(SIGPIPE, SIG_IGN)
        var wanted = signals
        let fd = radar_signalfd(&wanted, Int32(wanted.count))
        guard fd >= 0 else { throw SystemError.last("signalfd") }
        return FileDescriptor(owning: fd)
    }

    /// Reads one pending signal's number from a descriptor made by `watch`, or nil.
    public static func next(from descriptor: FileDescriptor) -> Int32? {
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        let transfer = withUnsafeMutableBytes(of: &info) { descriptor.read(into: $0) }
        guard case .bytes(size) = transfer else { return nil }
        return Int32(info.ssi_signo)
    }
}
