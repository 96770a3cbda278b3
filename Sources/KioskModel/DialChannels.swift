import AnimationCore

/// The dial's animatable values besides its frame: they ride in the leaf's
/// custom vector, so they glide with the frame on one curve and one clock
/// (the seed's second lesson: the face blends while the one dial moves).
/// The aircraft marker is a leaf of its own (the aircraft's), not a channel.
public struct DialChannels: Equatable, Sendable {
    /// 0 = the sweeping face, 100 = the still face.
    public var faceBlend: Double
    /// The compass bearing at the top of the dial (`station.facing_deg`):
    /// the face's labels and ticks turn by it. It changes only at once (a
    /// reload), so it never glides the long way round.
    public var facingDegrees: Double

    public init(faceBlend: Double, facingDegrees: Double = 0) {
        self.faceBlend = faceBlend
        self.facingDegrees = facingDegrees
    }

    /// The channels of a sweeping or a still face.
    public init(still: Bool, facingDegrees: Double = 0) { self.init(faceBlend: still ? 100 : 0, facingDegrees: facingDegrees) }

    /// Read back from a sampled leaf's custom vector.
    public init(_ custom: AnimatableRect) { self.init(faceBlend: custom.x, facingDegrees: custom.y) }

    /// As the leaf's custom vector.
    public var animatable: AnimatableRect { AnimatableRect(x: faceBlend, y: facingDegrees, width: 0, height: 0) }

    /// The still face's share, 0...1.
    public var stillness: Double { min(max(faceBlend / 100, 0), 1) }

    /// How much of the traffic the still face keeps: enough to see where the
    /// other aircraft are around the one the card shows, faint enough that
    /// its marker is the brightest thing on the dial.
    public static let stillTrafficOpacity = 0.4

    /// The traffic's opacity: whole on the sweeping face, dimmed on the still one.
    public var trafficOpacity: Double { 1 - stillness * (1 - Self.stillTrafficOpacity) }
}
