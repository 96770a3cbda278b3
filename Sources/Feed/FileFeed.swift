#if canImport(Glibc)
import Glibc
#endif
import SystemIO

/// aircraft.json in a RAM directory (/run/readsb, /run/dump1090-fa). The
/// writers replace it by rename about once a second, so the directory is
/// watched with inotify and the file read whole when it changes, read and
/// parsed on a thread of its own: a huge file (100,000 aircraft, 150 MiB)
/// costs that thread time, never the frame schedule.
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
    private let parsing = BackgroundWork<Result<AircraftSnapshot, FeedError>>()
    /// A read and parse that takes longer than this is given up.
    public var parseTimeout = 10.0
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

    public func forEachDescriptor(_ body: (Int32) -> Void) {
        body(inotify.rawValue)
        if parsing.isBusy { body(parsing.descriptor) }
    }

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
        if let result = parsing.take() { events += finished(result, now: now) }
        if let started = parsing.startedAt, now - started > parseTimeout {
            parsing.abandon()
            if failures.isNew("\(path): not parsed within \(Int(parseTimeout)) s") { events.append(.failed("\(path): not parsed within \(Int(parseTimeout)) s")) }
        }
        if (needsRead || (nextWake.map { now >= $0 } ?? false)) && !parsing.isBusy {
            needsRead = false
            let path = self.path
            parsing.start(at: now) { Self.read(path) }
        }
        if let last = lastUpdate, now - last > staleAfter, failures.isNew("\(path): no update for \(Int(staleAfter)) s") {
            events.append(.failed("\(path): no update for \(Int(staleAfter)) s"))
        }
        // Checked again now and then, in case the directory itself was replaced.
        nextWake = now + 5
        return events
    }

    /// Reads and parses the file (on the parsing thread).
    static func read(_ path: String) -> Result<AircraftSnapshot, FeedError> {
        do {
            return .success(try AircraftJSON.parse(FileContents.bytes(path, limit: 64 << 20)))
        } catch {
            // "…/aircraft.json: No such file or directory": the reason is all a missing file needs.
            let message = (error as? FileContentsError).map { e in e.cause.map { "\(path): \($0.reason)" } ?? "\(e)" } ?? "\(path): \(error)"
            return .failure(FeedError(message))
        }
    }

    private func finished(_ result: Result<AircraftSnapshot, FeedError>, now: Double) -> [FeedEvent] {
        switch result {
        case let .success(snapshot):
            lastUpdate = now
            failures.clear()
            return [.snapshot(snapshot)]
        case let .failure(error):
            return failures.isNew(error.description) ? [.failed(error.description)] : []
        }
    }
}
