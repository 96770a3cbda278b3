#if canImport(Glibc)
import Glibc
#endif
import SystemIO

/// aircraft.json over HTTP (tar1090's .../data/aircraft.json, SkyAware's
/// /skyaware/data/aircraft.json), fetched every `interval` seconds with an
/// HTTP/1.0 request. Nothing of it blocks the loop: the name is looked up and
/// the connection made by `TCPConnection`, the answer read without waiting
/// (at most `readBudget` bytes a turn, `maximumAnswer` in all, `timeout`
/// for the whole exchange), and the body parsed on a thread of its own.
public final class HTTPFeed: FeedSource {
    public let url: String
    public let host: String
    public let port: UInt16
    public let path: String
    public var name: String { url }
    public var interval = 1.0
    public var timeout = 5.0
    public var readBudget = 1 << 20
    public var maximumAnswer = 32 << 20
    private let connector: TCPConnection
    private var stage = Stage.idle
    private var connection: FileDescriptor?
    private var startedAt = 0.0
    private var retryAt = 0.0
    private var request: [UInt8] = []
    private var sent = 0
    private var response: [UInt8] = []
    private let parsing = BackgroundWork<Result<AircraftSnapshot, FeedError>>()
    private var failures = FailureReport()

    private enum Stage { case idle, connecting, exchanging, parsing }

    public init(host: String, port: UInt16, path: String) {
        self.host = host
        self.port = port
        self.path = path
        url = FeedSpec.http(host: host, port: port, path: path).description
        connector = TCPConnection(host: host, port: port)
        connector.connectTimeout = timeout
    }

    public func forEachDescriptor(_ body: (Int32) -> Void) {
        switch stage {
        case .idle: break
        case .connecting: if let fd = connector.descriptor { body(fd) }
        case .exchanging: if let connection { body(connection.rawValue) }
        case .parsing: body(parsing.descriptor)
        }
    }

    /// The connect in progress, then the socket until the request is all
    /// sent: a web server says nothing until it has the whole request.
    public func forEachWritableDescriptor(_ body: (Int32) -> Void) {
        switch stage {
        case .connecting: if let fd = connector.writableDescriptor { body(fd) }
        case .exchanging: if let connection, sent < request.count { body(connection.rawValue) }
        case .idle, .parsing: break
        }
    }

    public var nextWake: Double? {
        switch stage {
        case .idle: return retryAt
        case .connecting: return connector.nextWake
        case .exchanging: return startedAt + timeout
        case .parsing: return startedAt + timeout + 10
        }
    }

    public func service(now: Double) -> [FeedEvent] {
        switch stage {
        case .idle:
            guard now >= retryAt else { return [] }
            startedAt = now
            stage = .connecting
            return connected(connector.begin(at: now), now: now)
        case .connecting:
            return connected(connector.step(at: now), now: now)
        case .exchanging:
            return exchange(now)
        case .parsing:
            if let result = parsing.take() {
                stage = .idle
                retryAt = startedAt + interval
                switch result {
                case let .success(snapshot):
                    failures.clear()
                    return [.snapshot(snapshot)]
                case let .failure(error):
                    return fail(now, error.description)
                }
            }
            if now - startedAt > timeout + 10 {
                parsing.abandon()
                return fail(now, "\(url): not parsed within \(Int(timeout + 10)) s")
            }
            return []
        }
    }

    private func connected(_ progress: TCPConnection.Progress, now: Double) -> [FeedEvent] {
        switch progress {
        case .waiting: return []
        case let .failed(message): return fail(now, "\(url): \(message)")
        case let .connected(socket):
            connection = socket
            stage = .exchanging
            let authority = host.contains(":") ? "[\(host)]" : host
            request = Array("GET \(path) HTTP/1.0\r\nHost: \(authority)\r\nUser-Agent: radar-kiosk\r\nAccept: application/json\r\n\r\n".utf8)
            sent = 0
            response.removeAll(keepingCapacity: true)
            return exchange(now)
        }
    }

    private func exchange(_ now: Double) -> [FeedEvent] {
        guard let connection else { return fail(now, "\(url): no connection") }
        if now - startedAt > timeout { return fail(now, "\(url): no answer within \(Int(timeout)) s") }
        if sent < request.count {
            switch request.withUnsafeBytes({ connection.write(UnsafeRawBufferPointer(rebasing: $0[sent...])) }) {
            case let .bytes(n): sent += n
            case .wouldBlock, .end: break
            case let .failed(e): return fail(now, "\(url): \(e.reason)")
            }
            if sent < request.count { return [] }
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        var taken = 0
        while taken < readBudget {
            switch buffer.withUnsafeMutableBytes({ connection.read(into: $0) }) {
            case let .bytes(n):
                taken += n
                response.append(contentsOf: buffer[0..<n])
                if response.count > maximumAnswer { return fail(now, "\(url): answer larger than \(maximumAnswer >> 20) MiB") }
            case .end:
                return answered(now)
            case .wouldBlock:
                return []
            case let .failed(e):
                return fail(now, "\(url): \(e.reason)")
            }
        }
        return []
    }

    /// The whole answer is in: check the status line, parse the body off the loop.
    private func answered(_ now: Double) -> [FeedEvent] {
        self.connection = nil
        guard let (status, bodyStart) = Self.statusAndBody(response) else { return fail(now, "\(url): not an HTTP answer") }
        guard status == 200 else { return fail(now, "\(url): HTTP \(status)") }
        let body = Array(response[bodyStart...])
        // One big answer must not keep its buffer for ever.
        if response.capacity > 1 << 20 { response = [] } else { response.removeAll(keepingCapacity: true) }
        let url = self.url
        stage = .parsing
        parsing.start(at: now) {
            do { return .success(try AircraftJSON.parse(body)) } catch { return .failure(FeedError("\(url): \(error)")) }
        }
        return []
    }

    /// The status code and where the body starts: `HTTP/1.x NNN[ reason]`,
    /// then headers, then an empty line. Nothing of the server's text is kept.
    static func statusAndBody(_ bytes: [UInt8]) -> (status: Int, bodyStart: Int)? {
        guard bytes.starts(with: Array("HTTP/1.".utf8)), bytes.count >= 12 else { return nil }
        let digits = bytes[9..<12]
        guard digits.allSatisfy({ (48...57).contains($0) }), bytes.count == 12 || bytes[12] == 32 || bytes[12] == 13 || bytes[12] == 10 else {
            return nil
        }
        let status = digits.reduce(0) { $0 * 10 + Int($1 - 48) }
        // The end of the headers: CR LF CR LF (or a bare LF LF from a sloppy server).
        var i = 12
        while i < bytes.count {
            if bytes[i] == 10 {
                if i + 1 < bytes.count && bytes[i + 1] == 10 { return (status, i + 2) }
                if i + 2 < bytes.count && bytes[i + 1] == 13 && bytes[i + 2] == 10 { return (status, i + 3) }
            }
            i += 1
        }
        return status == 200 ? nil : (status, bytes.count)
    }

    private func fail(_ now: Double, _ message: String) -> [FeedEvent] {
        connection = nil
        stage = .idle
        retryAt = now + max(interval, 2)
        if response.capacity > 1 << 20 { response = [] }
        return failures.isNew(message) ? [.failed(message)] : []
    }
}
