#if canImport(Glibc)
import Glibc
#endif

/// A unix stream socket that takes command lines from local programs and
/// answers each with one line. Bounded: at most `maximumClients` connections
/// and `maximumQueue` waiting commands; past that a command is refused at once
/// with `busyReply`, so a flood never blocks the render loop.
public final class CommandSocket {
    public let path: String
    public let fd: Int32
    public var maximumClients = 16
    public var maximumQueue = 64
    /// The reply to a command that cannot be queued.
    public var busyReply = #"{"ok":false,"error":"busy: too many commands waiting"}"#

    public struct Client {
        public let fd: Int32
        var reader = LineReader(maximumLineLength: 65_536)
    }

    public private(set) var clients: [Client] = []
    /// Commands waiting to be handled: the client's descriptor and the line.
    public private(set) var queue: [(client: Int32, line: LineReader.Line)] = []

    /// Creates the socket at `path` (replacing a stale one) with mode 0660.
    public init(path: String) throws {
        guard path.utf8.count < 108 else { throw InputError("\(path): a unix socket path must be under 108 bytes") }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw InputError("cannot create a unix socket: \(Descriptor.errorText)") }
        unlink(path)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, chmod(path, 0o660) == 0, listen(fd, 16) == 0 else {
            let e = Descriptor.errorText
            close(fd)
            throw InputError("\(path): cannot listen (\(e))")
        }
        self.path = path
        self.fd = fd
    }

    deinit {
        for c in clients { close(c.fd) }
        close(fd)
        unlink(path)
    }

    /// Every descriptor to poll: the listener, then the clients.
    public var descriptors: [Int32] { [fd] + clients.map(\.fd) }

    /// Accepts new clients and reads their lines into the queue. Call when any
    /// descriptor is readable.
    public func service() {
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 { break }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            Descriptor.setNonBlocking(client)
            if clients.count >= maximumClients {
                Descriptor.writeAll(client, busyReply + "\n")
                close(client)
                continue
            }
            clients.append(Client(fd: client))
        }
        var i = 0
        while i < clients.count {
            let (lines, closed) = clients[i].reader.read(from: clients[i].fd)
            for line in lines {
                if queue.count >= maximumQueue {
                    Descriptor.writeAll(clients[i].fd, busyReply + "\n")
                } else {
                    queue.append((clients[i].fd, line))
                }
            }
            if closed {
                close(clients[i].fd)
                clients.remove(at: i)
            } else {
                i += 1
            }
        }
    }

    /// Takes the waiting commands, oldest first.
    public func takeQueue() -> [(client: Int32, line: LineReader.Line)] {
        defer { queue.removeAll(keepingCapacity: true) }
        return queue
    }

    public func reply(to client: Int32, _ line: String) {
        Descriptor.writeAll(client, line + "\n")
    }
}

/// An input that cannot be used, with what to do about it.
public struct InputError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
