#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An antialiasing scanline rasterizer that computes exact area coverage.
///
/// Each edge adds its signed area to the cells it crosses (the accumulation
/// method of font-rs and stb_truetype 2); a running sum along a row then gives
/// each pixel's coverage. A bitset marks the groups of four cells an edge
/// touched (as Blend2D does), so the sweep visits only those, four cells at a
/// time in vector lanes: between two touched groups coverage is constant and
/// leaves as one span, which is why a large disc costs its outline, not its area.
///
/// Cells and bits are zero between uses: the sweep clears what it reads, so a
/// frame never clears the whole accumulation buffer.
public final class CoverageRasterizer {
    private var cells: UnsafeMutablePointer<Float>
    private var bits: UnsafeMutablePointer<UInt64>
    private var rowCoverage: UnsafeMutablePointer<UInt8>
    private(set) var cellCapacity = 0
    private var wordCapacity = 0
    private var coverageCapacity = 0

    private var clip = IntRect.empty
    /// Rows inside the clip the shape leaves alone (another thread's, in a band with a hole).
    private var skipped: Range<Float> = 0..<0
    /// The same rows counted from the clip's top, which the sweep passes over.
    private var skippedRows: Range<Int> = 0..<0
    private var cellStride = 0
    private var wordStride = 0
    private var touchedMinRow = Int.max
    private var touchedMaxRow = Int.min
    private var touchedMinCell = Int.max
    private var touchedMaxCell = Int.min

    public init() {
        cells = .allocate(capacity: 1)
        bits = .allocate(capacity: 1)
        rowCoverage = .allocate(capacity: 1)
    }

    deinit {
        cells.deallocate()
        bits.deallocate()
        rowCoverage.deallocate()
    }

    /// Gives the memory of the cells back to the system, keeping the buffer:
    /// between shapes every cell is zero, and pages returned this way come
    /// back as zeros when touched again. For a long run of small shapes after
    /// a large one (the sweep after a whole frame's disc): resident memory
    /// then follows the shapes drawn, not the largest ever drawn, and nothing
    /// is allocated when a large shape comes again.
    public func releaseUnusedMemory() {
        Self.release(UnsafeMutableRawPointer(cells), bytes: cellCapacity * MemoryLayout<Float>.stride)
    }

    private static func release(_ start: UnsafeMutableRawPointer, bytes: Int) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard page > 0 else { return }
        // Only whole pages inside the buffer.
        let first = (Int(bitPattern: start) + page - 1) / page * page
        let end = (Int(bitPattern: start) + bytes) / page * page
        guard end > first, let address = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(address, end - first, Int32(MADV_DONTNEED))
    }

    /// Starts a shape whose visible part lies within `clip` (device pixels),
    /// less the rows `skipping`: no cell of theirs is touched, so the sweep
    /// paints nothing there.
    public func begin(clip: IntRect, skipping: Range<Int> = 0..<0) {
        self.clip = clip
        skipped = skipping.isEmpty ? 0..<0 : Float(skipping.lowerBound)..<Float(skipping.upperBound)
        skippedRows = skipping.isEmpty ? 0..<0 : (skipping.lowerBound - clip.y)..<(skipping.upperBound - clip.y)
        let w = max(clip.width, 0), h = max(clip.height, 0)
        // Whole groups of four, the last one or two past the right side.
        cellStride = (w + 2 + 3) & ~3
        wordStride = (cellStride / 4 + 63) >> 6
        reserveZeroed(&cells, capacity: &cellCapacity, count: cellStride * h)
        reserveZeroed(&bits, capacity: &wordCapacity, count: wordStride * h)
        if cellStride > coverageCapacity {
            rowCoverage.deallocate()
            coverageCapacity = cellStride
            rowCoverage = .allocate(capacity: coverageCapacity)
        }
        touchedMinRow = .max; touchedMaxRow = .min
        touchedMinCell = .max; touchedMaxCell = .min
    }

    /// The rows the shape begun last may cover: the clip's, less the skipped ones.
    public var coveredRows: CoveredRows { CoveredRows(top: Float(clip.y), bottom: Float(clip.maxY), skipped: skipped) }

    /// Rows a shape may cover, copied out of the rasterizer for a quick test
    /// of each of its parts.
    public struct CoveredRows {
        let top: Float, bottom: Float
        let skipped: Range<Float>

        /// Whether a part of the shape lying between heights `from` and `to` can reach one of the rows.
        @inline(__always)
        func reach(from low: Float, to high: Float) -> Bool {
            if high < top || low > bottom { return false }
            return skipped.isEmpty || low < skipped.lowerBound || high > skipped.upperBound
        }
    }

    /// Adds every edge of a closed polygon.
    @inlinable
    public func addPolygon(_ points: UnsafeBufferPointer<Point>) {
        guard points.count >= 2 else { return }
        var previous = points[points.count - 1]
        for p in points {
            addLine(previous, p)
            previous = p
        }
    }

    /// Adds one directed edge in device coordinates. Edges must form closed
    /// loops by the time of the sweep (the fill closes sub-paths itself).
    ///
    /// Where the edge crosses a row's top is worked out from the whole edge,
    /// the clip's top and bottom being rows like any other, so a row's cells
    /// are the same whichever rows the clip holds: a frame drawn in bands of
    /// rows, each clipped to its own, is the frame drawn whole.
    public func addLine(_ p0: Point, _ p1: Point) {
        // x from the clip's left side, y in device rows.
        var x0 = p0.x - Float(clip.x), y0 = p0.y
        var x1 = p1.x - Float(clip.x), y1 = p1.y
        guard y0 != y1, y0.isFinite, y1.isFinite, x0.isFinite, x1.isFinite else { return }
        var direction: Float = 1
        if y0 > y1 {
            swap(&x0, &x1); swap(&y0, &y1)
            direction = -1
        }
        let top = Float(clip.y), bottom = Float(clip.maxY), width = Float(clip.width)
        if y1 <= top || y0 >= bottom || width <= 0 { return }
        let edge = Edge(x0: x0, y0: y0, x1: x1, y1: y1, width: width)
        let ya = max(y0, top), yb = min(y1, bottom)
        // Skipped rows are cut out as the clip's top and bottom are: the rows
        // either side get the cells they get without the cut.
        if !skipped.isEmpty && ya < skipped.upperBound && yb > skipped.lowerBound {
            if ya < skipped.lowerBound { addPart(edge, from: ya, to: skipped.lowerBound, direction) }
            if yb > skipped.upperBound { addPart(edge, from: skipped.upperBound, to: yb, direction) }
            return
        }
        addPart(edge, from: ya, to: yb, direction)
    }

    /// Adds the part of `edge` between heights `ya` and `yb`, inside the clip's rows.
    private func addPart(_ edge: Edge, from ya: Float, to yb: Float, _ direction: Float) {
        let x0 = edge.x0, y0 = edge.y0, x1 = edge.x1, y1 = edge.y1, width = edge.width
        // Cut to nothing (a sliver at the clip's edge, in float): no rows to cover.
        guard yb > ya else { return }
        let xa = edge.line(at: ya), xb = edge.line(at: yb)
        if xa >= width && xb >= width { passesRightSide(); return }
        // Split where the edge leaves the clip's sides: left of the clip an edge
        // still sets coverage for the whole row (it runs down the left side);
        // right of it, it can change nothing visible.
        if x0 == x1 || (xa >= 0 && xb >= 0 && xa <= width && xb <= width) {
            accumulate(edge, from: ya, min(max(xa, 0), width), to: yb, min(max(xb, 0), width), direction)
            return
        }
        // Up to two cuts, where the edge crosses x = 0 and x = width, kept in y order.
        var cutA = yb, cutB = yb
        let tLeft = (0 - x0) / (x1 - x0), tRight = (width - x0) / (x1 - x0)
        if tLeft > 0 && tLeft < 1 { cutA = y0 + tLeft * (y1 - y0) }
        if tRight > 0 && tRight < 1 {
            let y = y0 + tRight * (y1 - y0)
            if cutA == yb { cutA = y } else { cutB = y }
        }
        if cutB < cutA { swap(&cutA, &cutB) }
        cutA = min(max(cutA, ya), yb)
        cutB = min(max(cutB, ya), yb)
        accumulateClamped(edge, from: ya, to: cutA, direction)
        accumulateClamped(edge, from: cutA, to: cutB, direction)
        accumulateClamped(edge, from: cutB, to: yb, direction)
    }

    /// An edge from its top (`x0`, `y0`) to its bottom, x from the clip's left side.
    struct Edge {
        let x0: Float, y0: Float, x1: Float, y1: Float
        let dxdy: Float
        let width: Float

        init(x0: Float, y0: Float, x1: Float, y1: Float, width: Float) {
            self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1
            dxdy = (x1 - x0) / (y1 - y0)
            self.width = width
        }

        /// Where the edge is at height `y`, held to the clip's sides: its
        /// ends where they are, and every height between from its top alone
        /// (`y - y0` is exact for the heights of its rows, and the product
        /// and sum small: as near the true line as stepping from row to row).
        @inline(__always)
        func x(at y: Float) -> Float { min(max(line(at: y), 0), width) }

        /// Where the edge is at height `y`, wherever that is.
        @inline(__always)
        func line(at y: Float) -> Float { y == y1 ? x1 : x0 + (y - y0) * dxdy }
    }

    /// The part of an edge between `ya` and `yb`, lying wholly on one side of
    /// each clip boundary, with its x held to the clip.
    private func accumulateClamped(_ edge: Edge, from ya: Float, to yb: Float, _ direction: Float) {
        if yb <= ya { return }
        let xa = edge.x(at: ya), xb = edge.x(at: yb)
        if xa >= edge.width && xb >= edge.width { passesRightSide(); return }
        accumulate(edge, from: ya, xa, to: yb, xb, direction)
    }

    /// Notes an edge right of the clip: the shape then covers some rows up to
    /// the clip's right side (the sweep paints them to the end), so the touched
    /// bounds must reach it too, though no cell there is touched.
    private func passesRightSide() {
        touchedMaxCell = max(touchedMaxCell, clip.width)
    }

    /// Adds `value` to cell `x` of the row whose cells start at `rowCells`, and marks its group.
    @inline(__always)
    private static func add(_ rowCells: UnsafeMutablePointer<Float>, _ rowBits: UnsafeMutablePointer<UInt64>, _ x: Int, _ value: Float) {
        rowCells[x] += value
        let mark = groupMark(x)
        rowBits[mark.word] |= mark.bit
    }

    /// The word of a row's bits, and the bit in it, that mark cell `x`'s group.
    @inline(__always)
    private static func groupMark(_ x: Int) -> (word: Int, bit: UInt64) {
        (x >> 8, 1 &<< UInt64((x >> 2) & 63))
    }

    /// Adds the part of `edge` between heights `ya` < `yb` (where it is at
    /// `xa` and `xb`), inside the clip's rows.
    private func accumulate(_ edge: Edge, from ya: Float, _ xa: Float, to yb: Float, _ xb: Float, _ direction: Float) {
        // Rows from the clip's top.
        let firstRow = Int(ya) - clip.y
        var endRow = Int(yb)
        if Float(endRow) < yb { endRow += 1 }
        endRow = min(endRow - clip.y, clip.height)
        touchedMinRow = min(touchedMinRow, firstRow)
        touchedMaxRow = max(touchedMaxRow, endRow - 1)
        touchedMinCell = min(touchedMinCell, Int(min(xa, xb)))
        touchedMaxCell = max(touchedMaxCell, Int(max(xa, xb)) + 2)
        // Row pointers in locals, advanced row by row: through self, every store
        // into the cells made the compiler load the buffer's address again, and
        // row × stride was a multiplication checked for overflow.
        let cellStride = self.cellStride, wordStride = self.wordStride
        var rowCells = cells + firstRow * cellStride, rowBits = bits + firstRow * wordStride
        if endRow - firstRow == 1 {
            Self.cover(rowCells, rowBits, from: xa, to: xb, height: (yb - ya) * direction)
            return
        }
        // The first and last rows are partial; every row between is a whole row high.
        let firstBoundary = Float(firstRow + clip.y + 1)
        var x = edge.x(at: firstBoundary)
        Self.cover(rowCells, rowBits, from: xa, to: x, height: (firstBoundary - ya) * direction)
        if edge.dxdy == 0 || x == xb {
            // A vertical edge (the side of a panel, a card, a crosshair; or
            // one held to the clip's side) adds the same two values to the
            // same two cells of every whole row: worked out once, as `cover`
            // works them out.
            let ia = Int(x), mid = x - Float(ia)
            let left = direction - direction * mid, right = direction * mid
            let leftMark = Self.groupMark(ia), rightMark = Self.groupMark(ia + 1)
            for _ in (firstRow + 1)..<(endRow - 1) {
                rowCells += cellStride
                rowBits += wordStride
                rowCells[ia] += left
                rowCells[ia + 1] += right
                rowBits[leftMark.word] |= leftMark.bit
                rowBits[rightMark.word] |= rightMark.bit
            }
        } else {
            // Rows strictly inside the edge: its line, held to the clip's
            // sides (no bounds at all where both ends lie a pixel inside them:
            // the line between cannot leave the clip).
            let x0 = edge.x0, y0 = edge.y0, dxdy = edge.dxdy
            let inside = min(xa, xb) >= 1 && max(xa, xb) <= edge.width - 1
            let low: Float = inside ? -.infinity : 0, high: Float = inside ? .infinity : edge.width
            var boundary = firstBoundary
            for _ in (firstRow + 1)..<(endRow - 1) {
                rowCells += cellStride
                rowBits += wordStride
                boundary += 1
                let xNext = min(max(x0 + (boundary - y0) * dxdy, low), high)
                Self.cover(rowCells, rowBits, from: x, to: xNext, height: direction)
                x = xNext
            }
        }
        rowCells += cellStride
        rowBits += wordStride
        Self.cover(rowCells, rowBits, from: x, to: xb, height: (yb - Float(endRow - 1 + clip.y)) * direction)
    }

    /// Adds the part of an edge within one row, from `xs` to `xe` (both in
    /// 0...width), `d` its height times its direction.
    @inline(__always)
    private static func cover(_ rowCells: UnsafeMutablePointer<Float>, _ rowBits: UnsafeMutablePointer<UInt64>,
                              from xs: Float, to xe: Float, height d: Float) {
        let xa = min(xs, xe), xb = max(xs, xe)
        // Both are ≥ 0 here, so truncation is floor (and avoids a libm call).
        let ia = Int(xa)
        let xaFloor = Float(ia)
        if xb <= xaFloor + 1 {
            // The edge stays inside one cell in this row (the common case, tested
            // without working out the last cell).
            let mid = 0.5 * (xs + xe) - xaFloor
            add(rowCells, rowBits, ia, d - d * mid)
            add(rowCells, rowBits, ia + 1, d * mid)
            return
        }
        var ib = Int(xb)
        if Float(ib) < xb { ib += 1 }
        let xbCeil = Float(ib)
        let s = 1 / (xb - xa)
        let fa = xa - xaFloor
        let a0 = 0.5 * s * (1 - fa) * (1 - fa)
        let fb = xb - xbCeil + 1
        let am = 0.5 * s * fb * fb
        add(rowCells, rowBits, ia, d * a0)
        if ib == ia + 2 {
            add(rowCells, rowBits, ia + 1, d * (1 - a0 - am))
        } else {
            let a1 = s * (1.5 - fa)
            add(rowCells, rowBits, ia + 1, d * (a1 - a0))
            var xi = ia + 2
            while xi < ib - 1 {
                add(rowCells, rowBits, xi, d * s)
                xi += 1
            }
            let a2 = a1 + Float(ib - ia - 3) * s
            add(rowCells, rowBits, ib - 1, d * (1 - a2 - am))
        }
        add(rowCells, rowBits, ib, d * am)
    }

    /// Converts the accumulated edges to spans, hands them to `painter`, and
    /// leaves the rasterizer empty for the next shape.
    @inlinable
    public func sweep<P: SpanPainter>(rule: FillRule, into painter: inout P) {
        sweepRows(rule: rule, into: &painter)
    }

    /// The bounding box of the last shape's edges, in device pixels, before the sweep.
    public var touchedBounds: IntRect {
        if touchedMinRow > touchedMaxRow { return .empty }
        let x0 = clip.x + max(touchedMinCell, 0), x1 = clip.x + min(touchedMaxCell, clip.width)
        return IntRect(x: x0, y: clip.y + touchedMinRow, width: max(x1 - x0, 0), height: touchedMaxRow - touchedMinRow + 1)
    }

    @usableFromInline
    func sweepRows<P: SpanPainter>(rule: FillRule, into painter: inout P) {
        if touchedMinRow > touchedMaxRow { return }
        let firstWord = max(touchedMinCell, 0) >> 8
        let lastWord = min(max(touchedMaxCell, 0), cellStride - 1) >> 8
        // The skipped rows hold no cells: only the rows above and below them
        // are swept (a band's shape crossing the inner bands' rows would
        // otherwise look through every word of each of those rows).
        let rows = touchedMinRow..<(touchedMaxRow + 1)
        let skip = skippedRows.isEmpty ? rows.upperBound..<rows.upperBound : skippedRows
        let aboveEnd = min(max(skip.lowerBound, rows.lowerBound), rows.upperBound)
        let belowStart = min(max(skip.upperBound, aboveEnd), rows.upperBound)
        func sweep(_ rows: Range<Int>) {
            // Two copies of the loop, so that the rule is a constant inside each.
            if rule == .evenOdd {
                for row in rows { sweepRow(row, firstWord, lastWord, evenOdd: true, into: &painter) }
            } else {
                for row in rows { sweepRow(row, firstWord, lastWord, evenOdd: false, into: &painter) }
            }
        }
        sweep(rows.lowerBound..<aboveEnd)
        sweep(belowStart..<rows.upperBound)
        touchedMinRow = .max; touchedMaxRow = .min
        touchedMinCell = .max; touchedMaxCell = .min
    }

    @inline(__always) @usableFromInline
    func sweepRow<P: SpanPainter>(_ row: Int, _ firstWord: Int, _ lastWord: Int, evenOdd: Bool, into painter: inout P) {
        let width = clip.width
        let y = clip.y + row
        let rowCells = cells + row * cellStride
        let rowBits = bits + row * wordStride
        var sum: Float = 0
        var runStart = 0
        var runCount = 0
        var lastEnd = 0   // first cell after the last touched group
        for w in firstWord...lastWord {
            var word = rowBits[w]
            if word == 0 { continue }
            rowBits[w] = 0
            while word != 0 {
                let x = ((w << 6) + word.trailingZeroBitCount) << 2
                word &= word &- 1
                if x != lastEnd {
                    // A gap of untouched groups: flush the run, then the gap at constant coverage.
                    if runCount > 0 {
                        painter.paintMaskedSpan(y: y, x0: clip.x + runStart, count: runCount, coverage: rowCoverage)
                        runCount = 0
                    }
                    let c = Self.coverage(sum, evenOdd: evenOdd)
                    let gapEnd = min(x, width)
                    if c > 0 && gapEnd > lastEnd {
                        painter.paintSpan(y: y, x0: clip.x + lastEnd, x1: clip.x + gapEnd, coverage: c)
                    }
                }
                // The group's running sums, its coverage in four lanes, and the cells cleared.
                let raw = UnsafeMutableRawPointer(rowCells + x)
                let v = raw.load(as: SIMD4<Float>.self)
                raw.storeBytes(of: SIMD4<Float>(), as: SIMD4<Float>.self)
                let s0 = sum + v[0], s1 = s0 + v[1], s2 = s1 + v[2], s3 = s2 + v[3]
                sum = s3
                if x < width {
                    let c = Self.coverage(SIMD4(s0, s1, s2, s3), evenOdd: evenOdd)
                    if P.paintsGroups && x + 4 <= width {
                        painter.paintGroup(y: y, x0: clip.x + x, coverage: c)
                    } else {
                        if runCount == 0 { runStart = x }
                        UnsafeMutableRawPointer(rowCoverage + runCount).storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: c), as: SIMD4<UInt8>.self)
                        runCount += min(4, width - x)
                    }
                }
                lastEnd = x + 4
            }
        }
        if runCount > 0 {
            painter.paintMaskedSpan(y: y, x0: clip.x + runStart, count: runCount, coverage: rowCoverage)
        }
        // A shape that runs past the clip's right side covers the rest of the row.
        if lastEnd < width {
            let c = Self.coverage(sum, evenOdd: evenOdd)
            if c > 0 { painter.paintSpan(y: y, x0: clip.x + lastEnd, x1: clip.x + width, coverage: c) }
        }
    }

    /// Coverage 0...255 of four running sums.
    @inline(__always) @usableFromInline
    static func coverage(_ sum: SIMD4<Float>, evenOdd: Bool) -> SIMD4<UInt32> {
        let magnitude = SIMD4<UInt32>(repeating: 0x7FFF_FFFF)
        var a = unsafeBitCast(unsafeBitCast(sum, to: SIMD4<UInt32>.self) & magnitude, to: SIMD4<Float>.self)
        if evenOdd {
            // The distance to the nearest even number: a triangle wave with
            // period 2. Rounded by adding and taking away 1.5 × 2^23, not by
            // `rounded(.down)`, which calls libm's floorf per lane without SSE4.1.
            let half = a * 0.5
            a -= 2 * ((half + 12_582_912) - 12_582_912)
            a = unsafeBitCast(unsafeBitCast(a, to: SIMD4<UInt32>.self) & magnitude, to: SIMD4<Float>.self)
        }
        // (Past 2^22 windings the rounding above fails: clamped all the same.)
        a = a.replacing(with: SIMD4<Float>(repeating: 1), where: a .> SIMD4<Float>(repeating: 1))
        // Rounded by adding 1.5 × 2^23, which leaves the integer in the low
        // mantissa bits (a conversion would check the range lane by lane).
        return unsafeBitCast(a * 255 + 12_582_912, to: SIMD4<UInt32>.self) & 0x1FF
    }

    @inline(__always) @usableFromInline
    static func coverage(_ sum: Float, evenOdd: Bool) -> UInt32 {
        var a = fabsf(sum)
        if evenOdd {
            a = fabsf(a - 2 * ((a * 0.5 + 12_582_912) - 12_582_912))
        }
        if a > 1 { a = 1 }
        // As the four-lane version rounds, so spans and runs agree.
        return (a * 255 + 12_582_912).bitPattern & 0x1FF
    }
}
