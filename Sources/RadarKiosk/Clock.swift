#if canImport(Glibc)
import Glibc
#endif

/// Monotonic time in seconds, for frame pacing and benchmarks.
public enum MonotonicClock {
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
