import KioskModel
import SystemIO

/// systemd's watchdog: a keep-alive from the loop itself, so a loop that
/// stops turning is restarted.
final class WatchdogSource: EventSource {
    let notifier: ServiceNotifier
    let interval: Double
    private var last = -Double.infinity

    init(_ notifier: ServiceNotifier, interval: Double) {
        self.notifier = notifier
        self.interval = interval
    }

    func forEachDescriptor(_ body: (Int32) -> Void) {}
    var nextWake: Double? { last + interval }

    func service(now: Double) -> [KioskEvent] {
        guard now >= last + interval else { return [] }
        notifier.send("WATCHDOG=1")
        last = now
        return []
    }
}
