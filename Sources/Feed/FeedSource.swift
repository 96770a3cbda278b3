#if canImport(Glibc)
import Glibc
#endif

/// What a live source produced.
public enum FeedEvent: Equatable, Sendable {
    case snapshot(AircraftSnapshot)
    /// The source is not usable now (missing file, refused connection, garbage);
    /// it keeps retrying. One line, naming the source.
    case failed(String)
}

/// A live ADS-B source as the event loop sees it: a descriptor to poll (or -1)
/// and a time to be called back at.
public protocol FeedSource: AnyObject {
    var name: String { get }
    var descriptor: Int32 { get }
    /// When to call `service` even without input (reconnects, polls), if ever.
    var nextWake: Double? { get }
    /// Called when the descriptor is readable or the wake time has come.
    func service(now: Double) -> [FeedEvent]
}

/// aircraft.json in a RAM directory (/run/readsb, /run/dump1090-fa). The
/// writers replace it by rename about once a second, so the directory is
/// watched with inotify and the file read whole when it changes.
public final class FileFeed: FeedSource {
    public let path: String
    public var name: String { path }
    public let descriptor: Int32
    private var watch: Int32 = -1
    private let directory: String
    private let fileName: String
    private var lastUpdate: Double?
    private var reportedFailure: String?
    private var needsRead = true
    /// Without a new file for this long, the source counts as gone.
    public var staleAfter: Double = 30
    public private(set) var nextWake: Double? = 0

    public init(path: String) throws {
        self.path = path
        let slash = path.lastIndex(of: "/")
        directory = slash.map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        fileName = slash.map { String(path[path.index(after: $0)...]) } ?? path
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw FeedError("\(path): inotify unavailable (\(String(cString: strerror(errno))))") }
        addWatch()
    }

    deinit { close(descriptor) }

    private func addWatch() {
        watch = inotify_add_watch(descriptor, directory, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF))
    }

    public func service(now: Double) -> [FeedEvent] {
        // Drain inotify events; any event naming our file means read it again.
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= n {
                let (length, mask, nameBytes) = buffer.withUnsafeBytes { raw -> (Int, UInt32, [UInt8]) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let len = Int(event.len)
                    let start = offset + MemoryLayout<inotify_event>.size
                    return (len, event.mask, Array(raw[start..<min(start + len, n)]))
                }
                let eventName = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                if eventName == fileName || mask & UInt32(IN_DELETE_SELF) != 0 { needsRead = true }
                offset += MemoryLayout<inotify_event>.size + length
            }
        }
        if watch < 0 { addWatch() }
        var events: [FeedEvent] = []
        if needsRead || (nextWake.map { now >= $0 } ?? false) {
            needsRead = false
            events += readFile(now: now)
        }
        if let last = lastUpdate, now - last > staleAfter, reportedFailure == nil {
            reportedFailure = "no update for \(Int(staleAfter)) s"
            events.append(.failed("\(path): no update for \(Int(staleAfter)) s"))
        }
        // Checked again now and then, in case the directory itself was replaced.
        nextWake = now + 5
        return events
    }

    private func readFile(now: Double) -> [FeedEvent] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return failure(now, "\(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return failure(now, "\(path): read failed") }
            if n == 0 { break }
            data.append(contentsOf: chunk[0..<n])
            if data.count > 32 << 20 { return failure(now, "\(path): larger than 32 MiB") }
        }
        do {
            let snapshot = try AircraftJSON.parse(data)
            lastUpdate = now
            reportedFailure = nil
            return [.snapshot(snapshot)]
        } catch {
            return failure(now, "\(path): \(error)")
        }
    }

    private func failure(_ now: Double, _ message: String) -> [FeedEvent] {
        // One log line per kind of failure, not one per retry.
        if reportedFailure == message { return [] }
        reportedFailure = message
        return [.failed(message)]
    }
}

/// SBS-1 BaseStation over TCP (port 30003): reconnects with backoff, rebuilds
/// aircraft from the messages, and hands out a snapshot once a second.
public final class SBSFeed: FeedSource {
    public let host: String
    public let port: UInt16
    public var name: String { "sbs://\(host):\(port)" }
    public private(set) var descriptor: Int32 = -1
    public private(set) var nextWake: Double? = 0
    private var connecting = false
    private var decoder = SBS1Decoder()
    private var reader = LineReaderLite()
    private var backoff = 1.0
    private var lastSnapshot = 0.0
    private var reportedFailure: String?

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    public func service(now: Double) -> [FeedEvent] {
        var events: [FeedEvent] = []
        if descriptor < 0 {
            guard let wake = nextWake, now >= wake else { return [] }
            if let message = connect() {
                return fail(now, message)
            }
            return []
        }
        if connecting {
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
            if error != 0 { return fail(now, "\(name): \(String(cString: strerror(error)))") }
            var pending = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            if poll(&pending, 1, 0) <= 0 { nextWake = now + 0.2; return [] }
            connecting = false
            backoff = 1
            reportedFailure = nil
        }
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n > 0 {
                for line in reader.append(buffer[0..<n]) { decoder.feed(line[...], at: now) }
            } else if n == 0 {
                return events + fail(now, "\(name): the receiver closed the connection")
            } else {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { break }
                return events + fail(now, "\(name): \(String(cString: strerror(errno)))")
            }
        }
        if now - lastSnapshot >= 1 {
            lastSnapshot = now
            events.append(.snapshot(decoder.snapshot(at: now)))
        }
        nextWake = lastSnapshot + 1
        return events
    }

    /// Starts a non-blocking connection; returns an error message if it failed at once.
    private func connect() -> String? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let info = result else {
            return "\(name): cannot resolve \(host)"
        }
        defer { freeaddrinfo(result) }
        let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return "\(name): \(String(cString: strerror(errno)))" }
        if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) != 0 && errno != EINPROGRESS {
            let message = "\(name): \(String(cString: strerror(errno)))"
            close(fd)
            return message
        }
        descriptor = fd
        connecting = true
        nextWake = nil
        return nil
    }

    private func fail(_ now: Double, _ message: String) -> [FeedEvent] {
        if descriptor >= 0 { close(descriptor); descriptor = -1 }
        connecting = false
        nextWake = now + backoff
        backoff = min(backoff * 2, 30)
        if reportedFailure == message { return [] }
        reportedFailure = message
        return [.failed(message)]
    }
}

/// Lines from a byte stream, at most 4 KiB each (SBS lines are about 100 bytes).
struct LineReaderLite {
    private var pending: [UInt8] = []

    mutating func append(_ bytes: ArraySlice<UInt8>) -> [String] {
        var lines: [String] = []
        for b in bytes {
            if b == 0x0A {
                lines.append(String(decoding: pending, as: UTF8.self))
                pending.removeAll(keepingCapacity: true)
            } else if pending.count < 4096 {
                pending.append(b)
            }
        }
        return lines
    }
}

/// A feed setting that cannot work, with what is wrong.
public struct FeedError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
