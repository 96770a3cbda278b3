/// How far a leaf is through its insertion or removal: 0 at identity, 1 in the
/// transition's active state.
///
/// A transition whose parts carry their own animations (§5.4), such as
/// `.opacity.animation(.easeIn).combined(with: .scale.animation(.spring))`,
/// runs each part on its own curve and clock: one amount per animated part, up
/// to `maximumParts`, and one for everything else. With at most one animated
/// part the whole transition runs on that part's animation, as before.
struct TransitionProgress {
    static let maximumParts = 4

    private var rest: AnimatedValue<Double>
    private var parts: [AnimatedValue<Double>] = []
    /// Each part's amount at the last `sample`; lanes past `parts.count` are unused.
    private(set) var partAmounts = SIMD4<Double>(repeating: 0)
    private(set) var amount: Double

    init(_ value: Double) {
        rest = AnimatedValue(value)
        amount = value
    }

    var isAnimating: Bool { rest.isAnimating || parts.contains { $0.isAnimating } }

    /// Whether the parts run on their own clocks (the effect needs `partAmounts`).
    var isSplit: Bool { !parts.isEmpty }

    /// Moves toward `target` (0 in, 1 out) for `transition`'s `inserting` phase;
    /// `fallback` animates what has no animation of its own.
    mutating func set(_ target: Double, transition: Transition, inserting: Bool, fallback: Animation?, at time: Double) {
        let own = transition.ownAnimations(inserting: inserting)
        if own.count < 2 {
            if !parts.isEmpty {
                // Back to one clock: continue from where the parts have got to.
                rest = AnimatedValue(amount)
                parts.removeAll()
            }
            rest.set(target, animation: own.first ?? fallback, at: time)
            return
        }
        if parts.count != min(own.count, Self.maximumParts) {
            parts = Array(repeating: AnimatedValue(amount), count: min(own.count, Self.maximumParts))
        }
        rest.set(target, animation: fallback, at: time)
        for k in parts.indices { parts[k].set(target, animation: own[k], at: time) }
    }

    /// Advances every amount to `time`.
    mutating func sample(at time: Double) {
        amount = rest.value(at: time)
        for k in parts.indices { partAmounts[k] = parts[k].value(at: time) }
    }
}
