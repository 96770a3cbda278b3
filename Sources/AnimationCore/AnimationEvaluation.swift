/// Per-run state of an animation: the spring integrator and the repeat cycle.
struct AnimationRunState<V: VectorArithmetic> {
    // 1/300 s velocity-Verlet integrator (§3.4), in units of Δ.
    var x: V = .zero
    var v: V = .zero
    var a: V = .zero
    /// The integrator's grid time, advanced by adding 1/300 s per step: the same
    /// floating-point operations as the reference, so results agree exactly.
    var gridTime = 0.0
    // Response blending after a merge into a spring with a different response.
    var blendFrom: Double? = nil
    var blendStart = 0.0
    var blendDuration = 0.0
    // Repeat bookkeeping for animations without a fixed duration.
    var cycle = 0
    var cycleStart = 0.0

    mutating func resetSpring() {
        x = .zero; v = .zero; a = .zero; gridTime = 0
    }
}

extension Animation {
    static let springStep = 1.0 / 300
    static let stiffnessCap = 45_000.0

    /// The part of `delta` covered `t` seconds after the run began, or nil once finished.
    static func evaluate<V: VectorArithmetic>(_ kind: Kind, delta: V, time t: Double, state: inout AnimationRunState<V>) -> V? {
        switch kind {
        case let .bezier(d, curve):
            if d <= 0 || t > d { return nil }
            return delta.scaled(by: curve.value(at: t / d))
        case let .fluidSpring(response, zeta, _):
            return integrate(response: response, dampingFraction: zeta, delta: delta, time: t, state: &state)
        case let .interpolatingSpring(spring, v0):
            if t >= spring.settlingDuration { return nil }
            return delta.scaled(by: spring.value(at: max(t, 0), initialVelocity: v0, criticalForOverdamped: true))
        case let .delay(d, inner):
            return evaluate(inner, delta: delta, time: max(0, t - d), state: &state)
        case let .speed(s, inner):
            return evaluate(inner, delta: delta, time: t * s, state: &state)
        case let .logicallyComplete(_, inner):
            return evaluate(inner, delta: delta, time: t, state: &state)
        case let .repeating(count, autoreverses, inner):
            if let d = duration(of: inner) {
                if d <= 0 { return nil }
                let cycle = Int((t / d).rounded(.down))
                if let n = count, cycle >= n { return nil }
                let local = t - Double(cycle) * d
                let value = evaluate(inner, delta: delta, time: local, state: &state) ?? delta
                return autoreverses && cycle % 2 == 1 ? delta - value : value
            }
            // Without a fixed duration the next cycle starts at the frame where
            // the previous one finished (§2.5).
            while true {
                if let n = count, state.cycle >= n { return nil }
                if let value = evaluate(inner, delta: delta, time: t - state.cycleStart, state: &state) {
                    return autoreverses && state.cycle % 2 == 1 ? delta - value : value
                }
                state.cycle += 1
                state.cycleStart = t
                state.resetSpring()
                if let n = count, state.cycle >= n { return nil }
                return autoreverses && state.cycle % 2 == 1 ? delta : .zero
            }
        }
    }

    /// SwiftUI's spring: a fixed 1/300 s grid, state starting at rest (a = 0),
    /// finished once slow, unaccelerated and within 1 % of Δ.
    static func integrate<V: VectorArithmetic>(response: Double, dampingFraction zeta: Double, delta: V, time t: Double,
                                               state s: inout AnimationRunState<V>) -> V? {
        var r = response
        if let from = s.blendFrom, s.blendDuration > 0 {
            let p = min(max((t - s.blendStart) / s.blendDuration, 0), 1)
            r = response + (from - response) * (1 - p * p * (3 - 2 * p))
        }
        let k = r > 0 ? min(pow2(2 * .pi / r), stiffnessCap) : stiffnessCap
        let c = 2 * k.squareRoot() * zeta
        let h = springStep
        // Stall guard: after a gap over 1 s, jump to t - 1/60 without catching up.
        if t - s.gridTime > 1 { s.gridTime = t - 1.0 / 60 }
        while s.gridTime < t {
            let vh = s.a.scaled(by: 1.0 / 600) + s.v
            s.x = s.x + vh.scaled(by: h)
            s.a = vh.scaled(by: -c) + (delta - s.x).scaled(by: k)
            s.v = s.a.scaled(by: 1.0 / 600) + vh
            s.gridTime += h
        }
        if max(s.v.magnitudeSquared, s.a.magnitudeSquared) > 0.0036 { return s.x }
        let tolerance = 1e-4 * delta.magnitudeSquared
        if tolerance > 0 && tolerance < (delta - s.x).magnitudeSquared { return s.x }
        return nil
    }

    /// When the animation counts as logically complete (§2.2): a spring at its
    /// response, a timing curve at its end, or as `logicallyComplete(after:)` says.
    static func logicalDuration(of kind: Kind) -> Double? {
        switch kind {
        case let .bezier(d, _): return d
        case let .fluidSpring(r, _, _): return r
        case let .interpolatingSpring(s, _): return s.settlingDuration
        case let .delay(d, k): return logicalDuration(of: k).map { $0 + d }
        case let .speed(s, k): return logicalDuration(of: k).map { s > 0 ? $0 / s : 0 }
        case let .repeating(n, _, k): return n == nil ? nil : logicalDuration(of: k).map { $0 * Double(n!) }
        case let .logicallyComplete(after, _): return after
        }
    }
}

@inline(__always) func pow2(_ x: Double) -> Double { x * x }

/// One animatable attribute: its model value and the animations carrying its
/// presentation there. A new change merges into a running spring (position and
/// velocity carry over) and combines with anything else (§3.6).
public struct AnimatedValue<V: VectorArithmetic> {
    struct Run {
        var animation: Animation
        var begin: Double
        var target: V
        var state = AnimationRunState<V>()
        var finished = false
        /// The presentation up to and including this run at the last `value(at:)`.
        var presentation: V?
    }

    /// Combined animations kept running at most. Each covers the gap left by
    /// those before it, so a chain of springs passes their overshoot on, and a
    /// value retargeted every frame (a flood of commands) grew without bound:
    /// past this many, the oldest is settled where it was last shown.
    static var maximumCombined: Int { 8 }

    public private(set) var model: V
    /// Where the oldest running animation started.
    private var base: V
    private var runs: [Run] = []
    private var lastPresentation: V

    public init(_ value: V) {
        model = value
        base = value
        lastPresentation = value
    }

    public var isAnimating: Bool { !runs.isEmpty }

    /// Sets a new model value at `time`, animated by `animation` or at once.
    public mutating func set(_ value: V, animation: Animation?, at time: Double) {
        // An update that leaves this attribute's value alone leaves its running
        // animations alone too, animated or not: only a change moves it.
        if value == model { return }
        guard let animation else {
            runs.removeAll(keepingCapacity: true)
            model = value
            base = value
            lastPresentation = value
            return
        }
        if animation.merges, let last = runs.indices.last, runs[last].animation.merges, !runs[last].finished {
            // Merge: keep x and v, retarget to the combined interval.
            let old = runs[last].animation
            runs[last].target = value
            if case let .fluidSpring(newResponse, _, blend) = animation.kind,
               case let .fluidSpring(oldResponse, _, _) = old.kind, newResponse != oldResponse, blend > 0 {
                runs[last].state.blendFrom = oldResponse
                runs[last].state.blendStart = time - runs[last].begin
                runs[last].state.blendDuration = blend
            }
            runs[last].animation = animation
        } else {
            if runs.isEmpty { base = model }
            if runs.count >= Self.maximumCombined {
                // Settled where it was last shown: the ones after it go on from there.
                base = runs[0].presentation ?? base
                runs.removeFirst()
            }
            runs.append(Run(animation: animation, begin: time, target: value))
        }
        model = value
    }

    /// The presentation value at `time`; advances spring state and drops
    /// animations that have finished.
    public mutating func value(at time: Double) -> V {
        if runs.isEmpty { return model }
        var previous = base
        for i in runs.indices {
            if runs[i].finished {
                previous = runs[i].target
                continue
            }
            let delta = runs[i].target - previous
            if let covered = Animation.evaluate(runs[i].animation.kind, delta: delta, time: time - runs[i].begin, state: &runs[i].state) {
                previous = previous + covered
            } else {
                runs[i].finished = true
                previous = runs[i].target
            }
            runs[i].presentation = previous
        }
        while let first = runs.first, first.finished {
            base = first.target
            runs.removeFirst()
        }
        lastPresentation = runs.isEmpty ? model : previous
        return lastPresentation
    }

    /// The value most recently returned by `value(at:)`.
    public var presentation: V { lastPresentation }

    /// Whether every running animation is logically complete at `time` (§2.2).
    public func isLogicallyComplete(at time: Double) -> Bool {
        runs.allSatisfy { run in
            guard let d = Animation.logicalDuration(of: run.animation.kind) else { return false }
            return time - run.begin >= d
        }
    }
}
