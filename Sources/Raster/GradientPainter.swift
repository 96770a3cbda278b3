#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Paints a gradient: computes each pixel's table index eight lanes at a time,
/// looks the colour up, and blends by coverage. Opaque ramps at full coverage
/// are written straight into the target.
public struct GradientPainter: SpanPainter {
    @usableFromInline enum Shape {
        case linear(origin: Point, step: Point)          // offset = dot(p - origin, step)
        // Pixels x and mirrorSum - x of a row share a colour, and so do rows y and
        // rowMirrorSum - y; nil when that would be off by more than half a level
        // (see init).
        case radial(center: Point, inverseRadius: Float, mirrorSum: Int?, rowMirrorSum: Int?)
        case conic(center: Point, startAngle: Float)
    }

    @usableFromInline let base: UnsafeMutablePointer<UInt32>
    @usableFromInline let rowPixels: Int
    @usableFromInline let ramp: GradientRamp
    @usableFromInline let isOpaque: Bool
    @usableFromInline let shape: Shape
    @usableFromInline let scratch: UnsafeMutablePointer<UInt32>
    /// Per target row, the last span this fill shaded straight into the target:
    /// (fill, first x, end x, unused). A radial fill copies a row's colours from
    /// its mirror row above when that one was shaded, instead of computing them.
    @usableFromInline let shadedRows: UnsafeMutablePointer<SIMD4<Int32>>?
    @usableFromInline let rowCount: Int
    /// Tells this fill's records in `shadedRows` from older fills' ones.
    @usableFromInline let fill: Int32
    /// A conic ramp's pixel directions, when the map is around its centre.
    @usableFromInline let angleMap: ConicAngleMap?

    /// The entries of a conic ramp's table: 64 of a turn's 65,536ths to an
    /// entry (`lookUp(turns:)` shifts by 6).
    public static let conicTableSize = 1024

    /// `geometry` is in device pixels; `table` was built for this gradient;
    /// `scratch` holds at least one row of the target. `shadedRows`, if given,
    /// has an entry per target row and `fill` differs from every earlier fill's.
    /// A conic ramp's table has `conicTableSize` entries; `angles` serves a
    /// conic ramp around its centre.
    public init(target: PixelBuffer, geometry: Gradient.Geometry, spread: GradientSpread,
                table: GradientTable, scratch: UnsafeMutablePointer<UInt32>,
                shadedRows: UnsafeMutablePointer<SIMD4<Int32>>? = nil, fill: Int32 = 0, angles: ConicAngleMap? = nil) {
        base = target.pixels
        rowPixels = target.rowPixels
        isOpaque = table.isOpaque
        self.scratch = scratch
        self.shadedRows = shadedRows
        rowCount = target.height
        self.fill = fill
        switch geometry {
        case let .linear(start, end):
            let d = end - start
            let len2 = (d * d).sum()
            shape = .linear(origin: start, step: len2 > 0 ? d / len2 : .zero)
        case let .radial(center, radius):
            // Mirroring about the nearest pixel centre or edge moves a pixel's
            // distance from the true centre by up to the centre's offset from it
            // (at most half a pixel): allowed when that changes no channel by more
            // than half a level. A gentle ramp, like the dial's disc that glides
            // off the pixel grid during transitions, can always be mirrored; a
            // steep one only about a centre on the grid (a centre computed as
            // 0.3 × 1920 in Float lands 2e-5 px off 576).
            let levelsPerPixel = Float(table.steepestStep) * Float(table.size - 1) / max(radius, 1e-6)
            func mirrorSum(_ c: Float) -> Int? {
                let twice = 2 * c
                guard abs(twice) < 16_777_216 else { return nil }
                let offset = abs(twice - twice.rounded()) / 2
                return offset <= 1 / 512 || offset * levelsPerPixel <= 0.5 ? Int(twice.rounded()) - 1 : nil
            }
            shape = .radial(center: center, inverseRadius: radius > 0 ? 1 / radius : 0,
                            mirrorSum: mirrorSum(center.x), rowMirrorSum: mirrorSum(center.y))
        case let .conic(center, startAngle):
            shape = .conic(center: center, startAngle: startAngle)
        }
        // A conic ramp finds its entry from a pixel's angle in 65,536ths of a
        // turn (`ConicAngleMap.turns`, with or without a map) by a shift.
        if case let .conic(center, startAngle) = shape {
            precondition(table.size == Self.conicTableSize, "a conic ramp's table has \(Self.conicTableSize) entries, not \(table.size)")
            angleMap = angles?.center == center ? angles : nil
            let start = startAngle.isFinite ? (Double(startAngle) / (2 * .pi) * 65_536).rounded() : 0
            ramp = GradientRamp(table: table, repeats: true,
                                startTurns: UInt32(truncatingIfNeeded: Int(start.truncatingRemainder(dividingBy: 65_536))) & 0xFFFF)
        } else {
            angleMap = nil
            ramp = GradientRamp(table: table, repeats: spread == .repeat, startTurns: 0)
        }
    }

    @inlinable
    public mutating func paintSpan(y: Int, x0: Int, x1: Int, coverage: UInt32) {
        let dst = base + y * rowPixels + x0
        let n = x1 - x0
        if coverage == 255 && isOpaque {
            if case let .radial(_, _, _, rowMirrorSum?) = shape, let rows = shadedRows {
                shadeMirroringRows(into: dst, y: y, x0: x0, count: n, rowMirrorSum: rowMirrorSum, rows: rows)
            } else {
                shade(into: dst, y: y, x0: x0, count: n)
            }
        } else {
            shade(into: scratch, y: y, x0: x0, count: n)
            SpanCompositor.blend(dst, source: scratch, count: n, coverage: coverage)
        }
    }

    @inlinable
    public mutating func paintMaskedSpan(y: Int, x0: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        shade(into: scratch, y: y, x0: x0, count: count)
        SpanCompositor.blend(base + y * rowPixels + x0, source: scratch, count: count, coverage: coverage)
    }

    /// Shades an opaque span straight into the target row `y`, copying what its
    /// mirror row already holds: an opaque colour at full coverage replaced
    /// whatever was below it, and the sweep paints each pixel once per fill.
    @inlinable
    func shadeMirroringRows(into dst: UnsafeMutablePointer<UInt32>, y: Int, x0: Int, count: Int,
                            rowMirrorSum: Int, rows: UnsafeMutablePointer<SIMD4<Int32>>) {
        let mirror = rowMirrorSum - y
        if mirror >= 0 && mirror < y {
            let record = rows[mirror]
            let start = max(x0, Int(record[1])), end = min(x0 + count, Int(record[2]))
            if record[0] == fill && end - start >= 16 {
                shade(into: dst, y: y, x0: x0, count: start - x0)
                (dst + (start - x0)).update(from: base + mirror * rowPixels + start, count: end - start)
                shade(into: dst + (end - x0), y: y, x0: end, count: x0 + count - end)
                return
            }
        }
        shade(into: dst, y: y, x0: x0, count: count)
        if y >= 0 && y < rowCount { rows[y] = SIMD4(fill, Int32(x0), Int32(x0 + count), 0) }
    }

    /// Writes the colours of pixels `x0..<x0+count` of row `y` to `out`.
    ///
    /// Whole blocks of eight run in vector lanes; the last partial block is
    /// computed in a full vector too and only its valid lanes are stored, so
    /// the compiler keeps the arithmetic in vector registers.
    @inlinable
    func shade(into out: UnsafeMutablePointer<UInt32>, y: Int, x0: Int, count: Int) {
        let py = Float(y) + 0.5
        let blocks = count >> 3
        switch shape {
        case let .linear(origin, step):
            let rowTerm = (py - origin.y) * step.y
            let ramp = self.ramp
            // Pixel centres, stepped: whole numbers and a half, exact.
            var px = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7) + (Float(x0) + 0.5)
            for b in 0...blocks {
                ramp.lookUp((px - origin.x) * step.x + rowTerm, into: out + (b << 3), lanes: b < blocks ? 8 : count & 7)
                px += 8
            }
        case let .radial(center, inverseRadius, mirrorSum, rowMirrorSum):
            // A row below its mirror takes the mirror's colours, whether they
            // are copied from it (shadeMirroringRows) or worked out here, so
            // that a pixel's colour never depends on what was drawn before it
            // (a frame drawn in bands on several threads is the same frame).
            var row = y
            if let m = rowMirrorSum, m - y >= 0 && m - y < y { row = m - y }
            let dy = Float(row) + 0.5 - center.y
            let dy2 = dy * dy
            // Pixels x and mirrorSum - x share a colour, and a pixel left of the
            // mirror takes its mirror's: worked out there (stepping leftwards
            // from it) or copied from it where the span holds both. Either way
            // the same colour, whatever the span, so a row's colours never
            // depend on how the rasterizer cut it into spans.
            if let m = mirrorSum {
                let x1 = x0 + count
                let leftEnd = min(x1, max(x0, (m + 1) >> 1))
                let copyStart = max(x0, m - x1 + 1)
                shadeRadial(into: out + (leftEnd - x0), x: leftEnd, count: x1 - leftEnd, centerX: center.x,
                            dy2: dy2, inverseRadius: inverseRadius)
                if leftEnd - copyStart >= 16 {
                    shadeRadial(into: out, x: x0, count: copyStart - x0, centerX: center.x,
                                dy2: dy2, inverseRadius: inverseRadius, mirroredAbout: m)
                    Self.copyReversed(into: out + (copyStart - x0), from: out + (m - copyStart - x0),
                                      count: leftEnd - copyStart)
                } else {
                    shadeRadial(into: out, x: x0, count: leftEnd - x0, centerX: center.x,
                                dy2: dy2, inverseRadius: inverseRadius, mirroredAbout: m)
                }
                return
            }
            shadeRadial(into: out, x: x0, count: count, centerX: center.x, dy2: dy2, inverseRadius: inverseRadius)
        case let .conic(center, _):
            if let map = angleMap, map.holds(y: y, x: x0, count: count) {
                shadeConic(into: out, angles: map.angles(y: y, x: x0, count: count), count: count)
            } else {
                shadeConic(into: out, y: y, x: x0, count: count, center: center)
            }
        }
    }

    /// Conic colours of pixels `x..<x+count` of row `y`, from their angles
    /// in 65,536ths of a turn, as a map of them would give. Its own function
    /// so that the vector atan2 is inlined into the loop: inside `shade` the
    /// optimiser left it a call, with every argument and result going
    /// through the stack.
    @inlinable
    func shadeConic(into out: UnsafeMutablePointer<UInt32>, y: Int, x: Int, count: Int, center: Point) {
        let dy = ConicAngleMap.offset(Float(y), from: center.y)
        let ramp = self.ramp
        // Whole numbers, so stepping them is exact.
        var px = SIMD8<Float>(repeating: Float(x)) + ConicAngleMap.lanes
        var i = 0
        while i + 8 <= count {
            ramp.lookUp(turns: ConicAngleMap.turns(dy: dy, dx: ConicAngleMap.offset(px, from: center.x)), into: out + i, lanes: 8)
            px += 8
            i += 8
        }
        if i < count {
            ramp.lookUp(turns: ConicAngleMap.turns(dy: dy, dx: ConicAngleMap.offset(px, from: center.x)), into: out + i, lanes: count - i)
        }
    }

    /// Conic colours of `count` pixels whose directions `angles` holds.
    @inlinable
    func shadeConic(into out: UnsafeMutablePointer<UInt32>, angles: UnsafePointer<UInt16>, count: Int) {
        let ramp = self.ramp
        var i = 0
        while i + 8 <= count {
            ramp.lookUp(turns: SIMD8(truncatingIfNeeded: UnsafeRawPointer(angles + i).loadUnaligned(as: SIMD8<UInt16>.self)), into: out + i, lanes: 8)
            i += 8
        }
        if i < count {
            ramp.lookUp(turns: SIMD8(truncatingIfNeeded: UnsafeRawPointer(angles + i).loadUnaligned(as: SIMD8<UInt16>.self)),
                   into: out + i, lanes: count - i)
        }
    }

    /// Radial colours of pixels `x..<x+count` of a row `dy2` squared away
    /// from the centre; `mirroredAbout` m, the colours of pixels m - x
    /// (worked out exactly as they are at m - x).
    @inlinable @inline(__always)
    func shadeRadial(into out: UnsafeMutablePointer<UInt32>, x: Int, count: Int, centerX: Float,
                     dy2: Float, inverseRadius: Float, mirroredAbout m: Int? = nil) {
        guard count > 0 else { return }
        // Whole numbers, so stepping them is exact: each offset from the centre
        // is one rounding from its pixel's coordinate, as for conic ramps.
        let step: Float = m == nil ? 1 : -1
        var px = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7) * step + Float(m.map { $0 - x } ?? x)
        let toCenter = 0.5 - centerX
        let ramp = self.ramp
        let blocks = count >> 3
        for b in 0...blocks {
            let dx = px + toCenter
            ramp.lookUp((dx * dx + dy2).squareRoot() * inverseRadius, into: out + (b << 3), lanes: b < blocks ? 8 : count & 7)
            px += 8 * step
        }
    }

    /// Writes `to[i] = from[-i]` for `i` in `0..<count`, eight lanes at a time.
    @inlinable @inline(__always)
    static func copyReversed(into to: UnsafeMutablePointer<UInt32>, from: UnsafeMutablePointer<UInt32>, count: Int) {
        var i = 0
        while i + 8 <= count {
            let v = UnsafeRawPointer(from - i - 7).loadUnaligned(as: SIMD8<UInt32>.self)
            UnsafeMutableRawPointer(to + i).storeBytes(
                of: SIMD8(v[7], v[6], v[5], v[4], v[3], v[2], v[1], v[0]), as: SIMD8<UInt32>.self)
            i += 8
        }
        while i < count { to[i] = from[-i]; i += 1 }
    }
}
