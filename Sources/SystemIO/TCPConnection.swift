#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to a receiver (SBS-1 on port 30003, an HTTP
/// aircraft.json) made without ever blocking the loop: the name is looked up
/// on a thread of its own (getaddrinfo against a resolver that never answers
/// blocks for 20 s), the connect is non-blocking, and each step has a time
/// limit. `step` is called whenever `descriptor` is readable, `writableDescriptor`
/// writable, or `nextWake` comes.
public final class TCPConnection {
    public let host: String
    public let port: UInt16
    public var resolveTimeout = 10.0
    public var connectTimeout = 10.0

    /// Where a connection stands.
    public enum Progress {
        case waiting
        case connected(FileDescriptor)
        case failed(String)
    }

    private let lookup = BackgroundWork<LookupResult>()
    private var socket: FileDescriptor?
    private var startedAt = 0.0

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// What to poll for input while connecting: the lookup's result.
    public var descriptor: Int32? { lookup.isBusy && socket == nil ? lookup.descriptor : nil }

    /// What to poll for room to write while connecting: the socket whose
    /// connect is in progress (it becomes writable when made, or refused).
    public var writableDescriptor: Int32? { socket?.rawValue }

    /// When the current step times out.
    public var nextWake: Double? {
        if socket != nil { return startedAt + connectTimeout }
        return lookup.startedAt.map { $0 + resolveTimeout }
    }

    /// Starts over: a new lookup (or none, for an address literal).
    public func begin(at now: Double) -> Progress {
        socket = nil
        if let address = Self.numericAddress(host: host, port: port) { return connect(to: address, at: now) }
        lookup.abandon()
        let (host, port) = (self.host, self.port)
        guard lookup.start(at: now, { Self.resolve(host: host, port: port) }) else { return .failed("cannot start a name lookup") }
        return .waiting
    }

    /// Moves the caller's attempt on (`continuing`), or begins a new one: what
    /// a source that reconnects calls each time it is serviced without a connection.
    public func attempt(at now: Double, continuing: Bool) -> Progress { continuing ? step(at: now) : begin(at: now) }

    /// Moves the connection on; call when `descriptor` is readable, `writableDescriptor` writable, or `nextWake` has come.
    public func step(at now: Double) -> Progress {
        if let socket {
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(socket.rawValue, SOL_SOCKET, SO_ERROR, &error, &length)
            if error != 0 { self.socket = nil; return .failed(SystemError.connectReason(error)) }
            var pending = pollfd(fd: socket.rawValue, events: Int16(POLLOUT), revents: 0)
            if poll(&pending, 1, 0) > 0 && pending.revents & Int16(POLLOUT) != 0 {
                self.socket = nil
                return .connected(socket)
            }
            if now - startedAt > connectTimeout { self.socket = nil; return .failed("no connection within \(Int(connectTimeout)) s") }
            return .waiting
        }
        if let result = lookup.take() {
            switch result {
            case let .found(address): return connect(to: address, at: now)
            case let .failed(message): return .failed(message)
            }
        }
        if let started = lookup.startedAt, now - started > resolveTimeout {
            lookup.abandon()
            return .failed("cannot resolve \(host): no answer within \(Int(resolveTimeout)) s")
        }
        return .waiting
    }

    private func connect(to address: SocketAddress, at now: Double) -> Progress {
        let fd = Glibc.socket(Int32(address.family), Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failed(SystemError.lastReason) }
        let candidate = FileDescriptor(owning: fd)
        // A receiver powered off sends no FIN: keep-alive probes notice it in about a minute.
        var on: Int32 = 1, idle: Int32 = 30, interval: Int32 = 10, count: Int32 = 3
        setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPIDLE, &idle, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPINTVL, &interval, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPCNT, &count, socklen_t(MemoryLayout<Int32>.size))
        let status = address.bytes.withUnsafeBytes { raw in
            Glibc.connect(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        if status != 0 && errno != EINPROGRESS { return .failed(SystemError.connectReason(errno)) }
        socket = candidate
        startedAt = now
        return .waiting
    }

    /// Whether something accepts connections at an address literal within
    /// `timeout` seconds: a short, bounded probe, for start-up only.
    public static func accepts(host: String, port: UInt16, within timeout: Double) -> Bool {
        guard numericAddress(host: host, port: port) != nil else { return false }
        let connection = TCPConnection(host: host, port: port)
        connection.connectTimeout = timeout
        let start = MonotonicClock.now()
        var progress = connection.begin(at: start)
        while case .waiting = progress {
            guard let fd = connection.writableDescriptor else { return false }
            var pending = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&pending, 1, 20)
            progress = connection.step(at: MonotonicClock.now())
        }
        if case .connected = progress { return true }
        return false
    }

    /// A socket address, copied out of getaddrinfo's list so it can cross threads.
    struct SocketAddress: Sendable {
        var family: Int32
        var bytes: [UInt8]
    }

    enum LookupResult: Sendable {
        case found(SocketAddress)
        case failed(String)
    }

    /// An address literal (127.0.0.1, ::1) needs no lookup.
    static func numericAddress(host: String, port: UInt16) -> SocketAddress? {
        if case let .found(address) = lookup(host: host, port: port, flags: AI_NUMERICHOST) { return address }
        return nil
    }

    /// getaddrinfo: blocking, so only ever called on a lookup thread (or for a literal).
    static func resolve(host: String, port: UInt16) -> LookupResult { lookup(host: host, port: port, flags: 0) }

    private static func lookup(host: String, port: UInt16, flags: Int32) -> LookupResult {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = flags
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let info = list else {
            return .failed("cannot resolve \(host)" + (status == EAI_NONAME ? "" : " (\(String(cString: gai_strerror(status))))"))
        }
        defer { freeaddrinfo(list) }
        let bytes = Array(UnsafeRawBufferPointer(start: info.pointee.ai_addr, count: Int(info.pointee.ai_addrlen)))
        return .found(SocketAddress(family: info.pointee.ai_family, bytes: bytes))
    }
}
