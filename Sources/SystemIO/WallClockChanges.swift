#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// Tells when the wall clock is set: NTP's first sync on a board without a
/// real-time clock (it boots in 1970 or at the last shutdown), or an
/// administrator's `date -s`. A timerfd on CLOCK_REALTIME is armed years
/// ahead with TFD_TIMER_CANCEL_ON_SET: setting the clock makes it readable,
/// and its read fail with ECANCELED. Schedules by the clock re-read it then.
public final class WallClockChanges {
    public let descriptor: FileDescriptor

    /// Nil where the kernel has no timerfd (it then never says; callers re-check periodically anyway).
    public init?() {
        let fd = timerfd_create(CLOCK_REALTIME, radar_tfd_flags)
        guard fd >= 0 else { return nil }
        descriptor = FileDescriptor(owning: fd)
        guard arm() else { return nil }
    }

    private func arm() -> Bool {
        var spec = itimerspec()
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        spec.it_value.tv_sec = now.tv_sec + 10 * 365 * 86_400
        return timerfd_settime(descriptor.rawValue, radar_tfd_absolute_cancel_on_set, &spec, nil) == 0
    }

    /// Reads what made the descriptor readable and arms it again; true when the clock was set.
    public func consume() -> Bool {
        var expirations: UInt64 = 0
        let n = read(descriptor.rawValue, &expirations, 8)
        let set = n < 0 && errno == ECANCELED
        if set || n == 8 { _ = arm() }
        return set
    }
}
