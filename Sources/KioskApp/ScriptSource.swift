import KioskModel
import SystemIO

/// The autoplay script's commands, each at its time.
final class ScriptSource: EventSource {
    let script: [TimedCommand]
    private var next = 0

    init(_ script: [TimedCommand]) { self.script = script }

    func forEachDescriptor(_ body: (Int32) -> Void) {}
    var nextWake: Double? { next < script.count ? script[next].at : nil }

    func service(now: Double) -> [KioskEvent] {
        var events: [KioskEvent] = []
        while next < script.count && script[next].at <= now {
            events.append(.scripted(script[next].command))
            next += 1
        }
        return events
    }
}
