#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// The kernel's uevents over netlink (what udev itself listens to): each a
/// device added, changed or removed, as `KEY=value` fields. Non-blocking;
/// its descriptor is polled with the loop's others.
public final class UeventSocket {
    private let socket: FileDescriptor
    private var buffer = [UInt8](repeating: 0, count: 8192)

    /// Joins the kernel's uevent group; nil when netlink cannot be had (a container without it).
    public init?() {
        let fd = Glibc.socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue),
                              15 /* NETLINK_KOBJECT_UEVENT */)
        guard fd >= 0 else { return nil }
        socket = FileDescriptor(owning: fd)
        var address = sockaddr_nl()
        address.nl_family = sa_family_t(AF_NETLINK)
        address.nl_groups = 1   // the kernel's own uevents (udev's are group 2)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_nl>.size)) }
        }
        guard bound == 0 else { return nil }
    }

    /// The descriptor to poll: readable when a uevent is waiting.
    public var descriptor: Int32 { socket.rawValue }

    /// Reads every waiting uevent, calling `body` with its fields (the
    /// first is `ACTION@DEVPATH`, then `ACTION=change`, `SUBSYSTEM=drm`…).
    public func drain(_ body: ([String]) -> Void) {
        while case let .bytes(n) = buffer.withUnsafeMutableBytes({ socket.read(into: $0) }) {
            body(buffer[0..<n].split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
        }
    }
}
