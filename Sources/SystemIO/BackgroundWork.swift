#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// Work that must not run on the render loop (a name lookup that may take
/// 20 s, parsing a large aircraft.json, encoding a PNG) done on a thread of
/// its own, one job at a time. The loop polls `descriptor`, which becomes
/// readable when the result is ready, and takes it with `take()`; a job still
/// running past its time budget is abandoned (its result, when it comes, is
/// dropped), never waited for.
public final class BackgroundWork<Result: Sendable>: @unchecked Sendable {
    private let signal: FileDescriptor
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var result: Result?
    private var generation = 0
    public private(set) var startedAt: Double?

    public init() {
        let fd = radar_eventfd()
        precondition(fd >= 0, "eventfd: \(SystemError.lastReason)")
        signal = FileDescriptor(owning: fd)
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// Readable when a result is waiting.
    public var descriptor: Int32 { signal.rawValue }

    /// Whether a job is running.
    public var isBusy: Bool { startedAt != nil }

    /// Starts `work` on a new thread at loop time `now`; false if one is still running.
    @discardableResult
    public func start(at now: Double, _ work: @escaping @Sendable () -> Result) -> Bool {
        guard startedAt == nil else { return false }
        startedAt = now
        let job: BackgroundJob = Job(owner: self, generation: generation, work: work)
        guard startThread(job) else {
            startedAt = nil
            return false
        }
        return true
    }

    /// The finished job's result, if one is waiting.
    public func take() -> Result? {
        var count: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &count) { signal.read(into: $0) }
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        guard let done = result else { return nil }
        result = nil
        startedAt = nil
        return done
    }

    /// Gives up on the running job: the next one may start; its result is dropped.
    public func abandon() {
        pthread_mutex_lock(lock)
        generation += 1
        result = nil
        pthread_mutex_unlock(lock)
        startedAt = nil
    }

    fileprivate func finish(_ value: Result, generation finished: Int) {
        pthread_mutex_lock(lock)
        let current = finished == generation
        if current { result = value }
        pthread_mutex_unlock(lock)
        if current {
            var one: UInt64 = 1
            _ = withUnsafeBytes(of: &one) { signal.write($0) }
        }
    }

    private final class Job: BackgroundJob, @unchecked Sendable {
        let owner: BackgroundWork
        let generation: Int
        let work: @Sendable () -> Result
        init(owner: BackgroundWork, generation: Int, work: @escaping @Sendable () -> Result) {
            self.owner = owner
            self.generation = generation
            self.work = work
        }
        func run() { owner.finish(work(), generation: generation) }
    }
}

/// A job as its thread sees it: run once.
private protocol BackgroundJob: AnyObject {
    func run()
}

/// Runs `job` on a new detached thread.
private func startThread(_ job: BackgroundJob) -> Bool {
    let box = Unmanaged<AnyObject>.passRetained(job).toOpaque()
    var thread = pthread_t()
    guard pthread_create(&thread, nil, backgroundThreadEntry, box) == 0 else {
        Unmanaged<AnyObject>.fromOpaque(box).release()
        return false
    }
    pthread_detach(thread)
    return true
}

private func backgroundThreadEntry(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let raw, let job = Unmanaged<AnyObject>.fromOpaque(raw).takeRetainedValue() as? BackgroundJob else { return nil }
    job.run()
    return nil
}
