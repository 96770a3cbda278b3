/// Splits what arrives on a descriptor into lines (LF or CRLF), keeping at
/// most `maximumLineLength` bytes of any line: a longer one is reported as too
/// long rather than growing without bound. Reads are bounded per call, so a
/// peer that never stops sending cannot hold the loop.
public struct LineReader {
    public enum Line: Equatable, Sendable {
        case text(String)
        case tooLong(Int)
    }

    public let maximumLineLength: Int
    private var pending: [UInt8] = []
    private var discarding = 0

    public init(maximumLineLength: Int = 65_536) {
        self.maximumLineLength = maximumLineLength
    }

    /// Adds bytes and returns the complete lines they finish.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) -> [Line] {
        var lines: [Line] = []
        for b in bytes {
            if b == 0x0A {
                lines.append(takeLine())
            } else if pending.count < maximumLineLength {
                pending.append(b)
            } else {
                discarding += 1
            }
        }
        return lines
    }

    /// The unfinished last line, when the other end closed without a newline.
    public mutating func finish() -> Line? {
        pending.isEmpty && discarding == 0 ? nil : takeLine()
    }

    private mutating func takeLine() -> Line {
        defer {
            pending.removeAll(keepingCapacity: true)
            discarding = 0
        }
        if discarding > 0 { return .tooLong(discarding + pending.count) }
        if pending.last == 0x0D { pending.removeLast() }
        return .text(String(decoding: pending, as: UTF8.self))
    }

    /// Lines split but not handed out yet (a caller asked for fewer).
    private var ready: [Line] = []
    private var ended = false

    /// Whether lines are waiting here though the descriptor may have nothing
    /// more to read: the caller should come back without waiting for input.
    public var hasPendingLines: Bool { !ready.isEmpty }

    /// Reads what is available on a non-blocking descriptor: at most `budget`
    /// bytes and `maxLines` lines this call (the rest waits, here or in the
    /// kernel, for the next). Returns the lines, and whether the other end
    /// closed (after its unfinished last line and every waiting one).
    public mutating func read(from descriptor: FileDescriptor, budget: Int = 65_536, maxLines: Int = .max) -> (lines: [Line], closed: Bool) {
        var lines: [Line] = []
        func deliver() {
            let n = min(maxLines - lines.count, ready.count)
            if n > 0 {
                lines += ready[0..<n]
                ready.removeFirst(n)
            }
        }
        deliver()
        var buffer = [UInt8](repeating: 0, count: min(16_384, max(budget, 1)))
        var taken = 0
        reading: while !ended && lines.count < maxLines && taken < budget {
            switch buffer.withUnsafeMutableBytes({ descriptor.read(into: $0) }) {
            case let .bytes(n):
                taken += n
                ready += buffer.withUnsafeBytes { append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                deliver()
                if n < buffer.count { break reading }
            case .wouldBlock:
                break reading
            case .end, .failed:
                if let last = finish() { ready.append(last) }
                ended = true
                deliver()
            }
        }
        return (lines, ended && ready.isEmpty)
    }
}
