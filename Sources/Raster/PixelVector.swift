/// Eight pixels at a time: the same arithmetic as `PixelMath`, in 32-bit lanes.
///
/// Pixels stay packed, red and blue in one pair of 16-bit halves, alpha and
/// green in the other, as the scalar code does. Widening bytes to 16-bit lanes
/// instead made the compiler call out of the loop for every conversion.
public enum PixelVector {
    public typealias Pixels = SIMD8<UInt32>

    /// Each channel of each pixel times its lane of `alpha / 255`, rounded.
    @inlinable @inline(__always)
    public static func scale(_ pixels: SIMD8<UInt32>, by alpha: SIMD8<UInt32>) -> SIMD8<UInt32> {
        unsafeBitCast(scaleChannels(unsafeBitCast(pixels, to: SIMD16<UInt16>.self),
                                    by: unsafeBitCast(alpha | alpha &<< 16, to: SIMD16<UInt16>.self)), to: SIMD8<UInt32>.self)
    }

    /// The four-lane `scale`, for runs' last four pixels and four-cell groups.
    @inlinable @inline(__always)
    public static func scale(_ pixels: SIMD4<UInt32>, by alpha: SIMD4<UInt32>) -> SIMD4<UInt32> {
        unsafeBitCast(scaleChannels(unsafeBitCast(pixels, to: SIMD8<UInt16>.self),
                                    by: unsafeBitCast(alpha | alpha &<< 16, to: SIMD8<UInt16>.self)), to: SIMD4<UInt32>.self)
    }

    /// `PixelMath.scale` in 16-bit lanes, two per pixel: blue and green in
    /// one, red and alpha in the other, `alpha` repeated in both. Every
    /// product fits 16 bits, and 16-bit multiplies are one instruction on
    /// SSE2, NEON and AVX2 alike; 32-bit lanes needed SSE4.1's slow `pmulld`
    /// or, in a generic x86-64 build, two `pmuludq` and four shuffles.
    @inlinable @inline(__always)
    static func scaleChannels<V: SIMD>(_ channels: V, by alpha: V) -> V where V.Scalar == UInt16 {
        let low = V(repeating: 0x00FF), half = V(repeating: 0x0080)
        var blueRed = (channels & low) &* alpha &+ half
        blueRed = (blueRed &+ (blueRed &>> 8)) &>> 8
        var greenAlpha = (channels &>> 8) &* alpha &+ half
        greenAlpha = (greenAlpha &+ (greenAlpha &>> 8)) & ~low
        return blueRed | greenAlpha
    }

    /// Source-over of premultiplied pixels, lane by lane.
    @inlinable @inline(__always)
    public static func sourceOver(_ source: SIMD8<UInt32>, _ destination: SIMD8<UInt32>) -> SIMD8<UInt32> {
        source &+ scale(destination, by: SIMD8(repeating: 255) &- (source &>> 24))
    }

    /// The four-lane `sourceOver`.
    @inlinable @inline(__always)
    public static func sourceOver(_ source: SIMD4<UInt32>, _ destination: SIMD4<UInt32>) -> SIMD4<UInt32> {
        source &+ scale(destination, by: SIMD4(repeating: 255) &- (source &>> 24))
    }

    /// Eight coverage bytes, one per lane.
    @inlinable @inline(__always)
    public static func coverage(_ bytes: UnsafePointer<UInt8>) -> Pixels {
        Pixels(truncatingIfNeeded: UnsafeRawPointer(bytes).loadUnaligned(as: SIMD8<UInt8>.self))
    }

    @inlinable @inline(__always)
    static func load(_ p: UnsafePointer<UInt32>) -> Pixels {
        UnsafeRawPointer(p).loadUnaligned(as: Pixels.self)
    }

    @inlinable @inline(__always)
    static func store(_ v: Pixels, _ p: UnsafeMutablePointer<UInt32>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: Pixels.self)
    }

    /// Whether every lane is zero (vector `==` compiles to a loop over lanes here).
    @inlinable @inline(__always)
    static func isZero(_ v: Pixels) -> Bool {
        let q = unsafeBitCast(v, to: (UInt64, UInt64, UInt64, UInt64).self)
        return q.0 | q.1 | q.2 | q.3 == 0
    }

    /// Whether two vectors are equal in every lane.
    @inlinable @inline(__always)
    static func equal(_ a: Pixels, _ b: Pixels) -> Bool {
        isZero(a ^ b)
    }

    /// Whether all four lanes are zero.
    @inlinable @inline(__always)
    static func isZero(_ v: SIMD4<UInt32>) -> Bool {
        let q = unsafeBitCast(v, to: (UInt64, UInt64).self)
        return q.0 | q.1 == 0
    }

    /// Whether every pixel is opaque.
    @inlinable @inline(__always)
    static func isOpaque(_ v: Pixels) -> Bool {
        let q = unsafeBitCast(v, to: (UInt64, UInt64, UInt64, UInt64).self)
        let alphas: UInt64 = 0xFF00_0000_FF00_0000
        return q.0 & q.1 & q.2 & q.3 & alphas == alphas
    }
}
