import Display
import KioskModel
import SystemIO

/// DRM hotplug uevents; what they mean for the display is the service's to decide.
final class HotplugSource: EventSource {
    let monitor: HotplugMonitor
    let onHotplug: () -> [KioskEvent]

    init(_ monitor: HotplugMonitor, onHotplug: @escaping () -> [KioskEvent]) {
        self.monitor = monitor
        self.onHotplug = onHotplug
    }

    func forEachDescriptor(_ body: (Int32) -> Void) { body(monitor.fd) }
    var nextWake: Double? { nil }

    func service(now: Double) -> [KioskEvent] { monitor.drain() ? onHotplug() : [] }
}
