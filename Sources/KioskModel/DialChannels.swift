import AnimationCore
#if canImport(Glibc)
import Glibc
#endif

/// The dial's animatable values besides its frame: they ride in the leaf's
/// custom vector, so they glide with the frame on one curve and one clock
/// (the seed's second lesson: the face blends while the one dial moves).
public struct DialChannels: Equatable, Sendable {
    /// 0 = the sweeping face, 100 = the still face with the aircraft marker.
    public var faceBlend: Double
    /// The marker's position east and north of the centre, in percent of the
    /// range: a new aircraft's marker travels in a straight line rather than
    /// swinging round the compass.
    public var markerEast: Double
    public var markerNorth: Double
    /// 100 when an aircraft position is known, 0 when not (the marker fades).
    public var markerPresence: Double

    public init(faceBlend: Double, markerEast: Double = 0, markerNorth: Double = 0, markerPresence: Double = 0) {
        self.faceBlend = faceBlend
        self.markerEast = markerEast
        self.markerNorth = markerNorth
        self.markerPresence = markerPresence
    }

    /// The channels for a face and an aircraft's bearing and distance on a dial of `rangeNM`.
    public init(still: Bool, bearingDegrees: Double?, distanceNM: Double?, rangeNM: Double) {
        let known = bearingDegrees != nil && distanceNM != nil
        let bearing = (bearingDegrees ?? 0) * .pi / 180
        let range = min(max(distanceNM ?? 0, 0) / rangeNM, 1)
        self.init(faceBlend: still ? 100 : 0, markerEast: sin(bearing) * range * 100, markerNorth: cos(bearing) * range * 100,
                  markerPresence: known ? 100 : 0)
    }

    /// Read back from a sampled leaf's custom vector.
    public init(_ custom: AnimatableRect) {
        self.init(faceBlend: custom.x, markerEast: custom.y, markerNorth: custom.width, markerPresence: custom.height)
    }

    /// As the leaf's custom vector.
    public var animatable: AnimatableRect {
        AnimatableRect(x: faceBlend, y: markerEast, width: markerNorth, height: markerPresence)
    }

    /// The still face's share, 0...1.
    public var stillness: Double { min(max(faceBlend / 100, 0), 1) }

    /// The marker's bearing in degrees and range as a share of the dial's (0...1).
    public var marker: (bearingDegrees: Double, range: Double, opacity: Double) {
        let east = markerEast / 100, north = markerNorth / 100
        return (atan2(east, north) * 180 / .pi, min((east * east + north * north).squareRoot(), 1),
                stillness * min(max(markerPresence / 100, 0), 1))
    }
}
