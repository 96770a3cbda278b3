#if canImport(Glibc)
import Glibc
#endif
import KioskModel
import SystemIO

/// SIGTERM, SIGINT, SIGHUP, SIGUSR1 and SIGUSR2 from a signalfd.
final class SignalSource: EventSource {
    private let descriptor: FileDescriptor

    init(_ descriptor: FileDescriptor) { self.descriptor = descriptor }

    func forEachDescriptor(_ body: (Int32) -> Void) { body(descriptor.rawValue) }
    var nextWake: Double? { nil }

    func service(now: Double) -> [KioskEvent] {
        var events: [KioskEvent] = []
        while let number = Signals.next(from: descriptor) {
            switch number {
            case SIGHUP: events.append(.signal(.reload))
            case SIGUSR1: events.append(.signal(.screenshot))
            case SIGUSR2: events.append(.signal(.switchTerminal))
            default: events.append(.signal(.terminate(number)))
            }
        }
        return events
    }
}
