/// Premultiplied 8-bit pixel arithmetic. Every product is rounded exactly:
/// `(t + (t >> 8)) >> 8` with `t = x·a + 128` equals `round(x·a / 255)` for all
/// 8-bit x and a, so source-over matches the exact formula.
public enum PixelMath {
    /// Each channel of `pixel` times `alpha / 255`, rounded.
    @inlinable @inline(__always)
    public static func scale(_ pixel: UInt32, by alpha: UInt32) -> UInt32 {
        var rb = (pixel & 0x00FF_00FF) &* alpha &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var ag = ((pixel >> 8) & 0x00FF_00FF) &* alpha &+ 0x0080_0080
        ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return rb | ag
    }

    /// Porter-Duff source-over of premultiplied pixels.
    @inlinable @inline(__always)
    public static func sourceOver(_ source: UInt32, _ destination: UInt32) -> UInt32 {
        source &+ scale(destination, by: 255 &- (source >> 24))
    }

    /// `(a · b) / 255`, rounded, for a and b in 0...255.
    @inlinable @inline(__always)
    public static func multiply(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let t = a &* b &+ 128
        return (t &+ (t >> 8)) >> 8
    }
}

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

    /// Whether every pixel is opaque.
    @inlinable @inline(__always)
    static func isOpaque(_ v: Pixels) -> Bool {
        let q = unsafeBitCast(v, to: (UInt64, UInt64, UInt64, UInt64).self)
        let alphas: UInt64 = 0xFF00_0000_FF00_0000
        return q.0 & q.1 & q.2 & q.3 & alphas == alphas
    }
}

/// Span compositing loops, eight pixels per step.
public enum SpanCompositor {
    /// Blends one premultiplied colour over `count` pixels.
    @inlinable
    public static func blendSolid(_ p: UnsafeMutablePointer<UInt32>, count: Int, source: UInt32) {
        let alpha = source >> 24
        if alpha == 255 { p.update(repeating: source, count: count); return }
        if alpha == 0 && source == 0 { return }
        let inverse = PixelVector.Pixels(repeating: 255 - alpha), src = PixelVector.Pixels(repeating: source)
        var i = 0
        while i + 8 <= count {
            PixelVector.store(src &+ PixelVector.scale(PixelVector.load(p + i), by: inverse), p + i)
            i += 8
        }
        while i < count {
            p[i] = PixelMath.sourceOver(source, p[i])
            i += 1
        }
    }

    /// Blends `count` premultiplied source pixels, each scaled by `coverage`
    /// (0...255), over the destination.
    @inlinable
    public static func blend(_ p: UnsafeMutablePointer<UInt32>, source s: UnsafePointer<UInt32>, count: Int, coverage: UInt32) {
        var i = 0
        if coverage == 255 {
            while i + 8 <= count {
                let sv = PixelVector.load(s + i)
                if PixelVector.isOpaque(sv) {
                    PixelVector.store(sv, p + i)
                } else if !PixelVector.isZero(sv) {
                    PixelVector.store(PixelVector.sourceOver(sv, PixelVector.load(p + i)), p + i)
                }
                i += 8
            }
            while i < count {
                p[i] = PixelMath.sourceOver(s[i], p[i])
                i += 1
            }
        } else {
            let c = PixelVector.Pixels(repeating: coverage)
            while i + 8 <= count {
                let sv = PixelVector.scale(PixelVector.load(s + i), by: c)
                PixelVector.store(PixelVector.sourceOver(sv, PixelVector.load(p + i)), p + i)
                i += 8
            }
            while i < count {
                p[i] = PixelMath.sourceOver(PixelMath.scale(s[i], by: coverage), p[i])
                i += 1
            }
        }
    }

    /// Blends `source` over `count` pixels, each scaled by its own coverage
    /// (0...255): the result of `sourceOver(scale(source, by: c), p)` per pixel.
    ///
    /// No branch on single coverage values: along an antialiased edge they
    /// change from pixel to pixel and defeat a predictor. Only a group of eight
    /// zeros is skipped.
    @inlinable
    public static func blendSolid(_ p: UnsafeMutablePointer<UInt32>, count: Int, source: UInt32, coverage: UnsafePointer<UInt8>) {
        let src = PixelVector.Pixels(repeating: source)
        var i = 0
        while i + 8 <= count {
            let c = PixelVector.coverage(coverage + i)
            if !PixelVector.isZero(c) {
                PixelVector.store(PixelVector.sourceOver(PixelVector.scale(src, by: c), PixelVector.load(p + i)), p + i)
            }
            i += 8
        }
        // Runs come in whole groups of four cells: their last four in four lanes.
        if i + 4 <= count {
            let bytes = UnsafeRawPointer(coverage + i).loadUnaligned(as: SIMD4<UInt8>.self)
            if unsafeBitCast(bytes, to: UInt32.self) != 0 {
                let c = SIMD4<UInt32>(truncatingIfNeeded: bytes)
                let raw = UnsafeMutableRawPointer(p + i)
                let d = raw.loadUnaligned(as: SIMD4<UInt32>.self)
                raw.storeBytes(of: PixelVector.sourceOver(PixelVector.scale(SIMD4(repeating: source), by: c), d), as: SIMD4<UInt32>.self)
            }
            i += 4
        }
        while i < count {
            let c = UInt32(coverage[i])
            if c != 0 { p[i] = PixelMath.sourceOver(PixelMath.scale(source, by: c), p[i]) }
            i += 1
        }
    }

    /// Blends `count` premultiplied source pixels, each scaled by its own
    /// coverage (0...255), over the destination; as `blendSolid(_:count:source:coverage:)`
    /// with a source per pixel.
    @inlinable
    public static func blend(_ p: UnsafeMutablePointer<UInt32>, source: UnsafePointer<UInt32>, count: Int, coverage: UnsafePointer<UInt8>) {
        var i = 0
        while i + 8 <= count {
            let c = PixelVector.coverage(coverage + i)
            if !PixelVector.isZero(c) {
                let sv = PixelVector.scale(PixelVector.load(source + i), by: c)
                PixelVector.store(PixelVector.sourceOver(sv, PixelVector.load(p + i)), p + i)
            }
            i += 8
        }
        if i + 4 <= count {
            let bytes = UnsafeRawPointer(coverage + i).loadUnaligned(as: SIMD4<UInt8>.self)
            if unsafeBitCast(bytes, to: UInt32.self) != 0 {
                let c = SIMD4<UInt32>(truncatingIfNeeded: bytes)
                let raw = UnsafeMutableRawPointer(p + i)
                let sv = PixelVector.scale(UnsafeRawPointer(source + i).loadUnaligned(as: SIMD4<UInt32>.self), by: c)
                raw.storeBytes(of: PixelVector.sourceOver(sv, raw.loadUnaligned(as: SIMD4<UInt32>.self)), as: SIMD4<UInt32>.self)
            }
            i += 4
        }
        while i < count {
            let c = UInt32(coverage[i])
            if c != 0 { p[i] = PixelMath.sourceOver(PixelMath.scale(source[i], by: c), p[i]) }
            i += 1
        }
    }
}
