#if canImport(Glibc)
import Glibc
#endif
import KioskModel
import SystemIO

/// The overflight log: one JSON line per overflight, appended to a file in
/// the state directory. Lines wait in memory and are written in batches (a
/// full batch, or every `flushInterval` seconds, or at exit), so an SD card
/// sees a few writes an hour, not one per aircraft. Past `rotateBytes` the
/// file becomes FILE.1 (the one before is dropped). A failed write is one log
/// line and the lines are kept for the next try, up to `batchSize` × 4.
final class OverflightLog: EventSource {
    let path: String
    var batchSize = 20
    var flushInterval = 600.0
    var rotateBytes = 1 << 20
    private var tracker = OverflightTracker()
    private var waiting: [Overflight] = []
    private var firstWaitingAt: Double?
    private var failedOnce = false

    init(path: String) { self.path = path }

    func forEachDescriptor(_ body: (Int32) -> Void) {}
    var nextWake: Double? { firstWaitingAt.map { $0 + flushInterval } }

    func service(now: Double) -> [KioskEvent] {
        flush()
        return []
    }

    /// The overflights ended but not written yet (they go in batches).
    var unwritten: [Overflight] { waiting }

    /// Follows the state shown (loop time `now` for the batch timer); returns the overflight it ended, if any.
    @discardableResult
    func observe(_ state: KioskState, now: Double) -> Overflight? {
        guard let done = tracker.observe(state, at: WallClock.now()) else { return nil }
        waiting.append(done)
        if waiting.count > batchSize * 4 { waiting.removeFirst(waiting.count - batchSize * 4) }
        firstWaitingAt = firstWaitingAt ?? now
        if waiting.count >= batchSize { flush() }
        return done
    }

    /// Ends the overflight shown (the kiosk is stopping) and writes what waits.
    func close() {
        if let done = tracker.observe(.standby, at: WallClock.now()) { waiting.append(done) }
        flush()
    }

    func flush() {
        guard !waiting.isEmpty else { firstWaitingAt = nil; return }
        var info = stat()
        if stat(path, &info) == 0, Int(info.st_size) >= rotateBytes { _ = rename(path, path + ".1") }
        do {
            // Never blocking: a FIFO at the path would hold the loop (and the
            // exit, whose SIGTERM waits on the loop) until something read it.
            let file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, mode: 0o644)
            guard file.isRegularFile else { throw FileContentsError("not a regular file") }
            let bytes = Array((waiting.map(\.jsonLine).joined(separator: "\n") + "\n").utf8)
            // A write cut short (the disk full) is taken back: a torn line
            // would swallow the next one, and the retry would write its
            // start a second time.
            let whole = file.length
            var written = 0
            while written < bytes.count {
                guard case let .bytes(n) = bytes.withUnsafeBytes({ file.write(UnsafeRawBufferPointer(rebasing: $0[written...])) }), n > 0 else {
                    let failure = SystemError.last("write", path)
                    if written > 0, let whole { file.truncate(to: whole) }
                    throw failure
                }
                written += n
            }
            waiting.removeAll()
            firstWaitingAt = nil
            failedOnce = false
        } catch {
            if !failedOnce { Log.line("radar-kiosk: overflight log \(path): \(error); keeping the lines for the next try") }
            failedOnce = true
            firstWaitingAt = MonotonicClock.now()
        }
    }
}
