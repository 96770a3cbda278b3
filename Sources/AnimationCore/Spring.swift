#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A damped spring described three ways, with SwiftUI's conversions between
/// them (§3.2) and its closed-form motion (§3.3).
public struct Spring: Hashable, Sendable {
    public let mass: Double
    public let stiffness: Double
    public let damping: Double

    public init(mass: Double = 1, stiffness: Double, damping: Double) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
    }

    /// `response` is the undamped period; `dampingFraction` is ζ.
    public init(response: Double, dampingFraction: Double) {
        let k = pow(2 * .pi / response, 2)
        self.init(mass: 1, stiffness: k, damping: 4 * .pi * dampingFraction / response)
    }

    /// Bounce 0 is critically damped, towards 1 undamped, below 0 overdamped.
    public init(duration: Double = 0.5, bounce: Double = 0) {
        self.init(response: duration, dampingFraction: Spring.dampingFraction(bounce: bounce))
    }

    public static func dampingFraction(bounce: Double) -> Double {
        bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
    }

    public var response: Double { 2 * .pi / (stiffness / mass).squareRoot() }
    public var dampingFraction: Double { damping / (2 * (stiffness * mass).squareRoot()) }
    public var duration: Double { response }
    public var bounce: Double {
        let z = dampingFraction
        return z <= 1 ? 1 - z : 1 / z - 1
    }

    /// The fraction of a 0 → 1 move covered at time `t`, starting with velocity `v0`
    /// (fractions per second). With `criticalForOverdamped`, every ζ ≥ 1 uses the
    /// critical formula, as SwiftUI's interpolating spring does (§3.3, quirk).
    public func value(at t: Double, initialVelocity v0: Double = 0, criticalForOverdamped: Bool = false) -> Double {
        let w0 = (stiffness / mass).squareRoot()
        let z = dampingFraction
        if z < 1 {
            let lambda = z * w0
            let wd = w0 * (1 - z * z).squareRoot()
            return 1 - exp(-lambda * t) * (cos(wd * t) + ((lambda - v0) / wd) * sin(wd * t))
        }
        if z == 1 || criticalForOverdamped {
            return 1 - exp(-w0 * t) * (1 + (w0 - v0) * t)
        }
        let root = (z * z - 1).squareRoot()
        let r1 = -w0 * (z - root), r2 = -w0 * (z + root)
        let c2 = (v0 + r1) / (r2 - r1)
        let c1 = -1 - c2
        return 1 + c1 * exp(r1 * t) + c2 * exp(r2 * t)
    }

    /// Velocity of `value(at:)`, by a central difference.
    public func velocity(at t: Double, initialVelocity v0: Double = 0) -> Double {
        let h = 1e-6
        return (value(at: t + h, initialVelocity: v0) - value(at: max(t - h, 0), initialVelocity: v0)) / (t < h ? h : 2 * h)
    }

    /// How long until the motion stays within ε = 0.001 of its target (§3.3).
    public var settlingDuration: Double {
        let epsilon = 0.001
        let w0 = (stiffness / mass).squareRoot()
        let z = dampingFraction
        if z < 1 {
            let lambda = z * w0
            return -log(epsilon / (abs(lambda) + 1)) / lambda
        }
        var lastOutside = 0.0
        for i in 0..<1024 {
            let t = Double(i) * 0.1
            if abs(1 - value(at: t)) >= epsilon { lastOutside = t }
            if t - lastOutside > 1 { break }
        }
        return lastOutside + 0.1
    }
}
