#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking TCP connection to a receiver (SBS-1 on port 30003, an HTTP
/// aircraft.json): started without waiting, polled for readability, and asked
/// whether the connect succeeded once it is writable or readable.
public enum TCPConnection {
    /// Resolves `host` and starts connecting to its first address. The
    /// descriptor is non-blocking and may still be connecting.
    public static func start(host: String, port: UInt16) throws -> FileDescriptor {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &result)
        guard status == 0, let info = result else {
            throw SystemError("getaddrinfo", host, code: status == EAI_SYSTEM ? errno : ENOENT)
        }
        defer { freeaddrinfo(result) }
        let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemError.last("socket") }
        let socket = FileDescriptor(owning: fd)
        if connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) != 0 && errno != EINPROGRESS {
            throw SystemError.last("connect", "\(host):\(port)")
        }
        return socket
    }

    /// The connect's outcome on a socket from `start`: nil when it succeeded
    /// (or is still in progress), else the error.
    public static func pendingError(of socket: FileDescriptor) -> SystemError? {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(socket.rawValue, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return .last("getsockopt") }
        return error == 0 ? nil : SystemError("connect", code: error)
    }

    /// Whether a connect has completed (the socket is writable).
    public static func isConnected(_ socket: FileDescriptor) -> Bool {
        var pending = pollfd(fd: socket.rawValue, events: Int16(POLLOUT), revents: 0)
        return poll(&pending, 1, 0) > 0 && pending.revents & Int16(POLLOUT) != 0
    }
}
