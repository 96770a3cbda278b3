import Testing
@testable import Raster

/// A circle's stroke drawn from each pixel's distance to the centre must
/// be the ring the rasterizer draws from the stroked outline, up to the
/// difference between two exact-area antialiasers (the outline's chords and
/// Bézier arcs against the true circle).
@Suite struct CircleStrokeTests {
    func ring(_ draw: (Canvas) -> Void) -> PixelBuffer {
        let buffer = PixelBuffer(width: 240, height: 200)
        buffer.fill(0xFF15_303A)
        draw(Canvas(target: buffer))
        return buffer
    }

    /// Mean and largest difference of the green channel, and the pixels the ring changed.
    func compare(_ a: PixelBuffer, _ b: PixelBuffer) -> (mean: Double, worst: Int, inked: Int) {
        var total = 0, worst = 0, inked = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = Int((a[x, y] >> 8) & 0xFF), q = Int((b[x, y] >> 8) & 0xFF)
                if q != 0x30 { inked += 1 }
                total += abs(p - q)
                worst = max(worst, abs(p - q))
            }
        }
        return (Double(total) / Double(max(inked, 1)), worst, inked)
    }

    @Test(arguments: [(Float(95.5), Float(1.5)), (60.25, 0.67), (33.7, 4), (12, 1), (80, 12)])
    func matchesTheStrokedOutline(radius: Float, width: Float) {
        let center = Point(120.3, 99.8)
        let paint = Paint.solid(Color(hex: 0x6CFFB5, alpha: 0.8))
        let analytic = ring { $0.strokeCircle(center: center, radius: radius, style: StrokeStyle(width: width), with: paint) }
        let outline = ring { canvas in
            var path = Path(); path.addCircle(center: center, radius: radius)
            canvas.stroke(path, style: StrokeStyle(width: width), with: paint)
        }
        let d = compare(analytic, outline)
        // About 0.02 px between the true circle and the outline's Bézier arcs
        // and chords: 3 levels of the 166 the ring adds, at most 16.
        #expect(d.inked > Int(radius * 5) && d.mean < 4 && d.worst <= 16,
                "radius \(radius), width \(width): mean \(d.mean) over \(d.inked) pixels, worst \(d.worst)")
    }

    @Test(arguments: [(Float(95.5), Float(1.5)), (60.25, 0.67), (12, 1), (33.7, 4)])
    func coversWhatTheAnnulusCovers(radius: Float, width: Float) {
        // White on black: each pixel's level is its coverage, against 16 x 16
        // samples of the true annulus (a hairline: a pixel wide, less alpha).
        let center = Point(120.3, 99.8)
        let drawn = PixelBuffer(width: 240, height: 200)
        Canvas(target: drawn).strokeCircle(center: center, radius: radius, style: StrokeStyle(width: width), with: .solid(.white))
        let band = max(width, 1) / 2, alpha = min(width, 1)
        var total = 0.0, worst = 0.0, pixels = 0
        for y in 0..<200 {
            for x in 0..<240 {
                var inside = 0
                for sy in 0..<16 {
                    for sx in 0..<16 {
                        let dx = Float(x) + (Float(sx) + 0.5) / 16 - center.x, dy = Float(y) + (Float(sy) + 0.5) / 16 - center.y
                        let d = (dx * dx + dy * dy).squareRoot()
                        if d >= radius - band && d <= radius + band { inside += 1 }
                    }
                }
                let expected = Double(inside) / 256 * 255 * Double(alpha)
                let level = Double(drawn[x, y] >> 8 & 0xFF)
                if inside > 0 || level > 0 {
                    pixels += 1
                    total += abs(level - expected)
                    worst = max(worst, abs(level - expected))
                }
            }
        }
        // 0.3 to 1.0 levels on average, 6.4 at worst; the stroked outline's
        // Bézier arcs and chords are 2.3 to 4.5 levels off, 19 at worst.
        #expect(total / Double(pixels) < 1.25 && worst < 8, "radius \(radius), width \(width): mean \(total / Double(pixels)), worst \(worst)")
    }

    @Test func keepsToTheClipAndReportsItsDamage() {
        let buffer = PixelBuffer(width: 240, height: 200)
        let canvas = Canvas(target: buffer)
        canvas.clip(to: Rect(x: 100, y: 0, width: 60, height: 120))
        canvas.strokeCircle(center: Point(120, 100), radius: 70, style: StrokeStyle(width: 3), with: .solid(.white))
        var outside = 0, inside = 0
        for y in 0..<200 {
            for x in 0..<240 where buffer[x, y] != 0 {
                if x >= 100 && x < 160 && y < 120 { inside += 1 } else { outside += 1 }
            }
        }
        #expect(inside > 100 && outside == 0, "\(inside) inside the clip, \(outside) outside")
        // The ring reaches from y 28.5; its box is grown by a pixel.
        #expect(canvas.damage == IntRect(x: 100, y: 27, width: 60, height: 93), "damage \(canvas.damage)")
    }
}
