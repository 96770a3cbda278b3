import KioskModel
import SystemIO

/// JSON command lines on standard input (a pipe or a file, not a terminal).
final class StandardInputSource: EventSource {
    private let input = FileDescriptor(borrowing: 0)
    private var reader = LineReader()
    private var open = true

    init() { input.setNonBlocking() }

    func forEachDescriptor(_ body: (Int32) -> Void) { if open { body(0) } }
    /// At once while lines read wait to be handed out.
    var nextWake: Double? { reader.hasPendingLines ? 0 : nil }

    func service(now: Double) -> [KioskEvent] {
        guard open else { return [] }
        let (lines, closed) = reader.read(from: input, budget: 16 << 10, maxLines: 16)
        if closed { open = false }
        return lines.map { .commandLine($0, client: .standardInput) }
    }
}
