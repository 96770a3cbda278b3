#if canImport(Glibc)
import Glibc
#endif
import SystemIO

/// What a live source produced.
public enum FeedEvent: Equatable, Sendable {
    case snapshot(AircraftSnapshot)
    /// The source is not usable now (missing file, refused connection, garbage);
    /// it keeps retrying. One line, naming the source.
    case failed(String)
}

/// A live ADS-B source as the event loop sees it: a descriptor to poll (or
/// none) and a time to be called back at (reconnects, polls).
public protocol FeedSource: EventSource<FeedEvent> {
    var name: String { get }
}

/// aircraft.json in a RAM directory (/run/readsb, /run/dump1090-fa). The
/// writers replace it by rename about once a second, so the directory is
/// watched with inotify and the file read whole when it changes.
public final class FileFeed: FeedSource {
    public let path: String
    public var name: String { path }
    private let inotify: FileDescriptor
    private var watch: Int32 = -1
    private let directory: String
    private let fileName: String
    private var lastUpdate: Double?
    private var failures = FailureReport()
    private var needsRead = true
    /// Without a new file for this long, the source counts as gone.
    public var staleAfter: Double = 30
    public private(set) var nextWake: Double? = 0

    public init(path: String) throws {
        self.path = path
        let slash = path.lastIndex(of: "/")
        directory = slash.map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        fileName = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw FeedError("\(path): inotify unavailable (\(SystemError.lastReason))") }
        inotify = FileDescriptor(owning: fd)
        addWatch()
    }

    public func forEachDescriptor(_ body: (Int32) -> Void) { body(inotify.rawValue) }

    private func addWatch() {
        watch = inotify_add_watch(inotify.rawValue, directory, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF))
    }

    public func service(now: Double) -> [FeedEvent] {
        // Drain inotify events; any event naming our file means read it again.
        var buffer = [UInt8](repeating: 0, count: 8192)
        while case let .bytes(n) = buffer.withUnsafeMutableBytes({ inotify.read(into: $0) }) {
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
        if let last = lastUpdate, now - last > staleAfter, failures.isNew("\(path): no update for \(Int(staleAfter)) s") {
            events.append(.failed("\(path): no update for \(Int(staleAfter)) s"))
        }
        // Checked again now and then, in case the directory itself was replaced.
        nextWake = now + 5
        return events
    }

    private func readFile(now: Double) -> [FeedEvent] {
        do {
            let snapshot = try AircraftJSON.parse(FileContents.bytes(path, limit: 32 << 20))
            lastUpdate = now
            failures.clear()
            return [.snapshot(snapshot)]
        } catch {
            // "…/aircraft.json: No such file or directory": the reason is all a missing file needs.
            let message = (error as? FileContentsError).map { e in e.cause.map { "\(path): \($0.reason)" } ?? "\(e)" } ?? "\(path): \(error)"
            return failures.isNew(message) ? [.failed(message)] : []
        }
    }
}

/// SBS-1 BaseStation over TCP (port 30003): reconnects with backoff, rebuilds
/// aircraft from the messages, and hands out a snapshot once a second.
public final class SBSFeed: FeedSource {
    public let host: String
    public let port: UInt16
    public var name: String { "sbs://\(host):\(port)" }
    private var connection: FileDescriptor?
    public private(set) var nextWake: Double? = 0
    private var connecting = false
    private var decoder = SBS1Decoder()
    private var reader = LineReader(maximumLineLength: 4096)
    private var backoff = 1.0
    private var lastSnapshot = 0.0
    private var failures = FailureReport()

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    public func forEachDescriptor(_ body: (Int32) -> Void) {
        if let connection { body(connection.rawValue) }
    }

    public func service(now: Double) -> [FeedEvent] {
        var events: [FeedEvent] = []
        guard let connection else {
            guard let wake = nextWake, now >= wake else { return [] }
            do {
                self.connection = try TCPConnection.start(host: host, port: port)
                connecting = true
                nextWake = now + 0.2
                return []
            } catch {
                return fail(now, "\(name): \(error)")
            }
        }
        if connecting {
            if let error = TCPConnection.pendingError(of: connection) { return fail(now, "\(name): \(error.reason)") }
            if !TCPConnection.isConnected(connection) { nextWake = now + 0.2; return [] }
            connecting = false
            backoff = 1
            failures.clear()
        }
        let (lines, closed) = reader.read(from: connection, budget: 256 << 10)
        for case let .text(line) in lines { decoder.feed(line[...], at: now) }
        if closed { return events + fail(now, "\(name): the receiver closed the connection") }
        if now - lastSnapshot >= 1 {
            lastSnapshot = now
            events.append(.snapshot(decoder.snapshot(at: now)))
        }
        nextWake = lastSnapshot + 1
        return events
    }

    private func fail(_ now: Double, _ message: String) -> [FeedEvent] {
        connection = nil
        connecting = false
        nextWake = now + backoff
        backoff = min(backoff * 2, 30)
        return failures.isNew(message) ? [.failed(message)] : []
    }
}

/// A feed setting that cannot work, with what is wrong.
public struct FeedError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
