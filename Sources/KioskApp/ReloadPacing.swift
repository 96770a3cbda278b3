/// At most one configuration reload a second, however many SIGHUPs come: a
/// reload reads and parses the file on the loop, and a storm of them (a
/// script in a loop, a flapping network hook) must not hold it. A SIGHUP
/// within the second is not lost: it is one reload when the second is up,
/// so the last edit always takes effect.
struct ReloadPacing {
    static let interval = 1.0
    private var last = -Double.infinity
    private var pending = false

    /// A SIGHUP at `now`: whether to reload now (else one is owed).
    mutating func requested(at now: Double) -> Bool {
        if now - last >= Self.interval {
            last = now
            pending = false
            return true
        }
        pending = true
        return false
    }

    /// When the reload owed is due, if one is.
    var nextWake: Double? { pending ? last + Self.interval : nil }

    /// Whether the reload owed is due at `now` (it is then taken).
    mutating func due(at now: Double) -> Bool {
        guard pending, now >= last + Self.interval else { return false }
        last = now
        pending = false
        return true
    }
}
