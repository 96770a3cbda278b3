import Display
import KioskModel
import SystemIO

/// Where hotplug uevents come from: the kernel's netlink socket, or a test's stand-in.
protocol HotplugEvents: AnyObject {
    var fd: Int32 { get }
    /// Reads what is pending; true if any was a DRM hotplug.
    func drain() -> Bool
}

extension HotplugMonitor: HotplugEvents {}

/// DRM hotplug uevents, settled: a TV that sleeps or changes input drops and
/// raises hot-plug several times within a second, so the outputs are
/// re-probed once the uevents have been quiet for `settle` seconds, not on
/// each. A drop that is back by then changes nothing (no modeset, no
/// flicker, a blanked screen stays blanked). What a hotplug means for the
/// display is the service's to decide.
final class HotplugSource: EventSource {
    let events: HotplugEvents
    let onHotplug: () -> [KioskEvent]
    /// Seconds of quiet after the last uevent before the outputs are re-probed.
    var settle = 1.0
    private var settlesAt: Double?

    init(_ events: HotplugEvents, onHotplug: @escaping () -> [KioskEvent]) {
        self.events = events
        self.onHotplug = onHotplug
    }

    func forEachDescriptor(_ body: (Int32) -> Void) { body(events.fd) }
    var nextWake: Double? { settlesAt }

    func service(now: Double) -> [KioskEvent] {
        if events.drain() {
            settlesAt = now + settle
            return []
        }
        guard let at = settlesAt, now >= at else { return [] }
        settlesAt = nil
        return onHotplug()
    }
}
