#if canImport(Glibc)
import Glibc
#endif
import CLinux
import SystemIO

/// Kernel uevents over netlink (what udev itself listens to), filtered to DRM
/// hotplug: a cable in or out, a monitor powered on or off, a forced status.
public final class HotplugMonitor {
    private let netlink: FileDescriptor
    public var fd: Int32 { netlink.rawValue }

    public init?() {
        let fd = socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 15 /* NETLINK_KOBJECT_UEVENT */)
        guard fd >= 0 else { return nil }
        var address = sockaddr_nl()
        address.nl_family = sa_family_t(AF_NETLINK)
        address.nl_groups = 1   // kernel uevents
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_nl>.size)) }
        }
        guard bound == 0 else { close(fd); return nil }
        netlink = FileDescriptor(owning: fd)
    }

    /// Drains pending uevents; true if any was a DRM hotplug.
    public func drain() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 8192)
        var hotplug = false
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            let fields = buffer[0..<n].split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if getenv("RADAR_KIOSK_DEBUG_UEVENTS") != nil {
                Log.line("uevent: " + fields.joined(separator: " "))
            }
            // Any DRM change: a connector's HOTPLUG=1, a plain change event, or a
            // card added by a driver that loaded late (re-probing is a few cheap
            // ioctls, so no event is worth missing).
            if fields.contains("SUBSYSTEM=drm") && (fields.contains("ACTION=change") || fields.contains("ACTION=add")) {
                hotplug = true
            }
        }
        return hotplug
    }
}
