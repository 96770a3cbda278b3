import Input
import KioskModel
import SystemIO

/// Keys typed on the controlling terminal, when the kiosk is run by hand.
final class TerminalSource: EventSource {
    let terminal: TerminalKeys

    init(_ terminal: TerminalKeys) { self.terminal = terminal }

    func forEachDescriptor(_ body: (Int32) -> Void) { body(terminal.fd) }
    var nextWake: Double? { nil }

    func service(now: Double) -> [KioskEvent] {
        terminal.read().compactMap { KeyNames.code(for: $0).map { .key(code: $0, from: "key") } }
    }
}
