/// How a value travels from its old to its new model value: a timing curve, a
/// spring, and the modifiers delay, speed, repeat and logical completion (§2.5, §3).
public struct Animation: Hashable, Sendable {
    indirect enum Kind: Hashable, Sendable {
        case bezier(duration: Double, curve: UnitCurve)
        /// SwiftUI's `.spring` family, run by a 1/300 s integrator (§3.4).
        case fluidSpring(response: Double, dampingFraction: Double, blendDuration: Double)
        /// The closed-form spring of `interpolatingSpring` (§3.5); combines instead of merging.
        case interpolatingSpring(Spring, initialVelocity: Double)
        case delay(Double, Kind)
        case speed(Double, Kind)
        case repeating(count: Int?, autoreverses: Bool, Kind)
        case logicallyComplete(after: Double, Kind)
    }

    let kind: Kind

    init(_ kind: Kind) { self.kind = kind }

    // MARK: Timing curves

    public static func timingCurve(_ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double, duration: Double = 0.35) -> Animation {
        Animation(.bezier(duration: duration, curve: UnitCurve(p1x, p1y, p2x, p2y)))
    }
    public static func linear(duration: Double) -> Animation { Animation(.bezier(duration: duration, curve: .linear)) }
    public static func easeIn(duration: Double) -> Animation { Animation(.bezier(duration: duration, curve: .easeIn)) }
    public static func easeOut(duration: Double) -> Animation { Animation(.bezier(duration: duration, curve: .easeOut)) }
    public static func easeInOut(duration: Double) -> Animation { Animation(.bezier(duration: duration, curve: .easeInOut)) }
    public static let linear = linear(duration: 0.35)
    public static let easeIn = easeIn(duration: 0.35)
    public static let easeOut = easeOut(duration: 0.35)
    public static let easeInOut = easeInOut(duration: 0.35)

    // MARK: Springs

    public static func spring(response: Double = 0.5, dampingFraction: Double = 0.825, blendDuration: Double = 0) -> Animation {
        Animation(.fluidSpring(response: response, dampingFraction: dampingFraction, blendDuration: blendDuration))
    }
    public static func spring(duration: Double = 0.5, bounce: Double = 0, blendDuration: Double = 0) -> Animation {
        spring(response: duration, dampingFraction: Spring.dampingFraction(bounce: bounce), blendDuration: blendDuration)
    }
    public static let spring = spring(duration: 0.5, bounce: 0)
    public static func smooth(duration: Double = 0.5, extraBounce: Double = 0) -> Animation { spring(duration: duration, bounce: extraBounce) }
    public static func snappy(duration: Double = 0.5, extraBounce: Double = 0) -> Animation { spring(duration: duration, bounce: 0.15 + extraBounce) }
    public static func bouncy(duration: Double = 0.5, extraBounce: Double = 0) -> Animation { spring(duration: duration, bounce: 0.3 + extraBounce) }
    public static let smooth = smooth()
    public static let snappy = snappy()
    public static let bouncy = bouncy()
    public static let interactiveSpring = spring(response: 0.15, dampingFraction: 0.86, blendDuration: 0.25)
    /// iOS 17's default, per Apple's documentation: spring(response 0.55, ζ 1) (§3.2).
    public static let `default` = spring(response: 0.55, dampingFraction: 1, blendDuration: 0)

    public static func interpolatingSpring(mass: Double = 1, stiffness: Double, damping: Double, initialVelocity: Double = 0) -> Animation {
        Animation(.interpolatingSpring(Spring(mass: mass, stiffness: stiffness, damping: damping), initialVelocity: initialVelocity))
    }
    public static func interpolatingSpring(duration: Double = 0.5, bounce: Double = 0, initialVelocity: Double = 0) -> Animation {
        Animation(.interpolatingSpring(Spring(duration: duration, bounce: bounce), initialVelocity: initialVelocity))
    }

    // MARK: Modifiers

    /// Holds the start value for `seconds`, then runs.
    public func delay(_ seconds: Double) -> Animation { Animation(.delay(seconds, kind)) }
    /// Runs `factor` times as fast (a delay inside is scaled too).
    public func speed(_ factor: Double) -> Animation { Animation(.speed(factor, kind)) }
    public func repeatCount(_ count: Int, autoreverses: Bool = true) -> Animation {
        Animation(.repeating(count: count, autoreverses: autoreverses, kind))
    }
    public func repeatForever(autoreverses: Bool = true) -> Animation {
        Animation(.repeating(count: nil, autoreverses: autoreverses, kind))
    }
    public func logicallyComplete(after seconds: Double) -> Animation { Animation(.logicallyComplete(after: seconds, kind)) }

    /// Whether a new change on a running attribute merges into it (springs) or
    /// combines with it (everything else) (§3.6).
    var merges: Bool {
        if case .fluidSpring = kind { return true }
        return false
    }

    /// The duration when it is known in advance (timing curves and their modifiers).
    var fixedDuration: Double? { Animation.duration(of: kind) }

    static func duration(of kind: Kind) -> Double? {
        switch kind {
        case let .bezier(d, _): return max(d, 0)
        case .fluidSpring, .interpolatingSpring: return nil
        case let .delay(d, k): return duration(of: k).map { $0 + d }
        case let .speed(s, k): return duration(of: k).map { s > 0 ? $0 / s : 0 }
        case let .repeating(count, reverses, k):
            guard let n = count, let d = duration(of: k) else { return nil }
            _ = reverses
            return d * Double(n)
        case let .logicallyComplete(_, k): return duration(of: k)
        }
    }
}
