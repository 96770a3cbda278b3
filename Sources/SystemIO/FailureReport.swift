/// Remembers the last failure reported, so that a source retrying every few
/// seconds logs each kind of failure once rather than once per retry.
public struct FailureReport: Sendable {
    private var last: String?

    public init() {}

    /// True when `message` differs from the failure reported last (report it now).
    public mutating func isNew(_ message: String) -> Bool {
        if last == message { return false }
        last = message
        return true
    }

    /// Whether a failure is standing (reported and not yet cleared).
    public var isFailing: Bool { last != nil }

    /// The source works again: the next failure is news.
    public mutating func clear() { last = nil }
}
