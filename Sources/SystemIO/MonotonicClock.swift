#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_MONOTONIC in seconds: the clock of frame pacing, DRM flip stamps,
/// feed ages and benchmarks. It never jumps when the wall clock is set.
public enum MonotonicClock {
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// CPU time of the calling thread, for budgets that must not count preemption.
    public static func threadCPUTime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// CPU time of the whole process (user and system).
    public static func processCPUTime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
