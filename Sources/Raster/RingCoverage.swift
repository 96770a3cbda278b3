/// The pixels of an annulus (a circle's stroke, or a disc when the inner
/// radius is 0) with their coverage worked out from the distance to the
/// centre, not by rasterizing an outline.
///
/// A ring's outline is two polygons of a hundred edges each, and every row
/// it crosses costs the rasterizer four edge crossings and the sweep of the
/// groups between: the dial's four rings were a sixth of its frame. Here a
/// row costs the pixels the ring's edges cross. Each pixel is covered by the
/// band between two parallel lines, the tangents of the two circles in the
/// pixel's direction: the area of a unit square cut by a line, in closed
/// form (a circle's curvature across one pixel is below 1/200 of a pixel
/// for radii over 50 px, so the tangent stands for the arc).
struct RingCoverage: SpanJob {
    let center: Point
    let inner: Float
    let outer: Float
    /// Coverage multiplier (a hairline's width), 0...1.
    let alpha: Float
    /// Rows and columns that may be drawn: the clip.
    let area: IntRect
    let scratch: UnsafeMutablePointer<UInt8>

    /// The pixels the ring may touch, in device pixels (before the clip).
    var bounds: IntRect {
        let reach = outer + 1
        let x0 = Int((center.x - reach).rounded(.down)), y0 = Int((center.y - reach).rounded(.down))
        let x1 = Int((center.x + reach).rounded(.up)), y1 = Int((center.y + reach).rounded(.up))
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    func run<P: SpanPainter>(_ painter: inout P) {
        let rows = bounds.intersection(area)
        guard !rows.isEmpty else { return }
        // A pixel is touched when its centre lies within half a diagonal of the band.
        let reach: Float = 0.7072
        let outerReach = outer + reach, innerReach = max(inner - reach, 0)
        for y in rows.y..<rows.maxY {
            let dy = Float(y) + 0.5 - center.y
            let dy2 = dy * dy
            if dy2 >= outerReach * outerReach { continue }
            let halfOuter = (outerReach * outerReach - dy2).squareRoot()
            // Left of the centre, then right; one run across when the hole misses the row.
            let halfInner = innerReach > abs(dy) ? (innerReach * innerReach - dy2).squareRoot() : 0
            if halfInner > 0 {
                paint(y, dy, from: center.x - halfOuter, to: center.x - halfInner, into: &painter)
                paint(y, dy, from: center.x + halfInner, to: center.x + halfOuter, into: &painter)
            } else {
                paint(y, dy, from: center.x - halfOuter, to: center.x + halfOuter, into: &painter)
            }
        }
    }

    /// Covers the pixels of row `y` whose centres lie between `left` and
    /// `right`, four at a time, as the rasterizer's sweep hands groups of
    /// four to a painter.
    private func paint<P: SpanPainter>(_ y: Int, _ dy: Float, from left: Float, to right: Float, into painter: inout P) {
        let x0 = max(Int((left - 0.5).rounded(.up)), area.x)
        let x1 = min(Int((right - 0.5).rounded(.down)) + 1, area.maxX)
        guard x1 > x0 else { return }
        let dyv = SIMD4<Float>(repeating: dy), scale = SIMD4<Float>(repeating: 255 * alpha)
        var dx = SIMD4<Float>(repeating: Float(x0)) + SIMD4<Float>(0, 1, 2, 3) + (0.5 - center.x)
        var x = x0
        while x < x1 {
            let share = Self.coverage(dx: dx, dy: dyv, inner: inner, outer: outer) * scale + 12_582_912
            let coverage = unsafeBitCast(share, to: SIMD4<UInt32>.self) & 0x1FF
            if x + 4 <= x1 {
                painter.paintGroup(y: y, x0: x, coverage: coverage)
            } else {
                // The last one to three pixels, as a masked span.
                for k in 0..<(x1 - x) { scratch[k] = UInt8(truncatingIfNeeded: coverage[k]) }
                painter.paintMaskedSpan(y: y, x0: x, count: x1 - x, coverage: scratch)
            }
            dx += 4
            x += 4
        }
    }

    /// The share of each pixel (offsets `dx`, `dy` of its centre from the
    /// circles' centre) between the circles of radii `inner` and `outer`.
    @inline(__always)
    static func coverage(dx: SIMD4<Float>, dy: SIMD4<Float>, inner: Float, outer: Float) -> SIMD4<Float> {
        let magnitude = SIMD4<UInt32>(repeating: 0x7FFF_FFFF)
        let ax = unsafeBitCast(unsafeBitCast(dx, to: SIMD4<UInt32>.self) & magnitude, to: SIMD4<Float>.self)
        let ay = unsafeBitCast(unsafeBitCast(dy, to: SIMD4<UInt32>.self) & magnitude, to: SIMD4<Float>.self)
        let distance = (dx * dx + dy * dy).squareRoot()
        // The direction's larger and smaller components (a ≥ b, a² + b² = 1).
        let toUnit = 1 / (distance + 1e-20)
        let steep = ay .> ax
        let a = ax.replacing(with: ay, where: steep) * toUnit
        let b = ay.replacing(with: ax, where: steep) * toUnit
        let corner = 0.5 / (a * b + 1e-12), slope = 1 / (a + 1e-20)
        let share = halfPlane(SIMD4(repeating: outer) - distance, a, b, corner, slope)
        // A disc has no inner circle (and at its centre no direction either).
        guard inner > 0 else { return share }
        let ring = share - halfPlane(SIMD4(repeating: inner) - distance, a, b, corner, slope)
        return ring.replacing(with: SIMD4<Float>(), where: ring .< SIMD4<Float>())
    }

    /// The area of a unit pixel on the inner side of a line `t` from its
    /// centre (negative: the centre is outside), the line's normal having
    /// components `a` ≥ `b` ≥ 0 (`corner` = 1 / 2ab, `slope` = 1 / a): 0 or 1
    /// beyond a half-diagonal, a triangle's area near the corners, linear
    /// across the middle.
    @inline(__always)
    static func halfPlane(_ t: SIMD4<Float>, _ a: SIMD4<Float>, _ b: SIMD4<Float>,
                          _ corner: SIMD4<Float>, _ slope: SIMD4<Float>) -> SIMD4<Float> {
        let half = (a + b) * 0.5, middle = (a - b) * 0.5
        let rising = t + half, falling = half - t
        var share = t * slope + 0.5
        share = share.replacing(with: rising * rising * corner, where: t .< -middle)
        share = share.replacing(with: 1 - falling * falling * corner, where: t .> middle)
        share = share.replacing(with: SIMD4<Float>(), where: rising .<= SIMD4<Float>())
        share = share.replacing(with: SIMD4(repeating: 1), where: falling .<= SIMD4<Float>())
        return share
    }
}
