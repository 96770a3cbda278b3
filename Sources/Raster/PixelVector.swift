/// Eight pixels at a time: the same arithmetic as `PixelMath`, in 32-bit lanes.
///
/// Pixels stay packed, red and blue in one pair of 16-bit halves, alpha and
/// green in the other, as the scalar code does. Widening bytes to 16-bit lanes
/// instead made the compiler call out of the loop for every conversion.
public enum PixelVector {
    public typealias Pixels = SIMD8<UInt32>

    /// Each channel of each pixel times its lane of `alpha / 255`, rounded.
    /// Generic so that runs' last four pixels can use four lanes.
    @inlinable @inline(__always)
    public static func scale<V: SIMD>(_ pixels: V, by alpha: V) -> V where V.Scalar == UInt32 {
        let mask = V(repeating: 0x00FF_00FF), half = V(repeating: 0x0080_0080)
        var rb = (pixels & mask) &* alpha &+ half
        rb = ((rb &+ ((rb &>> 8) & mask)) &>> 8) & mask
        var ag = ((pixels &>> 8) & mask) &* alpha &+ half
        ag = (ag &+ ((ag &>> 8) & mask)) & ~mask
        return rb | ag
    }

    /// Source-over of premultiplied pixels, lane by lane.
    @inlinable @inline(__always)
    public static func sourceOver<V: SIMD>(_ source: V, _ destination: V) -> V where V.Scalar == UInt32 {
        source &+ scale(destination, by: V(repeating: 255) &- (source &>> 24))
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
