#if canImport(Glibc)
import Glibc
#endif
import SystemIO

/// A unix stream socket that takes command lines from local programs and
/// answers each with one line. Bounded: at most `maximumClients` connections,
/// `linesPerTurn` lines read from each client per loop turn (the rest waits),
/// and `maximumQueue` waiting commands; past that a command is refused at once
/// with `busyReply`, so a flood never blocks the render loop. A client idle
/// for `idleTimeout` seconds is closed, so idle connections cannot lock
/// everyone out; a client that does not read its replies is dropped.
public final class CommandSocket {
    public let path: String
    private let listener: FileDescriptor
    public var maximumClients = 16
    public var maximumQueue = 64
    public var linesPerTurn = 16
    public var idleTimeout = 30.0
    /// The reply to a command that cannot be queued.
    public var busyReply = #"{"ok":false,"error":"busy: too many commands waiting"}"#

    /// A connected program; replies go back to it by its descriptor.
    public final class Client {
        public let connection: FileDescriptor
        /// A number that names this connection while it lasts.
        public let id: Int
        var reader = LineReader(maximumLineLength: 65_536)
        var lastHeard: Double
        init(_ connection: FileDescriptor, id: Int, at time: Double) {
            self.connection = connection
            self.id = id
            lastHeard = time
        }
    }
    private var nextClientID = 1

    public private(set) var clients: [Client] = []
    /// Commands waiting to be handled: the client and the line.
    public private(set) var queue: [(client: Client, line: LineReader.Line)] = []

    /// The socket file this process made (device and inode), removed on exit only if still there.
    private var madeFile: (device: UInt64, inode: UInt64)?

    /// Creates the socket at `path` with mode 0660. A stale socket left by a
    /// kiosk that died is replaced; a live one (another kiosk serving it) or
    /// anything that is not a socket is left alone, with an error.
    public init(path: String) throws {
        guard path.utf8.count < 108 else { throw InputError("\(path): a unix socket path must be under 108 bytes") }
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else { throw InputError("\(path): exists and is not a socket; not replacing it") }
            if let probe = try? LocalSocket.connect(to: path) {
                probe.close()
                throw InputError("\(path): another program is serving this socket (a second kiosk?)")
            }
            unlink(path)
        }
        let listener: FileDescriptor
        do { listener = try LocalSocket.listen(at: path, mode: 0o660) } catch let error as SystemError {
            throw InputError("\(path): cannot listen (\(error.reason))")
        }
        if stat(path, &info) == 0 { madeFile = (UInt64(info.st_dev), UInt64(info.st_ino)) }
        self.path = path
        self.listener = listener
    }

    deinit {
        var info = stat()
        if let madeFile, stat(path, &info) == 0, UInt64(info.st_dev) == madeFile.device, UInt64(info.st_ino) == madeFile.inode {
            unlink(path)
        }
    }

    /// Whether a client has lines read but not yet handed out: service again without waiting.
    public var hasPendingLines: Bool { clients.contains { $0.reader.hasPendingLines } }

    /// When the first idle client times out.
    public var nextIdleTimeout: Double? { clients.map(\.lastHeard).min().map { $0 + idleTimeout } }

    /// Every descriptor to poll: the listener, then the clients.
    public func forEachDescriptor(_ body: (Int32) -> Void) {
        body(listener.rawValue)
        for c in clients { body(c.connection.rawValue) }
    }

    /// Accepts new clients and reads their lines into the queue. Call when any
    /// descriptor is readable, a client has pending lines, or one may have timed out.
    public func service(now: Double) {
        // Clients that left are noticed before new ones are counted against the limit.
        read(clients.indices, now: now)
        let firstNew = clients.count
        while true {
            guard let client = LocalSocket.accept(on: listener) else { break }
            if clients.count >= maximumClients {
                // The client idle longest makes room, if it has been idle a while.
                guard let quiet = clients.indices.min(by: { clients[$0].lastHeard < clients[$1].lastHeard }),
                      now - clients[quiet].lastHeard > 5 else {
                    try? client.writeAll(busyReply + "\n")
                    continue
                }
                clients.remove(at: quiet)
            }
            clients.append(Client(client, id: nextClientID, at: now))
            nextClientID += 1
        }
        read(min(firstNew, clients.count)..<clients.count, now: now)
    }

    /// Reads the clients at `range` into the queue, dropping those that closed or idled out.
    private func read(_ range: Range<Int>, now: Double) {
        var gone: [Int] = []
        for i in range {
            let client = clients[i]
            let (lines, closed) = client.reader.read(from: client.connection, budget: 16 << 10, maxLines: linesPerTurn)
            if !lines.isEmpty { client.lastHeard = now }
            for line in lines {
                if queue.count >= maximumQueue {
                    try? client.connection.writeAll(busyReply + "\n")
                } else {
                    queue.append((client, line))
                }
            }
            if closed || now - client.lastHeard > idleTimeout { gone.append(i) }
        }
        for i in gone.reversed() { clients.remove(at: i) }
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
