/// An edge of a leaf, for move and push transitions.
public enum Edge: Sendable, Hashable {
    case top, bottom, leading, trailing
}

/// What a transition does to a leaf at a given point of its insertion or removal.
public struct TransitionEffect: Equatable, Sendable {
    public var opacity: Double = 1
    public var offsetX: Double = 0
    public var offsetY: Double = 0
    public var scale: Double = 1

    public static let identity = TransitionEffect()
}

/// How a leaf that comes or goes appears and disappears (§5). The default is `.opacity`.
public indirect enum Transition: Sendable {
    case identity
    case opacity
    case move(Edge)
    case slide
    case push(from: Edge)
    case scale(Double)
    case offset(x: Double, y: Double)
    case combined(Transition, Transition)
    case asymmetric(insertion: Transition, removal: Transition)
    /// The transition's own animation, used in both phases even when the
    /// update itself is not animated (§5.4).
    case animated(Transition, Animation)

    public static let scale = Transition.scale(1e-5)

    public func combined(with other: Transition) -> Transition { .combined(self, other) }
    public func animation(_ animation: Animation) -> Transition { .animated(self, animation) }

    /// Whether this transition moves or scales (Reduce Motion swaps those for opacity).
    public var hasMotion: Bool {
        switch self {
        case .identity, .opacity: return false
        case .move, .slide, .push, .scale, .offset: return true
        case let .combined(a, b): return a.hasMotion || b.hasMotion
        case let .asymmetric(i, r): return i.hasMotion || r.hasMotion
        case let .animated(t, _): return t.hasMotion
        }
    }

    /// Whether the transition does nothing in a phase: a leaf removed with it
    /// has nothing to animate, so it goes at once (§5.5).
    public func isIdentity(inserting: Bool) -> Bool {
        switch self {
        case .identity: return true
        case let .combined(a, b): return a.isIdentity(inserting: inserting) && b.isIdentity(inserting: inserting)
        case let .asymmetric(i, r): return (inserting ? i : r).isIdentity(inserting: inserting)
        case let .animated(t, _): return t.isIdentity(inserting: inserting)
        default: return false
        }
    }

    /// The animation attached to the transition for a phase, if any.
    public func ownAnimation(inserting: Bool) -> Animation? {
        switch self {
        case let .animated(_, a): return a
        case let .combined(a, b): return b.ownAnimation(inserting: inserting) ?? a.ownAnimation(inserting: inserting)
        case let .asymmetric(i, r): return (inserting ? i : r).ownAnimation(inserting: inserting)
        default: return nil
        }
    }

    /// The animations of the phase's parts that carry one, in the order they
    /// are written (`a.combined(with: b)`: a's, then b's).
    public func ownAnimations(inserting: Bool) -> [Animation] {
        switch self {
        case let .animated(_, a): return [a]
        case let .combined(a, b): return a.ownAnimations(inserting: inserting) + b.ownAnimations(inserting: inserting)
        case let .asymmetric(i, r): return (inserting ? i : r).ownAnimations(inserting: inserting)
        default: return []
        }
    }

    /// The effect at `amount` of the way from identity (0) to the active
    /// state (1): where an insertion starts, or a removal ends. With `parts`,
    /// the k-th part that has its own animation is at `parts[k]` instead.
    public func effect(amount: Double, parts: SIMD4<Double>? = nil, inserting: Bool, width: Double, height: Double) -> TransitionEffect {
        var e = TransitionEffect()
        var part = 0
        apply(amount: amount, parts: parts, part: &part, inserting: inserting, width: width, height: height, to: &e)
        return e
    }

    private func apply(amount p: Double, parts: SIMD4<Double>?, part: inout Int, inserting: Bool, width w: Double, height h: Double,
                       to e: inout TransitionEffect) {
        func edgeOffset(_ edge: Edge) -> (Double, Double) {
            switch edge {
            case .top: return (0, -h)
            case .bottom: return (0, h)
            case .leading: return (-w, 0)
            case .trailing: return (w, 0)
            }
        }
        func opposite(_ edge: Edge) -> Edge {
            switch edge {
            case .top: return .bottom
            case .bottom: return .top
            case .leading: return .trailing
            case .trailing: return .leading
            }
        }
        switch self {
        case .identity:
            break
        case .opacity:
            e.opacity *= 1 - p
        case let .move(edge):
            let (dx, dy) = edgeOffset(edge)
            e.offsetX += dx * p; e.offsetY += dy * p
        case .slide:
            let (dx, dy) = edgeOffset(inserting ? .leading : .trailing)
            e.offsetX += dx * p; e.offsetY += dy * p
        case let .push(edge):
            let (dx, dy) = edgeOffset(inserting ? edge : opposite(edge))
            e.offsetX += dx * p; e.offsetY += dy * p
            e.opacity *= 1 - p
        case let .scale(s):
            e.scale *= 1 + (s - 1) * p
        case let .offset(x, y):
            e.offsetX += x * p; e.offsetY += y * p
        case let .combined(a, b):
            a.apply(amount: p, parts: parts, part: &part, inserting: inserting, width: w, height: h, to: &e)
            b.apply(amount: p, parts: parts, part: &part, inserting: inserting, width: w, height: h, to: &e)
        case let .asymmetric(i, r):
            (inserting ? i : r).apply(amount: p, parts: parts, part: &part, inserting: inserting, width: w, height: h, to: &e)
        case let .animated(t, _):
            // This part runs on its own animation's amount; a part inside it has none of its own.
            let own = parts.map { part < TransitionProgress.maximumParts ? $0[part] : p } ?? p
            part += 1
            var inner = -TransitionProgress.maximumParts
            t.apply(amount: own, parts: nil, part: &inner, inserting: inserting, width: w, height: h, to: &e)
        }
    }
}

/// Where a leaf is in its life: inserted, present, or on its way out (§5.1).
public enum TransitionPhase: Int, Sendable {
    case willAppear = -1
    case identity = 0
    case didDisappear = 1
}
