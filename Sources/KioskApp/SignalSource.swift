#if canImport(Glibc)
import Glibc
#endif
import KioskModel
import SystemIO

/// SIGTERM, SIGINT, SIGHUP, SIGUSR1 and SIGUSR2 from a signalfd; SIGHUPs
/// paced to at most one reload a second (`ReloadPacing`).
final class SignalSource: EventSource {
    private let descriptor: FileDescriptor
    private var reloads = ReloadPacing()

    init(_ descriptor: FileDescriptor) { self.descriptor = descriptor }

    func forEachDescriptor(_ body: (Int32) -> Void) { body(descriptor.rawValue) }
    var nextWake: Double? { reloads.nextWake }

    func service(now: Double) -> [KioskEvent] {
        var events: [KioskEvent] = []
        if reloads.due(at: now) { events.append(.signal(.reload)) }
        while let number = Signals.next(from: descriptor) {
            switch number {
            case SIGHUP: if reloads.requested(at: now) { events.append(.signal(.reload)) }
            case SIGUSR1: events.append(.signal(.screenshot))
            case SIGUSR2: events.append(.signal(.switchTerminal))
            default: events.append(.signal(.terminate(number)))
            }
        }
        return events
    }
}
