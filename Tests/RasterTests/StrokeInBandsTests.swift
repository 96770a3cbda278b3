import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import Raster

/// A stroke drawn in a band of rows outlines only the segments that can reach
/// the band (and their neighbours, for the joins), and draws the pixels the
/// whole outline draws there: rings, open and closed polylines, every join
/// and cap, repeated points, hairlines, the polyline's first vertex inside
/// the band and outside it.
@Suite struct StrokeInBandsTests {
    static let width = 640, height = 480

    /// Strokes of every kind crossing the frame's rows.
    func strokes(on canvas: Canvas) {
        var ring = Path(); ring.addCircle(center: Point(320.4, 240.3), radius: 210.7)
        canvas.stroke(ring, style: StrokeStyle(width: 3), with: .solid(Color(hex: 0x2A6B5E)))
        var thick = Path(); thick.addEllipse(in: Rect(x: 60.2, y: 30.9, width: 260.5, height: 410.3))
        canvas.stroke(thick, style: StrokeStyle(width: 17, join: .round), with: .solid(Color(hex: 0x88C0D0, alpha: 0.8)))
        // A zigzag down the frame: sharp miters, then bevels, with round and square caps.
        for (i, join) in [StrokeStyle.Join.miter, .bevel, .round].enumerated() {
            var zigzag = Path()
            zigzag.move(to: Point(380 + Float(i) * 70, 8.3))
            for k in 1...14 { zigzag.line(to: Point(380 + Float(i) * 70 + (k % 2 == 0 ? 0 : 41.7), 8.3 + Float(k) * 33.1)) }
            let cap: StrokeStyle.Cap = i == 0 ? .butt : (i == 1 ? .round : .square)
            canvas.stroke(zigzag, style: StrokeStyle(width: 6.5, cap: cap, join: join, miterLimit: 10), with: .solid(.white))
        }
        // A closed star whose first vertex is low in the frame, with repeated points.
        var star = Path()
        for k in 0..<10 {
            let angle = Float(k) * .pi / 5 + 1.3, r: Float = k % 2 == 0 ? 190 : 80
            let p = Point(250 + r * cosf(angle), 250 + r * sinf(angle))
            if k == 0 { star.move(to: p) } else { star.line(to: p) }
            if k == 4 { star.line(to: p) }
        }
        star.close()
        canvas.stroke(star, style: StrokeStyle(width: 9, join: .miter, miterLimit: 4), with: .solid(Color(hex: 0xF2C46C, alpha: 0.7)))
        // A sharp chevron: its miter's tip reaches 24 px past the vertex, below every segment's rows.
        var chevron = Path(); chevron.move(to: Point(100.3, 300.2)); chevron.line(to: Point(110.3, 380.2)); chevron.line(to: Point(120.3, 300.2))
        canvas.stroke(chevron, style: StrokeStyle(width: 6, join: .miter, miterLimit: 10), with: .solid(.white))
        // A hairline and a curve.
        var hair = Path(); hair.move(to: Point(10.5, 470.2)); hair.line(to: Point(630.1, 3.7))
        canvas.stroke(hair, style: StrokeStyle(width: 0.6), with: .solid(.white))
        var curve = Path(); curve.move(to: Point(20, 20)); curve.curve(to: Point(600, 460), control1: Point(700, 10), control2: Point(-80, 500))
        canvas.stroke(curve, style: StrokeStyle(width: 4, cap: .round), with: .solid(Color(hex: 0xE06C75)))
    }

    func whole() -> PixelBuffer {
        let buffer = PixelBuffer(width: Self.width, height: Self.height)
        let canvas = Canvas(target: buffer)
        canvas.clear(.black)
        strokes(on: canvas)
        return buffer
    }

    @Test(arguments: [[0, 160, 320, 480], [0, 1, 479, 480], [0, 37, 238, 243, 480], [0, 229, 395, 480]])
    func bandsCutAcrossTheStrokesDrawTheWholeFrame(cuts: [Int]) {
        let expected = whole()
        let banded = PixelBuffer(width: Self.width, height: Self.height)
        for (top, bottom) in zip(cuts, cuts.dropFirst()) {
            let canvas = Canvas(target: banded)
            canvas.clip(to: Rect(x: 0, y: Float(top), width: Float(Self.width), height: Float(bottom - top)))
            canvas.clear(.black)
            strokes(on: canvas)
        }
        let (differing, inked) = RasterCoverageTests.compare(expected, banded)
        #expect(inked > 40_000 && differing == 0, "cuts \(cuts): \(differing) pixels differ of \(inked) inked")
    }

    @Test(arguments: [(100, 300), (240, 241), (0, 200), (300, 480), (12, 470), (200, 395)])
    func aBandWithRowsSkippedDrawsTheStrokesAroundThem(skipped: (Int, Int)) {
        let expected = whole()
        let banded = PixelBuffer(width: Self.width, height: Self.height)
        let outer = Canvas(target: banded)
        outer.skippedRows = skipped.0..<skipped.1
        outer.clear(.black)
        strokes(on: outer)
        let inner = Canvas(target: banded)
        inner.clip(to: Rect(x: 0, y: Float(skipped.0), width: Float(Self.width), height: Float(skipped.1 - skipped.0)))
        inner.clear(.black)
        strokes(on: inner)
        let (differing, inked) = RasterCoverageTests.compare(expected, banded)
        #expect(inked > 40_000 && differing == 0, "rows \(skipped.0)..<\(skipped.1) skipped: \(differing) pixels differ of \(inked) inked")
    }

    @Test func aThinBandOutlinesLittleOfTheStrokes() {
        let all = Canvas(target: PixelBuffer(width: Self.width, height: Self.height))
        strokes(on: all)
        let band = Canvas(target: PixelBuffer(width: Self.width, height: Self.height))
        band.clip(to: Rect(x: 0, y: 200, width: Float(Self.width), height: 40))
        strokes(on: band)
        // A twelfth of the rows; the joins' neighbours and the strokes' width add a little.
        let share = Double(band.stroker.segmentsOutlined) / Double(all.stroker.segmentsOutlined)
        #expect(all.stroker.segmentsOutlined > 300 && share < 0.25,
                "\(band.stroker.segmentsOutlined) of \(all.stroker.segmentsOutlined) segments outlined for rows 200..<240")
        let rim = Canvas(target: PixelBuffer(width: Self.width, height: Self.height))
        rim.skippedRows = 20..<460
        strokes(on: rim)
        let rimShare = Double(rim.stroker.segmentsOutlined) / Double(all.stroker.segmentsOutlined)
        #expect(rimShare < 0.35, "\(rim.stroker.segmentsOutlined) of \(all.stroker.segmentsOutlined) segments outlined for rows 0..<20 and 460..<480")
    }
}
