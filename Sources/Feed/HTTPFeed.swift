#if canImport(Glibc)
import Glibc
#endif

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
    public private(set) var descriptor: Int32 = -1
    public private(set) var nextWake: Double? = 0
    private var started = 0.0
    private var request: [UInt8] = []
    private var sent = 0
    private var response: [UInt8] = []
    private var reportedFailure: String?

    /// `url` is http://HOST[:PORT]/PATH.
    public init(url: String) throws {
        guard url.hasPrefix("http://") else { throw FeedError("\(url): expected http://HOST[:PORT]/PATH") }
        let rest = url.dropFirst(7)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash]
        path = slash == rest.endIndex ? "/" : String(rest[slash...])
        let parts = authority.split(separator: ":")
        guard let h = parts.first, !h.isEmpty, parts.count <= 2 else { throw FeedError("\(url): no host") }
        host = String(h)
        if parts.count == 2 {
            guard let p = UInt16(parts[1]) else { throw FeedError("\(url): bad port") }
            port = p
        } else {
            port = 80
        }
        self.url = url
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    public func service(now: Double) -> [FeedEvent] {
        if descriptor < 0 {
            guard let wake = nextWake, now >= wake else { return [] }
            return begin(now)
        }
        if now - started > timeout { return fail(now, "\(url): no answer within \(Int(timeout)) s") }
        if sent < request.count {
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
            if error != 0 { return fail(now, "\(url): \(String(cString: strerror(error)))") }
            let n = request.withUnsafeBytes { write(descriptor, $0.baseAddress! + sent, $0.count - sent) }
            if n > 0 { sent += n } else if n < 0 && errno != EAGAIN && errno != EINPROGRESS && errno != ENOTCONN {
                return fail(now, "\(url): \(String(cString: strerror(errno)))")
            }
            nextWake = now + 0.05
            if sent < request.count { return [] }
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n > 0 {
                response.append(contentsOf: buffer[0..<n])
                if response.count > 32 << 20 { return fail(now, "\(url): answer larger than 32 MiB") }
            } else if n == 0 {
                return finish(now)
            } else {
                if errno == EAGAIN || errno == EINTR { nextWake = now + 0.05; return [] }
                return fail(now, "\(url): \(String(cString: strerror(errno)))")
            }
        }
    }

    private func begin(_ now: Double) -> [FeedEvent] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let info = result else {
            return fail(now, "\(url): cannot resolve \(host)")
        }
        defer { freeaddrinfo(result) }
        let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return fail(now, "\(url): \(String(cString: strerror(errno)))") }
        if connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) != 0 && errno != EINPROGRESS {
            let message = "\(url): \(String(cString: strerror(errno)))"
            close(fd)
            return fail(now, message)
        }
        descriptor = fd
        started = now
        request = Array("GET \(path) HTTP/1.0\r\nHost: \(host)\r\nUser-Agent: radar-kiosk\r\nAccept: application/json\r\n\r\n".utf8)
        sent = 0
        response.removeAll(keepingCapacity: true)
        nextWake = now + 0.05
        return []
    }

    private func finish(_ now: Double) -> [FeedEvent] {
        close(descriptor)
        descriptor = -1
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
            reportedFailure = nil
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
        if descriptor >= 0 { close(descriptor); descriptor = -1 }
        nextWake = now + max(interval, 2)
        if reportedFailure == message { return [] }
        reportedFailure = message
        return [.failed(message)]
    }
}
