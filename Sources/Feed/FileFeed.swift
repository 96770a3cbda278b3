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
    private let watch: DirectoryWatch
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
        let (directory, name) = DirectoryWatch.directoryAndName(of: path)
        fileName = name
        do {
            watch = try DirectoryWatch(directory, for: [.closedAfterWriting, .movedIn, .created, .deleted, .movedOut, .directoryDeleted])
        } catch let error as SystemError {
            throw FeedError("\(path): inotify unavailable (\(error.reason))")
        }
    }

    public func forEachDescriptor(_ body: (Int32) -> Void) {
        body(watch.descriptor)
        if parsing.isBusy { body(parsing.descriptor) }
    }

    public func service(now: Double) -> [FeedEvent] {
        // Any change naming our file means read it again.
        watch.drain { name, change in
            if name == fileName || change.contains(.directoryDeleted) { needsRead = true }
        }
        if !watch.isWatching { watch.rewatch() }
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
