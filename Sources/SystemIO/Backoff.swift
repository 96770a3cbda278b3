/// When to try a peer again after it failed: the first delay, doubled for
/// each failure in a row up to the longest; a success starts it over. The
/// one rule the receiver's TCP feed, the MQTT broker and the web feeds
/// reconnect by, so that none of them hammers a peer that is down.
public struct Backoff: Sendable {
    /// The delay after one failure, seconds.
    public var first: Double
    /// The delay never exceeds this, seconds.
    public var longest: Double
    public private(set) var failuresInARow = 0
    /// When the next attempt is due (the loop's seconds); set directly for a
    /// wait that is not a failure's (a polling interval, a server's Retry-After).
    public var due = 0.0

    public init(first: Double, longest: Double) {
        self.first = first
        self.longest = longest
    }

    /// The delay after `failuresInARow` failures: `first` doubled for each after the first, at most `longest`.
    public static func delay(first: Double, longest: Double, failuresInARow: Int) -> Double {
        let doublings = min(max(failuresInARow - 1, 0), 30)
        return min(first * Double(1 << doublings), longest)
    }

    /// Whether the next attempt is due at `now`.
    public func isDue(at now: Double) -> Bool { now >= due }

    /// A failure at `now`: the next attempt after the backoff's delay, or after `wait` when the peer said how long.
    public mutating func failed(at now: Double, wait: Double? = nil) {
        failuresInARow += 1
        due = now + (wait ?? Self.delay(first: first, longest: longest, failuresInARow: failuresInARow))
    }

    /// A success: the next failure waits `first` again.
    public mutating func succeeded() { failuresInARow = 0 }
}
