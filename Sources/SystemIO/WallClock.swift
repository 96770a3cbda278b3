#if canImport(Glibc)
import Glibc
#endif

/// The calendar: seconds since the epoch (CLOCK_REALTIME) and the local
/// day they fall on, for records people read ("today's overflights"), never
/// for timing, which is the monotonic clock's.
public enum WallClock {
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// The local date and time of `seconds` since the epoch.
    public static func local(_ seconds: Double) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int) {
        var t = time_t(seconds.rounded(.down))
        var parts = tm()
        localtime_r(&t, &parts)
        return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min))
    }

    /// Seconds since the epoch of `minutes` after local midnight on a day
    /// (mktime: summer time decided by the time zone).
    public static func moment(year: Int, month: Int, day: Int, minutes: Int) -> Double {
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(minutes / 60)
        parts.tm_min = Int32(minutes % 60)
        parts.tm_isdst = -1
        return Double(mktime(&parts))
    }

    /// "2026-12-01", the local day of `seconds`.
    public static func day(_ seconds: Double) -> String {
        let d = local(seconds)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(d.year)-\(two(d.month))-\(two(d.day))"
    }

    /// Whether `text` is a YYYY-MM-DD date.
    public static func isDay(_ text: String) -> Bool {
        let parts = text.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let m = Int(parts[1]), let d = Int(parts[2]), Int(parts[0]) != nil else { return false }
        return (1...12).contains(m) && (1...31).contains(d)
    }
}
