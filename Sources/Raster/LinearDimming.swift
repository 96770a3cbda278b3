#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A picture dimmed in linear light, for a panel without a backlight: each
/// channel's sRGB value decoded to light, scaled, encoded again. Scaling
/// the encoded values instead (what a multiply does) gives far less light
/// than asked: 30 % of each value is about 7 % of the light.
public struct LinearDimming: Equatable, Sendable {
    /// The fraction of the full picture's light, in (0, 1].
    public let brightness: Double
    /// The dimmed value of each encoded channel value.
    public let table: [UInt8]

    public init(brightness: Double) {
        let b = min(max(brightness.isFinite ? brightness : 1, 0), 1)
        self.brightness = b
        table = (0..<256).map { v in UInt8((Self.encoded(b * Self.decoded(Double(v) / 255)) * 255).rounded()) }
    }

    /// The light of an sRGB channel value, 0...1 (IEC 61966-2-1).
    public static func decoded(_ v: Double) -> Double {
        v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    /// The sRGB channel value of a light, 0...1.
    public static func encoded(_ light: Double) -> Double {
        light <= 0.0031308 ? light * 12.92 : 1.055 * pow(light, 1 / 2.4) - 0.055
    }

    /// The pixel dimmed, alpha kept (opaque frames: premultiplication aside).
    @inlinable
    public func dimmed(_ c: UInt32) -> UInt32 {
        table.withUnsafeBufferPointer { Self.dimmed(c, through: $0) }
    }

    /// Dims every pixel of `rect` (clipped) of `buffer`.
    public func apply(_ rect: IntRect, of buffer: PixelBuffer) {
        let r = rect.intersection(buffer.bounds)
        if r.isEmpty || brightness >= 1 { return }
        table.withUnsafeBufferPointer { t in
            for y in r.y..<r.maxY {
                let p = buffer.row(y) + r.x
                for x in 0..<r.width { p[x] = Self.dimmed(p[x], through: t) }
            }
        }
    }

    @inlinable @inline(__always)
    static func dimmed(_ c: UInt32, through t: UnsafeBufferPointer<UInt8>) -> UInt32 {
        (c & 0xFF00_0000) | UInt32(t[Int((c >> 16) & 0xFF)]) << 16 | UInt32(t[Int((c >> 8) & 0xFF)]) << 8 | UInt32(t[Int(c & 0xFF)])
    }
}
