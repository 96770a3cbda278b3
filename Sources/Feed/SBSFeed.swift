#if canImport(Glibc)
import Glibc
#endif
import SystemIO

/// SBS-1 BaseStation over TCP (port 30003): connects without blocking (the
/// name looked up off the loop), reconnects with backoff, rebuilds aircraft
/// from the messages within a read budget per loop turn, and hands out a
/// snapshot once a second.
public final class SBSFeed: FeedSource {
    public let host: String
    public let port: UInt16
    public var name: String { FeedSpec.sbs(host: host, port: port).description }
    /// Bytes read per loop turn at most: a receiver flooding lines cannot hold the loop.
    public var readBudget = 64 << 10
    private let connector: TCPConnection
    private var connection: FileDescriptor?
    private var connecting = false
    private var retry = Backoff(first: 1, longest: 30)
    private var decoder = SBS1Decoder()
    private var reader = LineReader(maximumLineLength: 4096)
    private var lastSnapshot = 0.0
    private var failures = FailureReport()

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
        connector = TCPConnection(host: host, port: port)
    }

    public func forEachDescriptor(_ body: (Int32) -> Void) {
        if let connection { body(connection.rawValue) } else if connecting, let fd = connector.descriptor { body(fd) }
    }

    /// The connect in progress: a receiver with an empty sky sends nothing to wake the loop.
    public func forEachWritableDescriptor(_ body: (Int32) -> Void) {
        if connection == nil, connecting, let fd = connector.writableDescriptor { body(fd) }
    }

    public var nextWake: Double? {
        if connection != nil { return lastSnapshot + 1 }
        return connecting ? connector.nextWake : retry.due
    }

    public func service(now: Double) -> [FeedEvent] {
        if connection == nil {
            guard connecting || retry.isDue(at: now) else { return [] }
            let progress = connector.attempt(at: now, continuing: connecting)
            connecting = true
            switch progress {
            case .waiting: return []
            case let .failed(message): return fail(now, "\(name): \(message)")
            case let .connected(socket):
                connection = socket
                reader = LineReader(maximumLineLength: 4096)
                connecting = false
                retry.succeeded()
                failures.clear()
            }
        }
        guard let connection else { return [] }
        var events: [FeedEvent] = []
        let (lines, closed) = reader.read(from: connection, budget: readBudget)
        for case let .text(line) in lines { decoder.feed(line[...], at: now) }
        if closed { return fail(now, "\(name): the receiver closed the connection") }
        if now - lastSnapshot >= 1 {
            lastSnapshot = now
            events.append(.snapshot(decoder.snapshot(at: now)))
        }
        return events
    }

    private func fail(_ now: Double, _ message: String) -> [FeedEvent] {
        connection = nil
        connecting = false
        retry.failed(at: now)
        return failures.isNew(message) ? [.failed(message)] : []
    }
}
