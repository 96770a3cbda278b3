#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the screen is seen: the size of its pixels and how far away the
/// people who read it stand. Text read across a room is sized by the angle
/// it makes at the eye (arc-minutes), not by pixels: the same card that reads
/// at arm's length on a 7-inch panel is a smudge from the sofa.
public struct ViewingGeometry: Equatable, Sendable {
    /// From the eye to the screen, metres.
    public let distanceMetres: Double
    /// One pixel's side, mm (the mean of its width and height).
    public let pixelPitchMillimetres: Double
    /// The panel's size it was made from, mm, as the picture stands.
    public let panelMillimetres: (width: Double, height: Double)

    public static func == (a: ViewingGeometry, b: ViewingGeometry) -> Bool {
        a.distanceMetres == b.distanceMetres && a.panelMillimetres == b.panelMillimetres && a.pixelPitchMillimetres == b.pixelPitchMillimetres
    }

    /// A panel `widthMM` x `heightMM` showing `width` x `height` pixels, read
    /// from `distanceMetres`; nil when the numbers are not a panel's (a
    /// connector that reports 0 mm, or 1 cm for a 4K mode).
    public init?(distanceMetres: Double, widthMM: Double, heightMM: Double, width: Int, height: Int) {
        guard distanceMetres.isFinite, (Self.plausibleDistance).contains(distanceMetres), width > 0, height > 0,
              widthMM.isFinite, heightMM.isFinite, widthMM > 0, heightMM > 0 else { return nil }
        let pitch = (widthMM / Double(width) + heightMM / Double(height)) / 2
        // A pixel from a phone's (0.05 mm) to a billboard's module (2 mm); square within a third.
        guard (0.04...2.5).contains(pitch), abs(widthMM / Double(width) - heightMM / Double(height)) < pitch / 3 else { return nil }
        self.distanceMetres = distanceMetres
        pixelPitchMillimetres = pitch
        panelMillimetres = (widthMM, heightMM)
    }

    /// Across a living room: the distance the card is sized for unless told.
    public static let defaultDistanceMetres = 2.5

    /// The distances a reader may stand at, metres.
    public static let plausibleDistance = 0.3...20.0

    /// The height in px that makes `arcMinutes` at the reader's eye.
    public func pixels(arcMinutes: Double) -> Double {
        distanceMetres * 1000 * tan(arcMinutes / 60 * .pi / 180) / pixelPitchMillimetres
    }

    /// The angle `pixels` make at the reader's eye, arc-minutes.
    public func arcMinutes(pixels: Double) -> Double {
        atan(pixels * pixelPitchMillimetres / (distanceMetres * 1000)) * 180 / .pi * 60
    }
}
