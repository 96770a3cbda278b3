#if canImport(Glibc)
import Glibc
#endif

/// An open file descriptor that this object owns: closed exactly once (by
/// `close()` or when the object goes away), with interrupted calls retried and
/// failures reported as `SystemError`s naming the call. Every descriptor the
/// kiosk opens itself lives in one of these.
public final class FileDescriptor {
    public private(set) var rawValue: Int32

    /// Takes ownership of `rawValue` (it is closed with this object).
    public init(owning rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Wraps a descriptor this object does not own (standard input or error):
    /// it is never closed through this object.
    public init(borrowing rawValue: Int32) {
        self.rawValue = rawValue
        owned = false
    }

    private var owned = true

    deinit { if owned { close() } }

    /// Opens `path` with close-on-exec set; `subject` names it in errors.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws -> FileDescriptor {
        while true {
            let fd = Glibc.open(path, flags | O_CLOEXEC, mode)
            if fd >= 0 { return FileDescriptor(owning: fd) }
            if errno != EINTR { throw SystemError.last("open", path) }
        }
    }

    /// Closes now; later calls do nothing.
    public func close() {
        guard rawValue >= 0, owned else { return }
        // Linux releases the descriptor even when close is interrupted: never retry.
        _ = Glibc.close(rawValue)
        rawValue = -1
    }

    public var isOpen: Bool { rawValue >= 0 }

    /// What a read or write on a non-blocking descriptor came to.
    public enum Transfer: Equatable {
        case bytes(Int)
        /// Reads: the other end closed (end of file).
        case end
        /// Nothing to read, or no room to write, now.
        case wouldBlock
        case failed(SystemError)
    }

    /// Reads up to `buffer.count` bytes.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        while true {
            let n = Glibc.read(rawValue, buffer.baseAddress, buffer.count)
            if n > 0 { return .bytes(n) }
            if n == 0 { return buffer.isEmpty ? .bytes(0) : .end }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
            return .failed(.last("read"))
        }
    }

    /// Writes up to `bytes.count` bytes. A peer that went away is `.failed(EPIPE)`:
    /// the kiosk ignores SIGPIPE, so a write never kills it.
    public func write(_ bytes: UnsafeRawBufferPointer) -> Transfer {
        while true {
            let n = Glibc.write(rawValue, bytes.baseAddress, bytes.count)
            if n >= 0 { return .bytes(n) }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
            return .failed(.last("write"))
        }
    }

    /// Writes all of `bytes`. On a non-blocking descriptor whose peer takes no
    /// more now, it stops with EAGAIN rather than wait.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            switch write(UnsafeRawBufferPointer(rebasing: bytes[offset...])) {
            case let .bytes(n): offset += n
            case .end: return
            case .wouldBlock: throw SystemError("write", code: EAGAIN)
            case let .failed(e): throw e
            }
        }
    }

    /// Writes all of `text` (see `writeAll(_:)` for bytes).
    public func writeAll(_ text: String) throws {
        var text = text
        try text.withUTF8 { try writeAll(UnsafeRawBufferPointer($0)) }
    }

    /// Sets or clears O_NONBLOCK.
    public func setNonBlocking(_ on: Bool = true) {
        Self.setNonBlocking(rawValue, on)
    }

    /// The same for a descriptor this process does not own (standard input, say).
    public static func setNonBlocking(_ fd: Int32, _ on: Bool = true) {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0 else { return }
        _ = fcntl(fd, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK)
    }

    /// The file's length, or nil when it has none (a pipe, a socket).
    public var length: Int? {
        var info = stat()
        return fstat(rawValue, &info) == 0 ? Int(info.st_size) : nil
    }

    /// Cuts (or extends) the file to `length` bytes; whether that worked.
    @discardableResult
    public func truncate(to length: Int) -> Bool {
        ftruncate(rawValue, off_t(length)) == 0
    }

    /// Whether the descriptor is a regular file (not a FIFO, device or socket).
    public var isRegularFile: Bool {
        var info = stat()
        return fstat(rawValue, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}
