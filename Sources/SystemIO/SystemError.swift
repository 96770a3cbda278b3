#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: which call, on what, and the kernel's errno, so that
/// every error the kiosk logs names what it was doing ("open /run/x: No such
/// file or directory") the same way.
public struct SystemError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The call that failed (open, read, connect, ioctl(DRM_IOCTL_MODE_PAGE_FLIP)…).
    public let call: String
    /// What it was called on (a path, a device, a peer), if that helps.
    public let subject: String?
    public let code: Int32

    public init(_ call: String, _ subject: String? = nil, code: Int32) {
        self.call = call
        self.subject = subject
        self.code = code
    }

    /// The error of the call that just failed (reads `errno`).
    public static func last(_ call: String, _ subject: String? = nil) -> SystemError {
        SystemError(call, subject, code: errno)
    }

    /// The kernel's text for `code`, e.g. "No such file or directory".
    public var reason: String { Self.reason(code) }

    public static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Why a connect failed. EPERM there is no firewall on the other side:
    /// this machine refused it (systemd's IPAddressDeny= is a cgroup filter
    /// that fails connect with EPERM), so the line says where to look.
    public static func connectReason(_ code: Int32) -> String {
        guard code == EPERM else { return reason(code) }
        return reason(code) + " (refused on this machine: the service may reach only localhost and link-local addresses"
            + " unless a drop-in adds IPAddressAllow=; see docs/deploying.md)"
    }

    /// The reason for the current `errno`, for messages built by hand.
    public static var lastReason: String { reason(errno) }

    public var description: String { "\(call)\(subject.map { " \($0)" } ?? ""): \(reason)" }

    /// Whether the call would have blocked on a non-blocking descriptor.
    public var wouldBlock: Bool { code == EAGAIN || code == EWOULDBLOCK }
}
