import Input
import KioskModel
import SystemIO

/// A GPIO input line. After an edge the level is read once things settle
/// (the last one wins), so a bouncing contact makes one change.
final class GPIOSource: EventSource {
    let line: GPIOLine
    let settle: Double
    private var checkAt: Double?

    init(_ line: GPIOLine, settle: Double) {
        self.line = line
        self.settle = settle
    }

    func forEachDescriptor(_ body: (Int32) -> Void) { body(line.fd) }
    var nextWake: Double? { checkAt }

    func service(now: Double) -> [KioskEvent] {
        if line.drainEvents() > 0 && checkAt == nil { checkAt = now + settle }
        guard let due = checkAt, now >= due else { return [] }
        checkAt = nil
        do {
            return [.gpio(active: try line.isActive(), line: line.name, initial: false)]
        } catch {
            Log.line("radar-kiosk: \(error)")
            return []
        }
    }
}
