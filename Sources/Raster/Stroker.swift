#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns polylines into the outline of their stroke and feeds its edges to a
/// rasterizer (filled with the non-zero rule).
///
/// Each polyline becomes one closed outline: the left offset forward, the end
/// cap, the right offset backward, the start cap; a closed polyline becomes two
/// loops of opposite direction (a ring). The inner side of a join passes
/// through the vertex itself, which keeps the winding right for sharp turns.
struct Stroker {
    private var left: [Point] = []
    private var right: [Point] = []
    /// Flattening tolerance for round joins and caps, in pixels.
    var tolerance: Float = 0.05

    mutating func stroke(_ points: UnsafeBufferPointer<Point>, closed: Bool, halfWidth hw: Float,
                         style: StrokeStyle, into rasterizer: CoverageRasterizer) {
        left.removeAll(keepingCapacity: true)
        right.removeAll(keepingCapacity: true)
        let n = points.count
        if n == 0 || hw <= 0 { return }
        if n == 1 {
            addDot(points[0], halfWidth: hw, cap: style.cap, into: rasterizer)
            return
        }
        let segments = closed ? n : n - 1
        var previousNormal = Point.zero
        var firstNormal = Point.zero
        var previousLength: Float = 0
        var firstLength: Float = 0
        for s in 0..<segments {
            let a = points[s], b = points[(s + 1) % n]
            let d = b - a
            let len = length(d)
            if len == 0 { continue }
            let normal = Point(-d.y, d.x) * (hw / len)
            if left.isEmpty {
                firstNormal = normal
                firstLength = len
                left.append(a + normal)
                right.append(a - normal)
            } else {
                join(at: a, from: previousNormal, to: normal, lengths: (previousLength, len), halfWidth: hw, style: style)
            }
            left.append(b + normal)
            right.append(b - normal)
            previousNormal = normal
            previousLength = len
        }
        if left.isEmpty {
            addDot(points[0], halfWidth: hw, cap: style.cap, into: rasterizer)
            return
        }
        if closed {
            join(at: points[0], from: previousNormal, to: firstNormal, lengths: (previousLength, firstLength),
                 halfWidth: hw, style: style)
            left.withUnsafeBufferPointer { rasterizer.addPolygon($0) }
            right.reverse()
            right.withUnsafeBufferPointer { rasterizer.addPolygon($0) }
            return
        }
        // One outline: left forward, end cap, right backward, start cap.
        let end = points[n - 1], start = points[0]
        addCap(at: end, normal: previousNormal, cap: style.cap, to: &left, halfWidth: hw)
        left.append(contentsOf: right.reversed())
        addCap(at: start, normal: -firstNormal, cap: style.cap, to: &left, halfWidth: hw)
        left.withUnsafeBufferPointer { rasterizer.addPolygon($0) }
    }

    private mutating func join(at p: Point, from n0: Point, to n1: Point, lengths: (Float, Float),
                               halfWidth hw: Float, style: StrokeStyle) {
        let cross = n0.x * n1.y - n0.y * n1.x
        let dot = (n0 * n1).sum()
        if abs(cross) < 1e-6 * hw * hw && dot > 0 {
            // Straight on: the offsets already meet, where the last segment ended.
            return
        }
        // On the inside of the turn the two offset lines cross hw·tan(φ/2) along each
        // segment. If both segments are that long, the crossing point is the exact
        // inner corner; otherwise the outline pivots through the vertex, which keeps
        // the non-zero winding right for sharp turns on short segments.
        let denominator = hw * hw + dot
        let along = denominator > 0 ? hw * abs(cross) / denominator : .infinity
        let innerMeets = along <= min(lengths.0, lengths.1)
        // Where the offsets meet (the inner crossing, a miter) that point takes the
        // place of the last segment's end: both lie on its offset line, and the
        // next segment's offset starts on that point's line too. A flattened curve
        // turns a little at every vertex, and the extra points made its outline
        // five edges a vertex instead of two, each a few hundredths of a pixel
        // long and each costing the rasterizer the set-up of an edge.
        // cross > 0: the path turns towards the left offset, so the right side is outside.
        if cross > 0 {
            if innerMeets { left[left.count - 1] = p + (n0 + n1) * (hw * hw / denominator) } else { left.append(p); left.append(p + n1) }
            outerJoin(at: p, from: -n0, to: -n1, halfWidth: hw, style: style, into: &right)
        } else {
            if innerMeets { right[right.count - 1] = p - (n0 + n1) * (hw * hw / denominator) } else { right.append(p); right.append(p - n1) }
            outerJoin(at: p, from: n0, to: n1, halfWidth: hw, style: style, into: &left)
        }
    }

    private func outerJoin(at p: Point, from n0: Point, to n1: Point, halfWidth hw: Float,
                           style: StrokeStyle, into side: inout [Point]) {
        switch style.join {
        case .bevel:
            side.append(p + n1)
        case .miter:
            let bisector = n0 + n1
            let bl = length(bisector)
            let cosHalf = bl / (2 * hw)           // cos of half the angle between the normals
            if cosHalf > 1e-4 && 1 / cosHalf <= style.miterLimit {
                side[side.count - 1] = p + bisector * (hw / (bl * cosHalf))
            } else {
                side.append(p + n1)
            }
        case .round:
            appendArc(center: p, from: n0, to: n1, radius: hw, into: &side)
            side.append(p + n1)
        }
    }

    private func addCap(at p: Point, normal n: Point, cap: StrokeStyle.Cap, to side: inout [Point], halfWidth hw: Float) {
        // The cap runs from p + n to p - n around the segment's end.
        let forward = Point(n.y, -n.x)
        switch cap {
        case .butt:
            break
        case .square:
            side.append(p + n + forward)
            side.append(p - n + forward)
        case .round:
            // A half turn from p + n through p + forward: the normal turned by -90°.
            appendArc(center: p, from: n, sweep: -.pi, radius: hw, into: &side)
        }
    }

    /// Points strictly between `p + from` and the point `sweep` radians further
    /// round the circle (negative: anticlockwise on screen).
    private func appendArc(center p: Point, from: Point, sweep: Float, radius r: Float, into side: inout [Point]) {
        let a0 = atan2f(from.y, from.x)
        let step = 2 * acosf(max(0, 1 - tolerance / max(r, tolerance)))
        let count = max(1, Int(ceilf(abs(sweep) / max(step, 1e-3))))
        if count < 2 { return }
        for i in 1..<count {
            let a = a0 + sweep * Float(i) / Float(count)
            side.append(p + r * Point(cosf(a), sinf(a)))
        }
    }

    /// The short way round from `from` to `to`.
    private func appendArc(center p: Point, from: Point, to: Point, radius r: Float, into side: inout [Point]) {
        var sweep = atan2f(to.y, to.x) - atan2f(from.y, from.x)
        if sweep > Float.pi { sweep -= 2 * .pi }
        if sweep < -Float.pi { sweep += 2 * .pi }
        appendArc(center: p, from: from, sweep: sweep, radius: r, into: &side)
    }

    private mutating func addDot(_ p: Point, halfWidth hw: Float, cap: StrokeStyle.Cap, into rasterizer: CoverageRasterizer) {
        left.removeAll(keepingCapacity: true)
        switch cap {
        case .butt:
            return
        case .square:
            left.append(p + Point(-hw, -hw)); left.append(p + Point(hw, -hw))
            left.append(p + Point(hw, hw)); left.append(p + Point(-hw, hw))
        case .round:
            let step = 2 * acosf(max(0, 1 - tolerance / max(hw, tolerance)))
            let count = max(8, Int(ceilf(2 * .pi / max(step, 1e-3))))
            for i in 0..<count {
                let a = 2 * Float.pi * Float(i) / Float(count)
                left.append(p + hw * Point(cosf(a), sinf(a)))
            }
        }
        left.withUnsafeBufferPointer { rasterizer.addPolygon($0) }
    }
}
