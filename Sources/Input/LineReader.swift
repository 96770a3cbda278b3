#if canImport(Glibc)
import Glibc
#endif

/// Splits what arrives on a descriptor into lines, keeping at most
/// `maximumLineLength` bytes of any line: a longer one is reported as too long
/// rather than growing without bound.
public struct LineReader {
    public enum Line: Equatable {
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
                if discarding > 0 {
                    lines.append(.tooLong(discarding + pending.count))
                    discarding = 0
                } else {
                    if pending.last == 0x0D { pending.removeLast() }
                    lines.append(.text(String(decoding: pending, as: UTF8.self)))
                }
                pending.removeAll(keepingCapacity: true)
            } else if pending.count < maximumLineLength {
                pending.append(b)
            } else {
                discarding += 1
            }
        }
        return lines
    }

    /// Reads what is available on a non-blocking descriptor. Returns the lines and
    /// whether the other end closed.
    public mutating func read(from fd: Int32) -> (lines: [Line], closed: Bool) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var lines: [Line] = []
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                lines += buffer.withUnsafeBytes { append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                if n < buffer.count { return (lines, false) }
            } else if n == 0 {
                return (lines, true)
            } else {
                return (lines, !(errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
            }
        }
    }
}

/// Small typed wrappers over descriptor calls used by every input.
public enum Descriptor {
    public static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Writes all of `text`, giving up if the peer does not take it (non-blocking).
    @discardableResult
    public static func writeAll(_ fd: Int32, _ text: String) -> Bool {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    public static var errorText: String { String(cString: strerror(errno)) }
}
