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

/// Span compositing loops, eight pixels per step.
public enum SpanCompositor {
    /// Sets `count` pixels to `pixel`, 128 bytes a turn: eight 16-byte
    /// stores in a 128-bit build, four 32-byte ones with AVX2. The standard
    /// library's `update(repeating:)` stored one vector a turn, two and a
    /// half instructions a store, and the clear is a tenth of a frame.
    @inlinable
    public static func fill(_ p: UnsafeMutablePointer<UInt32>, count: Int, pixel: UInt32) {
        let eight = SIMD8<UInt32>(repeating: pixel)
        var q = UnsafeMutableRawPointer(p)
        let end = q + count &* 4
        // One pointer steps through the loops: a count beside it cost two
        // instructions more a turn.
        while end - q >= 128 {
            for offset in stride(from: 0, to: 128, by: 32) {
                (q + offset).storeBytes(of: eight, as: SIMD8<UInt32>.self)
            }
            q += 128
        }
        while end - q >= 32 {
            q.storeBytes(of: eight, as: SIMD8<UInt32>.self)
            q += 32
        }
        while q < end {
            q.storeBytes(of: pixel, as: UInt32.self)
            q += 4
        }
    }

    /// Blends one premultiplied colour over `count` pixels.
    @inlinable
    public static func blendSolid(_ p: UnsafeMutablePointer<UInt32>, count: Int, source: UInt32) {
        let alpha = source >> 24
        if alpha == 255 { fill(p, count: count, pixel: source); return }
        if alpha == 0 && source == 0 { return }
        let inverse = PixelVector.Pixels(repeating: 255 - alpha), src = PixelVector.Pixels(repeating: source)
        // A panel over a plain background blends one colour over one colour,
        // eight pixels after eight: the last result serves while the
        // destination repeats, for a comparison instead of the arithmetic.
        var lastDestination = PixelVector.Pixels(), lastResult = src   // over transparent: the colour itself
        var i = 0
        while i + 8 <= count {
            let destination = PixelVector.load(p + i)
            if !PixelVector.equal(destination, lastDestination) {
                lastDestination = destination
                lastResult = src &+ PixelVector.scale(destination, by: inverse)
            }
            PixelVector.store(lastResult, p + i)
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
    /// change from pixel to pixel and defeat a predictor. Only a group of
    /// zeros is skipped.
    @inlinable
    public static func blendSolid(_ p: UnsafeMutablePointer<UInt32>, count: Int, source: UInt32, coverage: UnsafePointer<UInt8>) {
        blendMasked(p, count: count, source: SolidSource(pixel: source), coverage: coverage)
    }

    /// Blends `count` premultiplied source pixels, each scaled by its own
    /// coverage (0...255), over the destination; as `blendSolid(_:count:source:coverage:)`
    /// with a source per pixel.
    @inlinable
    public static func blend(_ p: UnsafeMutablePointer<UInt32>, source: UnsafePointer<UInt32>, count: Int, coverage: UnsafePointer<UInt8>) {
        blendMasked(p, count: count, source: BufferSource(pixels: source), coverage: coverage)
    }

    @inlinable @inline(__always)
    static func blendMasked<Source: MaskedBlendSource>(_ p: UnsafeMutablePointer<UInt32>, count: Int, source: Source,
                                                       coverage: UnsafePointer<UInt8>) {
        var i = 0
        while i + 8 <= count {
            let c = PixelVector.coverage(coverage + i)
            if !PixelVector.isZero(c) {
                let s = PixelVector.scale(source.eight(at: i), by: c)
                PixelVector.store(PixelVector.sourceOver(s, PixelVector.load(p + i)), p + i)
            }
            i += 8
        }
        // Runs come in whole groups of four cells: their last four in four lanes.
        if i + 4 <= count {
            let bytes = UnsafeRawPointer(coverage + i).loadUnaligned(as: SIMD4<UInt8>.self)
            if unsafeBitCast(bytes, to: UInt32.self) != 0 {
                let raw = UnsafeMutableRawPointer(p + i)
                let s = PixelVector.scale(source.four(at: i), by: SIMD4<UInt32>(truncatingIfNeeded: bytes))
                raw.storeBytes(of: PixelVector.sourceOver(s, raw.loadUnaligned(as: SIMD4<UInt32>.self)), as: SIMD4<UInt32>.self)
            }
            i += 4
        }
        while i < count {
            let c = UInt32(coverage[i])
            if c != 0 { p[i] = PixelMath.sourceOver(PixelMath.scale(source.one(at: i), by: c), p[i]) }
            i += 1
        }
    }
}

/// Where a masked blend takes its source pixels: one colour or a row of them.
@usableFromInline
protocol MaskedBlendSource {
    func eight(at i: Int) -> SIMD8<UInt32>
    func four(at i: Int) -> SIMD4<UInt32>
    func one(at i: Int) -> UInt32
}

@usableFromInline
struct SolidSource: MaskedBlendSource {
    @usableFromInline let pixel: UInt32
    @inlinable init(pixel: UInt32) { self.pixel = pixel }
    @inlinable func eight(at i: Int) -> SIMD8<UInt32> { SIMD8(repeating: pixel) }
    @inlinable func four(at i: Int) -> SIMD4<UInt32> { SIMD4(repeating: pixel) }
    @inlinable func one(at i: Int) -> UInt32 { pixel }
}

@usableFromInline
struct BufferSource: MaskedBlendSource {
    @usableFromInline let pixels: UnsafePointer<UInt32>
    @inlinable init(pixels: UnsafePointer<UInt32>) { self.pixels = pixels }
    @inlinable func eight(at i: Int) -> SIMD8<UInt32> { UnsafeRawPointer(pixels + i).loadUnaligned(as: SIMD8<UInt32>.self) }
    @inlinable func four(at i: Int) -> SIMD4<UInt32> { UnsafeRawPointer(pixels + i).loadUnaligned(as: SIMD4<UInt32>.self) }
    @inlinable func one(at i: Int) -> UInt32 { pixels[i] }
}
