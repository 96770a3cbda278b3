#if canImport(Glibc)
import Glibc
#endif
import SystemIO

/// DRM hotplug from the kernel's uevents: a cable in or out, a monitor
/// powered on or off, a forced status, a card added by a driver that loaded late.
public final class HotplugMonitor {
    private let uevents: UeventSocket
    public var fd: Int32 { uevents.descriptor }

    public init?() {
        guard let uevents = UeventSocket() else { return nil }
        self.uevents = uevents
    }

    /// Drains pending uevents; true if any was a DRM hotplug.
    public func drain() -> Bool {
        var hotplug = false
        let debugging = getenv("RADAR_KIOSK_DEBUG_UEVENTS") != nil
        uevents.drain { fields in
            if debugging { Log.line("uevent: " + fields.joined(separator: " ")) }
            // Any DRM change: a connector's HOTPLUG=1, a plain change event, or a
            // card added (re-probing is a few cheap ioctls, so no event is worth missing).
            if fields.contains("SUBSYSTEM=drm") && (fields.contains("ACTION=change") || fields.contains("ACTION=add")) {
                hotplug = true
            }
        }
        return hotplug
    }
}
