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
    /// Per segment of the polyline being stroked: whether its outline is worked out.
    private var needed: [Bool] = []
    /// Flattening tolerance for round joins and caps, in pixels.
    var tolerance: Float = 0.05
    /// Segments whose outline was worked out, since the stroker was made (tests).
    private(set) var segmentsOutlined = 0

    /// Strokes `points` into `rasterizer`. With `culling` (the rasterizer's
    /// rows cut the stroke), only the segments whose outline can reach a row
    /// it covers (`CoverageRasterizer.coveredRows`) are outlined, with their
    /// neighbours for the joins: a band of a frame drawn on several threads
    /// outlines its own part of a ring, not all of it. Every edge that
    /// crosses a covered row is the one the whole outline has, added in the
    /// same order, so the pixels are the same. A run of segments left out
    /// is bridged by one edge between the outlined points either side of
    /// it; those lie where the run does, above the covered rows, below
    /// them, or among the skipped ones (it cannot leave one of these without
    /// crossing a covered row), so the bridge crosses no covered row either,
    /// and a row's coverage is the sum of the edges that cross it.
    mutating func stroke(_ points: UnsafeBufferPointer<Point>, closed: Bool, halfWidth hw: Float,
                         style: StrokeStyle, into rasterizer: CoverageRasterizer, culling: Bool = false) {
        left.removeAll(keepingCapacity: true)
        right.removeAll(keepingCapacity: true)
        let n = points.count
        if n == 0 || hw <= 0 { return }
        if n == 1 {
            addDot(points[0], halfWidth: hw, cap: style.cap, into: rasterizer)
            return
        }
        let segments = closed ? n : n - 1
        // As far as a join (a miter up to its limit) or a cap (a square one
        // √2 times) reaches from the path, and a pixel for rounding.
        let reach = hw * max(style.miterLimit, 1.5) + 1
        let anySegment = culling ? markNeeded(points, segments: segments, reach: reach, rows: rasterizer.coveredRows)
                                 : (any: true, skippedFirst: false)
        var previousNormal = Point.zero
        var firstNormal = Point.zero
        var previousLength: Float = 0
        var firstLength: Float = 0
        // The first segment outlined is the polyline's first, and the last its last: the ends join (or take caps) as whole.
        var startsAtFirst = false, reachesLast = false
        var gap = false
        for s in 0..<segments {
            let a = points[s], b = points[(s + 1) % n]
            let d = b - a
            let len = length(d)
            if len == 0 { continue }
            guard !culling || needed[s] else {
                gap = !left.isEmpty
                reachesLast = false
                continue
            }
            segmentsOutlined += 1
            let normal = Point(-d.y, d.x) * (hw / len)
            if left.isEmpty || gap {
                if left.isEmpty {
                    firstNormal = normal
                    firstLength = len
                    startsAtFirst = !anySegment.skippedFirst
                }
                gap = false
                left.append(a + normal)
                right.append(a - normal)
            } else {
                join(at: a, from: previousNormal, to: normal, lengths: (previousLength, len), halfWidth: hw, style: style)
            }
            left.append(b + normal)
            right.append(b - normal)
            previousNormal = normal
            previousLength = len
            reachesLast = true
        }
        if left.isEmpty {
            // Only a polyline of one point repeated is a dot; one wholly out of reach draws nothing.
            if !culling || !anySegment.any { addDot(points[0], halfWidth: hw, cap: style.cap, into: rasterizer) }
            return
        }
        if closed {
            // The ends join where the polyline's first and last segments were both outlined; elsewhere, a bridge.
            if startsAtFirst && reachesLast {
                join(at: points[0], from: previousNormal, to: firstNormal, lengths: (previousLength, firstLength),
                     halfWidth: hw, style: style)
            }
            left.withUnsafeBufferPointer { rasterizer.addPolygon($0) }
            right.reverse()
            right.withUnsafeBufferPointer { rasterizer.addPolygon($0) }
            return
        }
        // One outline: left forward, end cap, right backward, start cap (each cap where its end was outlined).
        let end = points[n - 1], start = points[0]
        if reachesLast { addCap(at: end, normal: previousNormal, cap: style.cap, to: &left, halfWidth: hw) }
        left.append(contentsOf: right.reversed())
        if startsAtFirst { addCap(at: start, normal: -firstNormal, cap: style.cap, to: &left, halfWidth: hw) }
        left.withUnsafeBufferPointer { rasterizer.addPolygon($0) }
    }

    /// Marks in `needed` the segments to outline: those whose outline can
    /// reach a covered row, and each one's neighbours (the nearest segments
    /// of non-zero length before and after it), whose directions its joins
    /// are made from. Returns whether any segment has a length, and whether
    /// the first of those is left out.
    private mutating func markNeeded(_ points: UnsafeBufferPointer<Point>, segments: Int, reach: Float,
                                     rows: CoverageRasterizer.CoveredRows) -> (any: Bool, skippedFirst: Bool) {
        if needed.count < segments { needed.append(contentsOf: repeatElement(false, count: segments - needed.count)) }
        return needed.withUnsafeMutableBufferPointer { needed in
            let n = points.count
            var first = -1, previous = -1, previousReaches = false, firstReaches = false
            for s in 0..<segments {
                let a = points[s], b = points[s + 1 == n ? 0 : s + 1], d = b - a
                // Of no length exactly when `stroke` finds it so (√x is 0 only for 0).
                guard (d * d).sum() != 0 else { needed[s] = false; continue }
                let reaches = rows.reach(from: min(a.y, b.y) - reach, to: max(a.y, b.y) + reach)
                needed[s] = reaches || previousReaches
                if reaches && previous >= 0 { needed[previous] = true }
                if first < 0 { first = s; firstReaches = reaches }
                previous = s
                previousReaches = reaches
            }
            guard first >= 0 else { return (false, false) }
            // A closed polyline's last segment joins its first.
            if segments == n && previous != first {
                if firstReaches { needed[previous] = true }
                if previousReaches { needed[first] = true }
            }
            return (true, !needed[first])
        }
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
