#if canImport(Glibc)
import Glibc
#endif

/// Unix-domain sockets, named by a path or (written `@name`) an abstract
/// name: the control socket's listener and its clients, and the datagrams
/// sent to systemd. Every sockaddr_un is built here, and every call that
/// fails says which it was.
public enum LocalSocket {
    /// The longest name a sockaddr_un holds, with its terminating NUL.
    public static let maximumNameLength = 107

    /// The address of `name`, and its length as the kernel wants it (an
    /// abstract name has no terminating NUL and starts with one instead of the @).
    static func address(_ name: String) -> (sockaddr_un, socklen_t) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(name.utf8.prefix(maximumNameLength))
        let abstract = bytes.first == UInt8(ascii: "@")
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            if abstract { raw[0] = 0 }
        }
        let base = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        return (address, socklen_t(base + bytes.count + (abstract ? 0 : 1)))
    }

    private static func withAddress<T>(_ name: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var (address, length) = address(name)
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
    }

    private static func make(_ type: Int32, nonBlocking: Bool) throws -> FileDescriptor {
        let fd = socket(AF_UNIX, type | Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0), 0)
        guard fd >= 0 else { throw SystemError.last("socket") }
        return FileDescriptor(owning: fd)
    }

    /// A non-blocking stream socket listening at `path`, its file given `mode`.
    public static func listen(at path: String, mode: mode_t, backlog: Int32 = 64) throws -> FileDescriptor {
        let listener = try make(Int32(SOCK_STREAM.rawValue), nonBlocking: true)
        guard withAddress(path, { bind(listener.rawValue, $0, $1) }) == 0 else { throw SystemError.last("bind", path) }
        guard chmod(path, mode) == 0 else { throw SystemError.last("chmod", path) }
        guard Glibc.listen(listener.rawValue, backlog) == 0 else { throw SystemError.last("listen", path) }
        return listener
    }

    /// A blocking stream connection to the socket at `path` (to tell a live socket from one left behind).
    public static func connect(to path: String) throws -> FileDescriptor {
        let client = try make(Int32(SOCK_STREAM.rawValue), nonBlocking: false)
        guard withAddress(path, { Glibc.connect(client.rawValue, $0, $1) }) == 0 else { throw SystemError.last("connect", path) }
        return client
    }

    /// A connection waiting on `listener`, non-blocking and closed on exec; nil when none waits.
    public static func accept(on listener: FileDescriptor) -> FileDescriptor? {
        // accept4 is a GNU extension Glibc's module does not export: the flags are set after.
        let fd = Glibc.accept(listener.rawValue, nil, nil)
        guard fd >= 0 else { return nil }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let connection = FileDescriptor(owning: fd)
        connection.setNonBlocking()
        return connection
    }

    /// Datagrams to one socket (systemd's $NOTIFY_SOCKET), never waiting.
    public final class DatagramSender {
        private let socket: FileDescriptor
        private var address: sockaddr_un
        private let length: socklen_t

        /// A sender to `name` (a path or `@abstract`); nil when no socket can be made.
        public init?(to name: String) {
            guard let socket = try? LocalSocket.make(Int32(SOCK_DGRAM.rawValue), nonBlocking: true) else { return nil }
            self.socket = socket
            (address, length) = LocalSocket.address(name)
        }

        /// Sends `bytes` as one datagram; false when it was not sent (the
        /// receiver's queue full, no receiver). A full queue never blocks.
        @discardableResult
        public func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
            let fd = socket.rawValue, length = self.length
            return withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT), $0, length) == bytes.count
                }
            }
        }
    }
}
