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

/// Span compositing loops, four pixels per step in 16-bit lanes.
public enum SpanCompositor {
    /// Blends one premultiplied colour over `count` pixels.
    @inlinable
    public static func blendSolid(_ p: UnsafeMutablePointer<UInt32>, count: Int, source: UInt32) {
        let alpha = source >> 24
        if alpha == 255 { p.update(repeating: source, count: count); return }
        if alpha == 0 && source == 0 { return }
        let inverse = SIMD16<UInt16>(repeating: UInt16(255 - alpha))
        let src = unsafeBitCast(SIMD4<UInt32>(repeating: source), to: SIMD16<UInt8>.self)
        var i = 0
        while i + 4 <= count {
            let raw = UnsafeMutableRawPointer(p + i)
            let d = SIMD16<UInt16>(truncatingIfNeeded: raw.loadUnaligned(as: SIMD16<UInt8>.self))
            var t = d &* inverse &+ 128
            t = (t &+ (t &>> 8)) &>> 8
            raw.storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: t) &+ src, as: SIMD16<UInt8>.self)
            i += 4
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
            while i + 4 <= count {
                let sv = UnsafeRawPointer(s + i).loadUnaligned(as: SIMD4<UInt32>.self)
                let alphas = sv &>> 24
                if alphas == SIMD4(repeating: 255) {
                    UnsafeMutableRawPointer(p + i).storeBytes(of: sv, as: SIMD4<UInt32>.self)
                } else if sv != .zero {
                    blendFour(p + i, sv, alphas)
                }
                i += 4
            }
            while i < count {
                p[i] = PixelMath.sourceOver(s[i], p[i])
                i += 1
            }
        } else {
            while i < count {
                p[i] = PixelMath.sourceOver(PixelMath.scale(s[i], by: coverage), p[i])
                i += 1
            }
        }
    }

    /// Blends `source` over `count` pixels, each scaled by its own coverage
    /// (0...255): the result of `sourceOver(scale(source, by: c), p)` per pixel.
    ///
    /// Four pixels per step and no branch on the coverage values, which along an
    /// antialiased edge change from pixel to pixel and defeat a predictor.
    @inlinable
    public static func blendSolid(_ p: UnsafeMutablePointer<UInt32>, count: Int, source: UInt32, coverage: UnsafePointer<UInt8>) {
        let src = SIMD16<UInt16>(truncatingIfNeeded: unsafeBitCast(SIMD4<UInt32>(repeating: source), to: SIMD16<UInt8>.self))
        let sourceAlpha = SIMD4<UInt32>(repeating: source >> 24)
        var i = 0
        while i + 4 <= count {
            let covered = UnsafeRawPointer(coverage + i).loadUnaligned(as: SIMD4<UInt8>.self)
            if covered != .zero {
                let c = SIMD4<UInt32>(truncatingIfNeeded: covered)
                // Each pixel's coverage in its four channel lanes.
                let lanes = SIMD16<UInt16>(truncatingIfNeeded: unsafeBitCast(c &* 0x0101_0101, to: SIMD16<UInt8>.self))
                var s = src &* lanes &+ 128
                s = (s &+ (s &>> 8)) &>> 8
                var a = sourceAlpha &* c &+ 128
                a = (a &+ (a &>> 8)) &>> 8
                blendFour(p + i, scaled: s, alphas: a)
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
        while i + 4 <= count {
            let covered = UnsafeRawPointer(coverage + i).loadUnaligned(as: SIMD4<UInt8>.self)
            if covered != .zero {
                let c = SIMD4<UInt32>(truncatingIfNeeded: covered)
                let sv = UnsafeRawPointer(source + i).loadUnaligned(as: SIMD4<UInt32>.self)
                let lanes = SIMD16<UInt16>(truncatingIfNeeded: unsafeBitCast(c &* 0x0101_0101, to: SIMD16<UInt8>.self))
                var s = SIMD16<UInt16>(truncatingIfNeeded: unsafeBitCast(sv, to: SIMD16<UInt8>.self)) &* lanes &+ 128
                s = (s &+ (s &>> 8)) &>> 8
                var a = (sv &>> 24) &* c &+ 128
                a = (a &+ (a &>> 8)) &>> 8
                blendFour(p + i, scaled: s, alphas: a)
            }
            i += 4
        }
        while i < count {
            let c = UInt32(coverage[i])
            if c != 0 { p[i] = PixelMath.sourceOver(PixelMath.scale(source[i], by: c), p[i]) }
            i += 1
        }
    }

    /// Source-over of four pixels whose channels, already scaled, are in 16-bit lanes.
    @inline(__always) @usableFromInline
    static func blendFour(_ p: UnsafeMutablePointer<UInt32>, scaled s: SIMD16<UInt16>, alphas: SIMD4<UInt32>) {
        let inv = (SIMD4<UInt32>(repeating: 255) &- alphas) &* 0x0101_0101
        let inverse = SIMD16<UInt16>(truncatingIfNeeded: unsafeBitCast(inv, to: SIMD16<UInt8>.self))
        let raw = UnsafeMutableRawPointer(p)
        let d = SIMD16<UInt16>(truncatingIfNeeded: raw.loadUnaligned(as: SIMD16<UInt8>.self))
        var t = d &* inverse &+ 128
        t = (t &+ (t &>> 8)) &>> 8
        raw.storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: t &+ s), as: SIMD16<UInt8>.self)
    }

    @inline(__always) @usableFromInline
    static func blendFour(_ p: UnsafeMutablePointer<UInt32>, _ sv: SIMD4<UInt32>, _ alphas: SIMD4<UInt32>) {
        // Each pixel's inverse alpha replicated into its four byte lanes.
        let inv = (SIMD4<UInt32>(repeating: 255) &- alphas) &* 0x0101_0101
        let inverse = SIMD16<UInt16>(truncatingIfNeeded: unsafeBitCast(inv, to: SIMD16<UInt8>.self))
        let raw = UnsafeMutableRawPointer(p)
        let d = SIMD16<UInt16>(truncatingIfNeeded: raw.loadUnaligned(as: SIMD16<UInt8>.self))
        var t = d &* inverse &+ 128
        t = (t &+ (t &>> 8)) &>> 8
        let src = unsafeBitCast(sv, to: SIMD16<UInt8>.self)
        raw.storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: t) &+ src, as: SIMD16<UInt8>.self)
    }
}
