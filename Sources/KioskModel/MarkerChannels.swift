import AnimationCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The shown aircraft's mark on the dial, besides its place (the leaf's
/// frame): which way its symbol points, its track turned as the dial is.
/// The direction rides as a unit vector, so a track going from 359° to 1°
/// turns the symbol two degrees, not the long way round.
public struct MarkerChannels: Equatable, Sendable {
    /// The symbol's direction on the screen, degrees clockwise from the dial's top; nil without a track.
    public var screenDegrees: Double?

    public init(screenDegrees: Double?) { self.screenDegrees = screenDegrees }

    /// Read back from a sampled leaf's custom vector.
    public init(_ custom: AnimatableRect) {
        screenDegrees = custom.width > 0.5 ? atan2(custom.x, custom.y) * 180 / .pi : nil
    }

    /// As the leaf's custom vector: (sin, cos) of the direction, and whether there is one.
    public var animatable: AnimatableRect {
        guard let screenDegrees else { return AnimatableRect(x: 0, y: 1, width: 0, height: 0) }
        let r = screenDegrees * .pi / 180
        return AnimatableRect(x: sin(r), y: cos(r), width: 1, height: 0)
    }
}
