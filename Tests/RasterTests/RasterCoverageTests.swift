import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import Raster

/// Joins, caps, the miter limit, transforms, images, clips inside clips and
/// groups, and the damage each kind of drawing reports, checked against exact
/// areas and pixel values worked out by hand.
@Suite struct RasterCoverageTests {
    func coveredArea(_ buffer: PixelBuffer) -> Double { RasterExactnessTests().coveredArea(buffer) }

    func stroked(_ path: Path, _ style: StrokeStyle, size: Int = 60, transform: AffineTransform = .identity) -> PixelBuffer {
        let buffer = PixelBuffer(width: size, height: size)
        let canvas = Canvas(target: buffer)
        canvas.transform = transform
        canvas.stroke(path, style: style, with: .solid(.white))
        return buffer
    }

    /// An L: (10,40) → (40,40) → (40,10), a right-angle corner at (40,40).
    var corner: Path {
        var p = Path()
        p.move(to: Point(10, 40)); p.line(to: Point(40, 40)); p.line(to: Point(40, 10))
        return p
    }

    /// A shape wholly outside the clip draws nothing, and never reaches the
    /// rasterizer with an empty area: a dial gliding off a small screen while
    /// a flood of commands retargeted it crashed the kiosk that way.
    @Test func aShapeWhollyOutsideTheClipDrawsNothing() {
        let buffer = PixelBuffer(width: 100, height: 100)
        let canvas = Canvas(target: buffer)
        canvas.clip(to: Rect(x: 50, y: 50, width: 10, height: 10))
        var circle = Path()
        // Across y = 0 and left of the canvas: its box and the clip do not meet.
        circle.addCircle(center: Point(-10, 0), radius: 5)
        canvas.resetDamage()
        canvas.fill(circle, with: .solid(Color(hex: 0xFFFFFF)))
        canvas.stroke(circle, style: StrokeStyle(width: 3), with: .solid(Color(hex: 0xFFFFFF)))
        canvas.save()
        canvas.clip(to: circle)
        canvas.fill(circle, with: .solid(Color(hex: 0xFFFFFF)))
        canvas.restore()
        #expect(canvas.damage.isEmpty)
        #expect((0..<100).allSatisfy { y in (0..<100).allSatisfy { x in buffer[x, y] == 0 } })
        // The rasterizer itself, given an empty area, adds nothing either.
        let rasterizer = CoverageRasterizer()
        rasterizer.begin(clip: .empty)
        rasterizer.addLine(Point(0, -3), Point(0, 3))
        #expect(rasterizer.touchedBounds.isEmpty)
    }

    @Test func eachJoinFillsItsOwnShapeAtARightAngle() {
        // Two 30 × 6 bars overlapping in a 3 × 3 square cover 351; the join adds
        // the outer corner: a 3 × 3 square, a quarter disc or a half square.
        let half = 3.0
        let bars = 2 * 30 * 2 * half - half * half
        let cases: [(StrokeStyle.Join, Double)] = [(.miter, half * half), (.round, Double.pi * half * half / 4), (.bevel, half * half / 2)]
        for (join, extra) in cases {
            let area = coveredArea(stroked(corner, StrokeStyle(width: 6, join: join)))
            #expect(abs(area - (bars + extra)) < 0.3, "\(join): area \(area), expected \(bars + extra)")
        }
        let mitred = stroked(corner, StrokeStyle(width: 6, join: .miter))
        let bevelled = stroked(corner, StrokeStyle(width: 6, join: .bevel))
        #expect(mitred[42, 42] == 0xFFFF_FFFF && bevelled[42, 42] == 0, "the mitre's corner pixel is the bevel's gap")
    }

    @Test func squareCapsExtendByHalfTheWidth() {
        var line = Path(); line.move(to: Point(20, 30)); line.line(to: Point(40, 30))
        let area = coveredArea(stroked(line, StrokeStyle(width: 4, cap: .square)))
        #expect(abs(area - 4 * (20 + 4)) < 0.3, "area \(area)")
    }

    /// Two 30-long arms meeting at (30,45) with a 30° interior angle, stroked 4 wide.
    func sharpCorner(miterLimit: Float, join: StrokeStyle.Join = .miter) -> Double {
        let angle = Float.pi / 6
        var p = Path()
        p.move(to: Point(30 - 30 * sinf(angle / 2), 45 - 30 * cosf(angle / 2)))
        p.line(to: Point(30, 45))
        p.line(to: Point(30 + 30 * sinf(angle / 2), 45 - 30 * cosf(angle / 2)))
        return coveredArea(stroked(p, StrokeStyle(width: 4, join: join, miterLimit: miterLimit)))
    }

    @Test func aMiterPastItsLimitBecomesABevel() {
        // At 30° the miter is 1 / sin 15° = 3.86 half-widths long: within a limit
        // of 4, beyond a limit of 3.
        let bevel = sharpCorner(miterLimit: 4, join: .bevel)
        let limited = sharpCorner(miterLimit: 3)
        let mitred = sharpCorner(miterLimit: 4)
        #expect(abs(limited - bevel) < 0.05, "past the limit: \(limited) against the bevel's \(bevel)")
        // The miter adds the triangle between the bevel's chord and the tip.
        let h = 2.0, halfAngle = Double.pi / 12
        let tip = h / sin(halfAngle)
        let chordDistance = h * sin(halfAngle), chordHalf = h * cos(halfAngle)
        let triangle = chordHalf * (tip - chordDistance)
        #expect(abs((mitred - bevel) - triangle) < 0.3, "miter adds \(mitred - bevel), expected \(triangle)")
    }

    @Test func transformsMoveScaleAndRotateWhatIsDrawn() {
        // Scale 2 about the origin, then a translation: a 10 × 10 square lands on [25, 45).
        let buffer = PixelBuffer(width: 60, height: 60)
        let canvas = Canvas(target: buffer)
        canvas.transform = AffineTransform.scale(2, 2)
        canvas.translate(5, 5)
        #expect(canvas.transform.apply(Point(0, 0)) == Point(10, 10), "translate acts in user space")
        var square = Path(); square.addRect(Rect(x: 7.5, y: 7.5, width: 10, height: 10))
        canvas.fill(square, with: .solid(.white))
        #expect(buffer[25, 25] == 0xFFFF_FFFF && buffer[44, 44] == 0xFFFF_FFFF && buffer[24, 30] == 0 && buffer[45, 30] == 0)
        #expect(abs(coveredArea(buffer) - 400) < 0.01)
        // A rotation keeps the area and turns the corners: a 20-square at 45°
        // about its centre reaches 14.1 from the centre along the axes.
        let rotated = PixelBuffer(width: 60, height: 60)
        let r = Canvas(target: rotated)
        r.transform = AffineTransform.rotation(.pi / 4).concatenating(.translation(30, 30))
        var centred = Path(); centred.addRect(Rect(x: -10, y: -10, width: 20, height: 20))
        r.fill(centred, with: .solid(.white))
        #expect(abs(coveredArea(rotated) - 400) < 0.5)
        #expect(rotated[30, 17] == 0xFFFF_FFFF && rotated[42, 30] == 0xFFFF_FFFF, "the corners point along the axes")
        #expect(rotated[21, 21] == 0 && rotated[38, 38] == 0, "the unrotated corners are empty")
        // A stroke's width scales with the transform.
        var line = Path(); line.move(to: Point(2, 5)); line.line(to: Point(12, 5))
        let thick = stroked(line, StrokeStyle(width: 2), transform: .scale(3, 3))
        #expect(abs(coveredArea(thick) - 30 * 6) < 0.5)
    }

    @Test func anImageIsCompositedWhereItIsPutClippedAndFaded() {
        let image = PixelBuffer(width: 10, height: 10)
        image.fill(Color(red: 1, green: 0, blue: 0, alpha: 1).premultipliedPixel, in: IntRect(x: 0, y: 0, width: 10, height: 5))
        image.fill(Color(red: 0, green: 0, blue: 1, alpha: 0.5).premultipliedPixel, in: IntRect(x: 0, y: 5, width: 10, height: 5))
        let buffer = PixelBuffer(width: 20, height: 20)
        let canvas = Canvas(target: buffer)
        canvas.clear(.black)
        canvas.resetDamage()
        canvas.draw(image, x: -4, y: 12)
        // Its top-left 4 columns fall off the left edge, its last 2 rows off the bottom.
        #expect(buffer[0, 12] == 0xFFFF_0000 && buffer[5, 16] == 0xFFFF_0000 && buffer[6, 12] == 0xFF00_0000)
        #expect(buffer[0, 17] == 0xFF00_0080, "half-transparent blue over black: \(String(buffer[0, 17], radix: 16))")
        #expect(canvas.damage == IntRect(x: 0, y: 12, width: 6, height: 8))
        // Opacity multiplies the image's alpha; the clip limits it.
        let faded = PixelBuffer(width: 20, height: 20)
        let f = Canvas(target: faded)
        f.clear(.black)
        f.clip(to: Rect(x: 5, y: 0, width: 20, height: 20))
        f.draw(image, x: 2, y: 2, opacity: 0.5)
        #expect(faded[4, 3] == 0xFF00_0000, "left of the clip")
        #expect(faded[5, 3] == 0xFF80_0000, "opaque red at half opacity: \(String(faded[5, 3], radix: 16))")
    }

    @Test func nestedClipsIntersectAndRestoreUndoesOneAtATime() {
        let buffer = PixelBuffer(width: 50, height: 50)
        let canvas = Canvas(target: buffer)
        var full = Path(); full.addRect(Rect(x: 0, y: 0, width: 50, height: 50))
        var disc = Path(); disc.addCircle(center: Point(25, 25), radius: 10)
        canvas.save()
        canvas.clip(to: disc)
        canvas.save()
        canvas.clip(to: Rect(x: 25, y: 0, width: 25, height: 50))
        canvas.fill(full, with: .solid(.white))
        #expect(abs(coveredArea(buffer) - 50 * Double.pi) < 1, "half the disc: \(coveredArea(buffer))")
        #expect(buffer[20, 25] == 0 && buffer[30, 25] == 0xFFFF_FFFF)
        canvas.restore()
        buffer.fill(0)
        canvas.fill(full, with: .solid(.white))
        #expect(abs(coveredArea(buffer) - 100 * Double.pi) < 1, "back to the whole disc")
        canvas.restore()
        canvas.fill(full, with: .solid(.white))
        #expect(coveredArea(buffer) == 2500)
        // A path clip inside a path clip: a ring (even-odd) cut by a disc.
        let ring = PixelBuffer(width: 50, height: 50)
        let r = Canvas(target: ring)
        var squares = Path()
        squares.addRect(Rect(x: 5, y: 5, width: 40, height: 40))
        squares.addRect(Rect(x: 15, y: 15, width: 20, height: 20))
        r.clip(to: squares, rule: .evenOdd)
        var big = Path(); big.addCircle(center: Point(25, 25), radius: 100)
        r.clip(to: big)
        r.fill(full, with: .solid(.white))
        #expect(abs(coveredArea(ring) - (1600 - 400)) < 0.5)
        #expect(ring[25, 25] == 0 && ring[10, 25] == 0xFFFF_FFFF)
    }

    @Test func aClipInsideAGroupEndsWithTheGroup() {
        let buffer = PixelBuffer(width: 40, height: 40)
        let canvas = Canvas(target: buffer)
        canvas.clear(.black)
        var full = Path(); full.addRect(Rect(x: 0, y: 0, width: 40, height: 40))
        canvas.beginGroup(opacity: 1)
        var disc = Path(); disc.addCircle(center: Point(10, 10), radius: 5)
        canvas.clip(to: disc)
        canvas.fill(full, with: .solid(.white))
        canvas.endGroup()
        #expect(buffer[10, 10] == 0xFFFF_FFFF && buffer[30, 30] == 0xFF00_0000, "the group's drawing is clipped")
        var corner = Path(); corner.addRect(Rect(x: 30, y: 30, width: 5, height: 5))
        canvas.fill(corner, with: .solid(.white))
        #expect(buffer[32, 32] == 0xFFFF_FFFF, "after the group the clip is gone")
        // A group inside a clip is clipped too.
        let clipped = PixelBuffer(width: 40, height: 40)
        let c = Canvas(target: clipped)
        c.clip(to: Rect(x: 0, y: 0, width: 20, height: 40))
        c.beginGroup(opacity: 1)
        c.fill(full, with: .solid(.white))
        c.endGroup()
        #expect(clipped[19, 5] == 0xFFFF_FFFF && clipped[20, 5] == 0)
    }

    /// Damage holds `drawn`, with at most the rasterizer's two carry cells to its right.
    /// A disc with a gradient, and a mitred zigzag stroked wide, in the middle of a large canvas.
    func drawShapes(on canvas: Canvas) {
        var disc = Path(); disc.addCircle(center: Point(230.3, 170.7), radius: 61.4)
        canvas.fill(disc, with: .gradient(.radial(center: Point(230, 170), radius: 61, stops: GradientStops(
            GradientStop(0, .white), GradientStop(1, Color(red: 0.1, green: 0.4, blue: 0.7))))))
        var zigzag = Path()
        zigzag.move(to: Point(150.2, 300.6)); zigzag.line(to: Point(190.5, 250.1)); zigzag.line(to: Point(205.9, 310.3))
        canvas.stroke(zigzag, style: StrokeStyle(width: 7, join: .miter, miterLimit: 10), with: .solid(.white))
    }

    /// The pixels of `drawn` that differ from `expected`'s, and those `expected` inked.
    static func compare(_ expected: PixelBuffer, _ drawn: PixelBuffer) -> (differing: Int, inked: Int) {
        var differing = 0, inked = 0
        for y in 0..<expected.height {
            for x in 0..<expected.width {
                if expected[x, y] != drawn[x, y] { differing += 1 }
                if expected[x, y] != 0 { inked += 1 }
            }
        }
        return (differing, inked)
    }

    @Test func aShapeDrawsTheSamePixelsWhateverTheClipAroundIt() {
        // A shape is rasterized relative to its own box: a clip that does not
        // cut it (here one starting at another origin) changes no pixel. A
        // cached layer redrawn under a smaller clip depends on this.
        let open = PixelBuffer(width: 640, height: 480)
        drawShapes(on: Canvas(target: open))
        let clipped = PixelBuffer(width: 640, height: 480)
        let canvas = Canvas(target: clipped)
        canvas.clip(to: Rect(x: 37, y: 41, width: 400, height: 400))
        drawShapes(on: canvas)
        let (differing, inked) = Self.compare(open, clipped)
        #expect(inked > 10_000 && differing == 0, "\(differing) pixels differ of \(inked) inked")
    }

    /// A frame drawn in bands of rows, each clipped to its own (as threads
    /// draw a whole frame), is the frame drawn whole, byte for byte: edges cut
    /// at a band's top or bottom cross the rows as they do uncut, and a radial
    /// ramp mirrored about a centre off the pixel grid gives a row the same
    /// colours whether its mirror row was drawn first or not.
    @Test(arguments: [1, 2, 3, 7, 64])
    func aFrameDrawnInBandsOfRowsIsTheFrameDrawnWhole(bandHeight: Int) {
        func draw(on canvas: Canvas) {
            drawShapes(on: canvas)
            // Off the grid, larger than a band, a gentle ramp: mirrored about rows and columns.
            var disc = Path(); disc.addCircle(center: Point(400.37, 240.61), radius: 150.2)
            canvas.fill(disc, with: .gradient(.radial(center: Point(400.37, 240.61), radius: 150.2, stops: GradientStops(
                GradientStop(0, Color(hex: 0x17453C)), GradientStop(1, Color(hex: 0x0B1721))))))
            var wedge = Path(); wedge.move(to: Point(400.37, 240.61)); wedge.line(to: Point(610.2, 41.3)); wedge.line(to: Point(620.8, 470.1))
            wedge.close()
            canvas.fill(wedge, with: .gradient(.conic(center: Point(400.37, 240.61), startAngle: 0.3, stops: GradientStops(
                GradientStop(0, Color(hex: 0x6CFFB5, alpha: 0)), GradientStop(1, Color(hex: 0x6CFFB5, alpha: 0.6))))))
        }
        let whole = PixelBuffer(width: 640, height: 480)
        draw(on: Canvas(target: whole))
        let banded = PixelBuffer(width: 640, height: 480)
        for top in stride(from: 0, to: 480, by: bandHeight) {
            let canvas = Canvas(target: banded)
            canvas.clip(to: Rect(x: 0, y: Float(top), width: 640, height: Float(min(bandHeight, 480 - top))))
            draw(on: canvas)
        }
        let (differing, inked) = Self.compare(whole, banded)
        #expect(inked > 60_000 && differing == 0, "bands of \(bandHeight) rows: \(differing) pixels differ of \(inked) inked")
    }

    /// A band in two parts, the rows between skipped (another thread's):
    /// with the rows between drawn by a second canvas, the frame drawn whole,
    /// whatever each part holds of the shapes, the disc, a glyph mask, an
    /// image and an opacity group; and the skipped rows never written.
    @Test(arguments: [(100, 300), (240, 241), (0, 200), (300, 480), (238, 244)])
    func aBandWithRowsSkippedDrawsTheFrameAroundThem(skipped: (Int, Int)) {
        let glyph = AlphaMask(width: 40, height: 30)
        for y in 0..<30 { for x in 0..<40 { glyph.row(y)[x] = UInt8((x * 7 + y * 11) % 256) } }
        let image = PixelBuffer(width: 50, height: 70)
        image.fill(Color(hex: 0x3366CC, alpha: 0.8).premultipliedPixel)
        func draw(on canvas: Canvas) {
            drawShapes(on: canvas)
            var disc = Path(); disc.addCircle(center: Point(400.37, 240.61), radius: 150.2)
            canvas.fill(disc, with: .gradient(.radial(center: Point(400.37, 240.61), radius: 150.2, stops: GradientStops(
                GradientStop(0, Color(hex: 0x17453C)), GradientStop(1, Color(hex: 0x0B1721))))))
            canvas.fill(mask: glyph, x: 420, y: 225, with: .solid(Color(hex: 0xE8F1F2)))
            canvas.draw(image, x: 500, y: 200, opacity: 0.7)
            canvas.beginGroup(opacity: 0.5)
            var box = Path(); box.addRect(Rect(x: 30.5, y: 90.25, width: 580, height: 300))
            canvas.fill(box, with: .solid(Color(hex: 0xF2C46C)))
            canvas.endGroup()
        }
        let sentinel: UInt32 = 0xFF12_3456
        let parts = PixelBuffer(width: 640, height: 480)
        parts.fill(sentinel)
        let outer = Canvas(target: parts)
        outer.skippedRows = skipped.0..<skipped.1
        outer.clear(.black)
        draw(on: outer)
        let untouched = (skipped.0..<skipped.1).allSatisfy { y in (0..<640).allSatisfy { parts[$0, y] == sentinel } }
        #expect(untouched, "rows \(skipped.0)..<\(skipped.1) are another's")
        let inner = Canvas(target: parts)
        inner.clip(to: Rect(x: 0, y: Float(skipped.0), width: 640, height: Float(skipped.1 - skipped.0)))
        inner.clear(.black)
        draw(on: inner)
        let reference = PixelBuffer(width: 640, height: 480)
        let plain = Canvas(target: reference)
        plain.clear(.black)
        draw(on: plain)
        let (differing, inked) = Self.compare(reference, parts)
        #expect(inked > 60_000 && differing == 0, "rows \(skipped.0)..<\(skipped.1) skipped: \(differing) pixels differ of \(inked) inked")
    }

    @Test func aShapeNeedsCellsForItsOwnBoxNotTheWholeClip() {
        // At 1920x1080 a full clip's cells are 8 MB; the shapes here span about 130 x 190.
        let canvas = Canvas(target: PixelBuffer(width: 1920, height: 1080))
        drawShapes(on: canvas)
        #expect(canvas.rasterizer.cellCapacity < 200 * 200, "\(canvas.rasterizer.cellCapacity) cells")
        // A sharp miter reaches past the path by up to its limit: nothing of it is lost.
        let tip = PixelBuffer(width: 640, height: 480)
        drawShapes(on: Canvas(target: tip))
        // The tip is 7.9 px beyond the vertex (190.5, 250.1), at about (192.2, 242.4).
        func row(_ y: Int) -> [UInt32] { (186...198).map { x in tip[x, y] & 0xFF } }
        #expect(row(242).contains { $0 > 0 } && row(244).contains(255), "the miter's tip beyond the vertex is drawn: \(row(242)) \(row(244))")
    }

    @Test func cellsGivenBackDrawTheSameAfterwards() {
        // A large shape first, so the cells span most of the canvas, then the
        // memory given back: the shapes drawn after must not see old coverage.
        let fresh = PixelBuffer(width: 640, height: 480)
        drawShapes(on: Canvas(target: fresh))
        let reused = PixelBuffer(width: 640, height: 480)
        let canvas = Canvas(target: reused)
        var large = Path(); large.addCircle(center: Point(320, 240), radius: 230)
        canvas.fill(large, with: .solid(.white))
        canvas.releaseUnusedMemory()
        reused.fill(0)
        drawShapes(on: canvas)
        var differing = 0
        for y in 0..<480 { for x in 0..<640 where fresh[x, y] != reused[x, y] { differing += 1 } }
        #expect(differing == 0, "\(differing) pixels differ after the cells were given back")
    }

    func expectTight(_ damage: IntRect, around drawn: IntRect, _ what: String) {
        #expect(damage.contains(drawn) && IntRect(x: drawn.x, y: drawn.y, width: drawn.width + 2, height: drawn.height).contains(damage),
                "\(what): damage \(damage) for \(drawn)")
    }

    @Test func damageCoversStrokesMasksAndGroupsAndNoMore() {
        let buffer = PixelBuffer(width: 100, height: 100)
        let canvas = Canvas(target: buffer)
        var line = Path(); line.move(to: Point(20, 50)); line.line(to: Point(60, 50))
        canvas.stroke(line, style: StrokeStyle(width: 6, cap: .round), with: .solid(.white))
        // Round caps reach 3 px beyond each end and 3 px either side.
        expectTight(canvas.damage, around: IntRect(x: 17, y: 47, width: 46, height: 6), "round-capped stroke")
        // A glyph mask damages its rectangle (clipped to the canvas).
        canvas.resetDamage()
        let mask = AlphaMask(width: 8, height: 12)
        canvas.fill(mask: mask, x: 95, y: 10, with: .solid(.white))
        #expect(canvas.damage == IntRect(x: 95, y: 10, width: 5, height: 12))
        // A group damages what its children drew, not its whole layer.
        canvas.resetDamage()
        canvas.beginGroup(opacity: 0.5)
        var small = Path(); small.addRect(Rect(x: 70, y: 70, width: 10, height: 10))
        canvas.fill(small, with: .solid(.white))
        canvas.endGroup()
        expectTight(canvas.damage, around: IntRect(x: 70, y: 70, width: 10, height: 10), "group")
        // A transformed fill's damage is in device space.
        canvas.resetDamage()
        canvas.transform = .scale(2, 2)
        var unit = Path(); unit.addRect(Rect(x: 5, y: 5, width: 5, height: 5))
        canvas.fill(unit, with: .solid(.white))
        expectTight(canvas.damage, around: IntRect(x: 10, y: 10, width: 10, height: 10), "transformed fill")
    }
}
