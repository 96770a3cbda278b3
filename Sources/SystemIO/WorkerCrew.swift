#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// A fixed crew of threads that do one job together when asked: `run()`
/// does part 0 on the caller's thread and parts 1..<size on the crew's
/// threads, and returns when every part is done. The threads are made once;
/// between jobs they sleep on a condition variable (a futex), so an idle
/// crew costs no wakeups, and a job costs no allocation: the parts are the
/// one `part` closure given at the start, told their index.
public final class WorkerCrew {
    /// How many parts a job has: the caller's and one per thread.
    public let size: Int
    private let shared: Shared
    private var threads: [pthread_t] = []

    /// Starts `size - 1` threads named `name`-1, -2, …; `part` is called
    /// with each part's index, on that part's thread. It must not call `run`.
    public init(size: Int, name: String, part: @escaping (Int) -> Void) throws(SystemError) {
        precondition(size >= 1 && size <= 64, "a crew of 1 to 64")
        self.size = size
        shared = Shared(part: part)
        for index in 1..<size {
            let start = Unmanaged.passRetained(Start(shared: shared, index: index, name: "\(name)-\(index)")).toOpaque()
            var thread = pthread_t()
            let error = pthread_create(&thread, nil, { raw in
                let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
                start.name.withCString { radar_name_thread($0) }
                start.shared.work(index: start.index)
                return nil
            }, start)
            guard error == 0 else {
                Unmanaged<Start>.fromOpaque(start).release()
                stop()
                throw SystemError("pthread_create", name, code: error)
            }
            threads.append(thread)
        }
    }

    deinit { stop() }

    /// Does every part of the job, part 0 here; returns when all are done.
    public func run() {
        shared.begin(parts: size - 1)
        shared.part(0)
        shared.waitForParts()
    }

    private func stop() {
        shared.stop()
        for thread in threads { pthread_join(thread, nil) }
        threads.removeAll()
    }

    /// What a thread needs to start: the crew's state and its part's index.
    private final class Start {
        let shared: Shared
        let index: Int
        let name: String
        init(shared: Shared, index: Int, name: String) {
            self.shared = shared
            self.index = index
            // The kernel keeps 15 bytes of a thread's name.
            self.name = String(decoding: name.utf8.prefix(15), as: UTF8.self)
        }
    }

    /// The state the caller and the threads share, under one mutex: the
    /// job's number (a thread does a job once, when the number moves on) and
    /// the parts still running.
    private final class Shared: @unchecked Sendable {
        let part: (Int) -> Void
        private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let started = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        private let finished = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        private var job = 0
        private var running = 0
        private var stopping = false

        init(part: @escaping (Int) -> Void) {
            self.part = part
            pthread_mutex_init(lock, nil)
            pthread_cond_init(started, nil)
            pthread_cond_init(finished, nil)
        }

        deinit {
            pthread_cond_destroy(finished)
            pthread_cond_destroy(started)
            pthread_mutex_destroy(lock)
            finished.deallocate()
            started.deallocate()
            lock.deallocate()
        }

        func begin(parts: Int) {
            pthread_mutex_lock(lock)
            job &+= 1
            running = parts
            pthread_cond_broadcast(started)
            pthread_mutex_unlock(lock)
        }

        func waitForParts() {
            pthread_mutex_lock(lock)
            while running > 0 { pthread_cond_wait(finished, lock) }
            pthread_mutex_unlock(lock)
        }

        func stop() {
            pthread_mutex_lock(lock)
            stopping = true
            pthread_cond_broadcast(started)
            pthread_mutex_unlock(lock)
        }

        /// A thread's life: wait for a job, do its part, say so; until stopped.
        func work(index: Int) {
            pthread_mutex_lock(lock)
            // Jobs are counted from the crew's start, not from this thread's:
            // a job begun before the thread first ran is still its to do.
            var done = 0
            while true {
                while job == done && !stopping { pthread_cond_wait(started, lock) }
                if stopping { break }
                done = job
                pthread_mutex_unlock(lock)
                part(index)
                pthread_mutex_lock(lock)
                running -= 1
                if running == 0 { pthread_cond_signal(finished) }
            }
            pthread_mutex_unlock(lock)
        }
    }
}
