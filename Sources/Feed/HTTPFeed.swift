#if canImport(Glibc)
import Glibc
#endif
import SystemIO

/// aircraft.json over HTTP (tar1090's .../data/aircraft.json, SkyAware's
/// /skyaware/data/aircraft.json), fetched every `interval` seconds with a
/// non-blocking HTTP/1.0 request, so a slow receiver never holds up a frame.
public final class HTTPFeed: FeedSource {
    public let url: String
    public let host: String
    public let port: UInt16
    public let path: String
    public var name: String { url }
    public var interval = 1.0
    public var timeout = 5.0
    private var connection: FileDescriptor?
    public private(set) var nextWake: Double? = 0
    private var started = 0.0
    private var request: [UInt8] = []
    private var sent = 0
    private var response: [UInt8] = []
    private var failures = FailureReport()

    public init(host: String, port: UInt16, path: String) {
        self.host = host
        self.port = port
        self.path = path
        url = FeedSpec.http(host: host, port: port, path: path).description
    }

    public func forEachDescriptor(_ body: (Int32) -> Void) {
        if let connection { body(connection.rawValue) }
    }

    public func service(now: Double) -> [FeedEvent] {
        guard let connection else {
            guard let wake = nextWake, now >= wake else { return [] }
            return begin(now)
        }
        if now - started > timeout { return fail(now, "\(url): no answer within \(Int(timeout)) s") }
        if sent < request.count {
            if let error = TCPConnection.pendingError(of: connection) { return fail(now, "\(url): \(error.reason)") }
            switch request.withUnsafeBytes({ connection.write(UnsafeRawBufferPointer(rebasing: $0[sent...])) }) {
            case let .bytes(n): sent += n
            case .wouldBlock, .end: break
            case let .failed(e) where e.code == ENOTCONN || e.code == EINPROGRESS: break
            case let .failed(e): return fail(now, "\(url): \(e.reason)")
            }
            nextWake = now + 0.05
            if sent < request.count { return [] }
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            switch buffer.withUnsafeMutableBytes({ connection.read(into: $0) }) {
            case let .bytes(n):
                response.append(contentsOf: buffer[0..<n])
                if response.count > 32 << 20 { return fail(now, "\(url): answer larger than 32 MiB") }
            case .end:
                return finish(now)
            case .wouldBlock:
                nextWake = now + 0.05
                return []
            case let .failed(e):
                return fail(now, "\(url): \(e.reason)")
            }
        }
    }

    private func begin(_ now: Double) -> [FeedEvent] {
        do { connection = try TCPConnection.start(host: host, port: port) } catch {
            return fail(now, "\(url): \(error)")
        }
        started = now
        request = Array("GET \(path) HTTP/1.0\r\nHost: \(host.contains(":") ? "[\(host)]" : host)\r\nUser-Agent: radar-kiosk\r\nAccept: application/json\r\n\r\n".utf8)
        sent = 0
        response.removeAll(keepingCapacity: true)
        nextWake = now + 0.05
        return []
    }

    private func finish(_ now: Double) -> [FeedEvent] {
        connection = nil
        nextWake = now + interval
        guard let headerEnd = find([13, 10, 13, 10], in: response) else { return fail(now, "\(url): not an HTTP answer") }
        let head = String(decoding: response[0..<headerEnd], as: UTF8.self)
        let status = head.split(separator: " ", maxSplits: 2)
        guard status.count >= 2, status[0].hasPrefix("HTTP/") else { return fail(now, "\(url): not an HTTP answer") }
        guard status[1] == "200" else {
            return fail(now, "\(url): HTTP \(status.dropFirst().joined(separator: " ").split(separator: "\r").first ?? "")")
        }
        do {
            let snapshot = try AircraftJSON.parse(Array(response[(headerEnd + 4)...]))
            failures.clear()
            return [.snapshot(snapshot)]
        } catch {
            return fail(now, "\(url): \(error)")
        }
    }

    private func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] && Array(haystack[i..<(i + needle.count)]) == needle {
            return i
        }
        return nil
    }

    private func fail(_ now: Double, _ message: String) -> [FeedEvent] {
        connection = nil
        nextWake = now + max(interval, 2)
        return failures.isNew(message) ? [.failed(message)] : []
    }
}
