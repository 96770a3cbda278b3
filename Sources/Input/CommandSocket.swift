#if canImport(Glibc)
import Glibc
#endif
import SystemIO

/// A unix stream socket that takes command lines from local programs and
/// answers each with one line. Bounded: at most `maximumClients` connections
/// and `maximumQueue` waiting commands; past that a command is refused at once
/// with `busyReply`, so a flood never blocks the render loop.
public final class CommandSocket {
    public let path: String
    private let listener: FileDescriptor
    public var maximumClients = 16
    public var maximumQueue = 64
    /// The reply to a command that cannot be queued.
    public var busyReply = #"{"ok":false,"error":"busy: too many commands waiting"}"#

    /// A connected program; replies go back to it by its descriptor.
    public final class Client {
        public let connection: FileDescriptor
        /// A number that names this connection while it lasts.
        public let id: Int
        var reader = LineReader(maximumLineLength: 65_536)
        init(_ connection: FileDescriptor, id: Int) {
            self.connection = connection
            self.id = id
        }
    }
    private var nextClientID = 1

    public private(set) var clients: [Client] = []
    /// Commands waiting to be handled: the client and the line.
    public private(set) var queue: [(client: Client, line: LineReader.Line)] = []

    /// Creates the socket at `path` (replacing a stale one) with mode 0660.
    public init(path: String) throws {
        guard path.utf8.count < 108 else { throw InputError("\(path): a unix socket path must be under 108 bytes") }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw InputError("cannot create a unix socket: \(SystemError.lastReason)") }
        let listener = FileDescriptor(owning: fd)
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
            throw InputError("\(path): cannot listen (\(SystemError.lastReason))")
        }
        self.path = path
        self.listener = listener
    }

    deinit { unlink(path) }

    /// Every descriptor to poll: the listener, then the clients.
    public func forEachDescriptor(_ body: (Int32) -> Void) {
        body(listener.rawValue)
        for c in clients { body(c.connection.rawValue) }
    }

    /// Accepts new clients and reads their lines into the queue. Call when any
    /// descriptor is readable.
    public func service() {
        while true {
            let fd = accept(listener.rawValue, nil, nil)
            if fd < 0 { break }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            let client = FileDescriptor(owning: fd)
            client.setNonBlocking()
            if clients.count >= maximumClients {
                try? client.writeAll(busyReply + "\n")
                continue
            }
            clients.append(Client(client, id: nextClientID))
            nextClientID += 1
        }
        var i = 0
        while i < clients.count {
            let client = clients[i]
            let (lines, closed) = client.reader.read(from: client.connection)
            for line in lines {
                if queue.count >= maximumQueue {
                    try? client.connection.writeAll(busyReply + "\n")
                } else {
                    queue.append((client, line))
                }
            }
            if closed {
                clients.remove(at: i)
            } else {
                i += 1
            }
        }
    }

    /// Takes the waiting commands, oldest first.
    public func takeQueue() -> [(client: Client, line: LineReader.Line)] {
        defer { queue.removeAll(keepingCapacity: true) }
        return queue
    }

    /// Answers a client; one that does not take its answer (gone, or not
    /// reading) is dropped rather than waited for.
    public func reply(to clientID: Int, _ line: String) {
        guard let client = clients.first(where: { $0.id == clientID }) else { return }
        do { try client.connection.writeAll(line + "\n") } catch {
            clients.removeAll { $0 === client }
        }
    }
}

/// An input that cannot be used, with what to do about it.
public struct InputError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
