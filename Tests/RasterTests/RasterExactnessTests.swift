import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import Raster

/// Coverage sums and pixel arithmetic that a rasterizer must get exactly right.
@Suite struct RasterExactnessTests {
    /// Sums alpha over a buffer: with opaque white on transparent black it is the covered area × 255.
    func coveredArea(_ buffer: PixelBuffer) -> Double {
        var sum = 0
        for y in 0..<buffer.height {
            for x in 0..<buffer.width { sum += Int(buffer[x, y] >> 24) }
        }
        return Double(sum) / 255
    }

    @Test(arguments: [3.3 as Float, 10, 47.5, 120.25])
    func discCoverageEqualsItsArea(radius: Float) {
        let size = Int(radius * 2) + 8
        let buffer = PixelBuffer(width: size, height: size)
        let canvas = Canvas(target: buffer)
        var path = Path()
        path.addCircle(center: Point(Float(size) / 2 + 0.37, Float(size) / 2 - 0.21), radius: radius)
        canvas.fill(path, with: .solid(.white))
        let expected = Double.pi * Double(radius) * Double(radius)
        let area = coveredArea(buffer)
        // 8-bit quantisation of edge pixels adds at most 0.5/255 per edge pixel.
        let tolerance = max(expected * 0.001, 2 * Double.pi * Double(radius) * 0.5 / 255 + 0.5)
        #expect(abs(area - expected) <= tolerance, "area \(area), expected \(expected)")
    }

    @Test func sharedEdgeLeavesNoSeam() {
        // Two triangles sharing a diagonal make a square: every pixel inside is fully covered.
        let buffer = PixelBuffer(width: 40, height: 40)
        let canvas = Canvas(target: buffer)
        var a = Path(), b = Path()
        a.move(to: Point(5.3, 4.7)); a.line(to: Point(35.1, 4.7)); a.line(to: Point(5.3, 35.9)); a.close()
        b.move(to: Point(35.1, 4.7)); b.line(to: Point(35.1, 35.9)); b.line(to: Point(5.3, 35.9)); b.close()
        // Additive coverage: draw both with a plus-like blend by using opaque colour in two passes
        // onto a coverage mask, then check the sum.
        let mask = AlphaMask(width: 40, height: 40)
        let rasterizer = CoverageRasterizer()
        rasterizer.begin(clip: buffer.bounds)
        var flat = FlattenedPath()
        for p in [a, b] {
            flat.flatten(p, transform: .identity)
            flat.points.withUnsafeBufferPointer { rasterizer.addPolygon($0) }
        }
        var painter = MaskPainter(mask: mask)
        rasterizer.sweep(rule: .nonZero, into: &painter)
        for y in 6..<35 {
            for x in 6..<35 { #expect(mask[x, y] == 255, "pixel \(x),\(y) = \(mask[x, y])") }
        }
        _ = canvas
    }

    @Test func sourceOverMatchesTheExactFormulaForEveryByte() {
        for sa in stride(from: 0, through: 255, by: 1) {
            for d in stride(from: 0, through: 255, by: 3) {
                for sc in Set([0, sa / 3, sa]) {
                    let src = UInt32(sa) << 24 | UInt32(sc)
                    let dst = UInt32(d) << 24 | UInt32(d)
                    let out = PixelMath.sourceOver(src, dst)
                    let exactColor = Double(sc) + Double(d) * Double(255 - sa) / 255
                    let exactAlpha = Double(sa) + Double(d) * Double(255 - sa) / 255
                    #expect(abs(Double(out & 0xFF) - exactColor) <= 1)
                    #expect(abs(Double(out >> 24) - exactAlpha) <= 1)
                }
            }
        }
    }

    @Test func vectorBlendMatchesScalarBlend() {
        let count = 37
        let a = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        let b = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        let src = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        defer { a.deallocate(); b.deallocate(); src.deallocate() }
        var seed: UInt32 = 12345
        func next() -> UInt32 { seed = seed &* 1_664_525 &+ 1_013_904_223; return seed }
        for i in 0..<count {
            let d = next(); a[i] = d; b[i] = d
            let alpha = next() >> 24
            src[i] = PixelMath.scale(next() | 0xFF00_0000, by: alpha)
        }
        // A group of eight opaque sources (copied) and one of transparent ones (skipped).
        for i in 0..<8 { src[i] |= 0xFF00_0000 }
        for i in 8..<16 { src[i] = 0 }
        SpanCompositor.blend(a, source: src, count: count, coverage: 255)
        for i in 0..<count { #expect(a[i] == PixelMath.sourceOver(src[i], b[i])) }
        for i in 0..<count { a[i] = b[i] }
        SpanCompositor.blend(a, source: src, count: count, coverage: 140)
        for i in 0..<count { #expect(a[i] == PixelMath.sourceOver(PixelMath.scale(src[i], by: 140), b[i])) }
        let solid = PixelMath.scale(0xFF33_77AA, by: 140)
        for i in 0..<count { a[i] = b[i] }
        SpanCompositor.blendSolid(a, count: count, source: solid)
        for i in 0..<count { #expect(a[i] == PixelMath.sourceOver(solid, b[i])) }
    }

    @Test func vectorScaleMatchesScalarScaleForEveryByteAndAlpha() {
        // Eight and four lanes, every channel value against every alpha, a different alpha per lane.
        var mismatches = 0
        for alpha in 0...255 as ClosedRange<UInt32> {
            for base in stride(from: 0 as UInt32, through: 248, by: 8) {
                var pixels = SIMD8<UInt32>(), alphas = SIMD8<UInt32>()
                for k in 0..<8 {
                    let c = base + UInt32(k)
                    pixels[k] = c << 24 | (255 - c) << 16 | (c ^ 0xA5) << 8 | (c &* 7) & 0xFF
                    alphas[k] = (alpha + UInt32(k) * 37) & 0xFF
                }
                let eight = PixelVector.scale(pixels, by: alphas)
                let four = PixelVector.scale(SIMD4(pixels[4], pixels[5], pixels[6], pixels[7]),
                                             by: SIMD4(alphas[4], alphas[5], alphas[6], alphas[7]))
                for k in 0..<8 where eight[k] != PixelMath.scale(pixels[k], by: alphas[k]) { mismatches += 1 }
                for k in 0..<4 where four[k] != PixelMath.scale(pixels[k + 4], by: alphas[k + 4]) { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func solidBlendOverARepeatingDestinationMatchesPixelByPixel() {
        // Transparent groups, a plain run, a group with one odd pixel, another
        // colour, the first again, and a tail: what the remembered result must follow.
        let plain: UInt32 = 0xFF0B_1016, other: UInt32 = 0xFF15_303A
        var destination = [UInt32](repeating: 0, count: 16) + [UInt32](repeating: plain, count: 24)
        destination[30] = other
        destination += [UInt32](repeating: other, count: 8) + [UInt32](repeating: plain, count: 8 + 5)
        for solid in [PixelMath.scale(0xFF12_1C26, by: 235), PixelMath.scale(0xFF6C_FFB5, by: 90)] {
            var pixels = destination
            pixels.withUnsafeMutableBufferPointer { SpanCompositor.blendSolid($0.baseAddress!, count: $0.count, source: solid) }
            let wrong = pixels.indices.filter { pixels[$0] != PixelMath.sourceOver(solid, destination[$0]) }
            #expect(wrong.isEmpty, "pixels \(wrong) of \(pixels.count)")
        }
    }

    @Test func maskedVectorBlendsMatchScalarBlendForEveryCoverage() {
        // Groups of four zeros and of four full coverages, then every value in a
        // scattered order, ending in a tail that is not a whole group of four.
        let count = 12 + 256 + 3
        let a = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        let b = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        let src = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        let coverage = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
        defer { a.deallocate(); b.deallocate(); src.deallocate(); coverage.deallocate() }
        var seed: UInt32 = 987
        func next() -> UInt32 { seed = seed &* 1_664_525 &+ 1_013_904_223; return seed }
        for i in 0..<count {
            b[i] = next()
            src[i] = PixelMath.scale(next() | 0xFF00_0000, by: next() >> 24)
            coverage[i] = UInt8(i < 8 ? 0 : i < 12 ? 255 : ((i - 12) * 7) & 255)
        }
        for solid in [UInt32(0xFF33_77AA), PixelMath.scale(0xFF33_77AA, by: 140), 0] {
            a.update(from: b, count: count)
            SpanCompositor.blendSolid(a, count: count, source: solid, coverage: coverage)
            for i in 0..<count {
                #expect(a[i] == PixelMath.sourceOver(PixelMath.scale(solid, by: UInt32(coverage[i])), b[i]), "solid, pixel \(i)")
            }
        }
        a.update(from: b, count: count)
        SpanCompositor.blend(a, source: src, count: count, coverage: coverage)
        for i in 0..<count {
            #expect(a[i] == PixelMath.sourceOver(PixelMath.scale(src[i], by: UInt32(coverage[i])), b[i]), "pixel \(i)")
        }
    }

    @Test func solidEdgesPaintedGroupByGroupMatchRuns() {
        // A solid paint takes the sweep's groups of four one by one; under a clip
        // path (here covering everything) the same coverage goes through runs.
        func draw(clipped: Bool) -> PixelBuffer {
            let buffer = PixelBuffer(width: 61, height: 50)   // a last group cut by the right side
            buffer.fill(0xFF20_4060)
            let canvas = Canvas(target: buffer)
            if clipped {
                var all = Path(); all.addRect(Rect(x: -5, y: -5, width: 80, height: 60))
                canvas.clip(to: all)
            }
            var shape = Path()
            shape.addCircle(center: Point(30.3, 24.7), radius: 19.6)
            shape.move(to: Point(2, 3)); shape.line(to: Point(60.8, 47.5))
            canvas.stroke(shape, style: StrokeStyle(width: 2.3), with: .solid(Color(hex: 0x6CFFB5, alpha: 0.7)))
            return buffer
        }
        let groups = draw(clipped: false), runs = draw(clipped: true)
        var painted = 0
        for y in 0..<50 {
            for x in 0..<61 {
                #expect(groups[x, y] == runs[x, y], "pixel \(x),\(y)")
                if groups[x, y] != 0xFF20_4060 { painted += 1 }
            }
        }
        #expect(painted > 300)
    }

    @Test func linearGradientHitsItsStops() {
        let buffer = PixelBuffer(width: 256, height: 4)
        let canvas = Canvas(target: buffer)
        var path = Path()
        path.addRect(Rect(x: 0, y: 0, width: 256, height: 4))
        let stops = GradientStops(GradientStop(0, Color(hex: 0x000000)), GradientStop(0.5, Color(hex: 0xFF0000)),
                                  GradientStop(1, Color(hex: 0x0000FF)))
        canvas.fill(path, with: .gradient(.linear(from: Point(0, 0), to: Point(256, 0), stops: stops)))
        func red(_ x: Int) -> Int { Int((buffer[x, 1] >> 16) & 0xFF) }
        func blue(_ x: Int) -> Int { Int(buffer[x, 1] & 0xFF) }
        #expect(red(0) <= 2 && blue(0) == 0)
        #expect(abs(red(64) - 128) <= 3)
        #expect(red(128) >= 252 && blue(128) <= 3)
        #expect(abs(blue(192) - 128) <= 3 && abs(red(192) - 128) <= 3)
        #expect(blue(255) >= 252)
        // Pad: beyond the end the last colour holds.
        let padded = PixelBuffer(width: 64, height: 1)
        let c2 = Canvas(target: padded)
        var p2 = Path(); p2.addRect(Rect(x: 0, y: 0, width: 64, height: 1))
        c2.fill(p2, with: .gradient(.linear(from: Point(10, 0), to: Point(20, 0), stops: stops)))
        #expect(padded[63, 0] & 0xFF >= 252)
        #expect((padded[0, 0] >> 16) & 0xFF <= 2)
    }

    @Test func gradientsStayRightWhenTheirTablesAreKeptOrReused() {
        // Six ramps, more than the canvas keeps tables for, drawn in turn twice:
        // each fill must look as it does on a fresh canvas.
        let ramps = (0..<6).map { k in
            GradientStops(GradientStop(0, Color(hex: 0x102030 + UInt32(k) * 0x100000)), GradientStop(1, Color(hex: 0xF0E0D0 - UInt32(k) * 0x10)))
        }
        func draw(_ k: Int, on canvas: Canvas) {
            var path = Path(); path.addRect(Rect(x: 0, y: 0, width: 64, height: 2))
            canvas.fill(path, with: .gradient(.linear(from: Point(0, 0), to: Point(64, 0), stops: ramps[k])))
        }
        let shared = PixelBuffer(width: 64, height: 2)
        let canvas = Canvas(target: shared)
        for k in [0, 1, 2, 3, 4, 5, 0, 3, 5, 1, 1, 2, 4] {
            draw(k, on: canvas)
            let fresh = PixelBuffer(width: 64, height: 2)
            draw(k, on: Canvas(target: fresh))
            for x in 0..<64 { #expect(shared[x, 1] == fresh[x, 1], "ramp \(k), pixel \(x)") }
        }
    }

    @Test func radialGradientRunsFromCentreToRadius() {
        let buffer = PixelBuffer(width: 101, height: 101)
        let canvas = Canvas(target: buffer)
        var path = Path(); path.addRect(Rect(x: 0, y: 0, width: 101, height: 101))
        canvas.fill(path, with: .gradient(.radial(center: Point(50.5, 50.5), radius: 50, stops: GradientStops(
            GradientStop(0, .white), GradientStop(1, .black)))))
        #expect(buffer[50, 50] & 0xFF >= 253)
        #expect(abs(Int(buffer[75, 50] & 0xFF) - 127) <= 3)
        #expect(buffer[100, 50] & 0xFF <= 2)
    }

    /// Rows across a centre on a pixel edge or centre copy one side from the
    /// other, and rows below such a centre copy the rows above; they must match
    /// a centre 0.01 px away, which computes every pixel.
    /// The largest difference of a colour channel between two buffers of one size.
    func worstChannelDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                for shift in stride(from: UInt32(0), to: 24, by: 8) {
                    worst = max(worst, abs(Int((a[x, y] >> shift) & 0xFF) - Int((b[x, y] >> shift) & 0xFF)))
                }
            }
        }
        return worst
    }

    /// Fills `rect` with `gradient` one column at a time: spans one pixel wide
    /// are shaded pixel by pixel, never copied from a mirror image.
    func fillColumnByColumn(_ rect: Rect, with gradient: Gradient, on canvas: Canvas) {
        for x in Int(rect.x)..<Int(rect.maxX) {
            var column = Path(); column.addRect(Rect(x: Float(x), y: rect.y, width: 1, height: rect.height))
            canvas.fill(column, with: .gradient(gradient))
        }
    }

    @Test(arguments: [(40 as Float, 20 as Float), (40.5, 20.5), (61, 13), (40, 19.3), (40.37, 20.21)])
    func mirroredRadialRowsMatchComputedOnes(centerX: Float, centerY: Float) {
        // A steep ramp: mirrored only about a centre on the pixel grid.
        let wide = Gradient.radial(center: Point(centerX, centerY), radius: 37, stops: GradientStops(
            GradientStop(0, .white), GradientStop(0.5, Color(hex: 0x2080F0)), GradientStop(1, .black)))
        // A second fill over part of the first: rows it shades must not be
        // taken for the first fill's when it copies from its mirror rows.
        let band = Gradient.radial(center: Point(centerX + 3, centerY), radius: 20, stops: GradientStops(
            GradientStop(0, Color(hex: 0xF02010)), GradientStop(1, Color(hex: 0x10F020))))
        let wideRect = Rect(x: 3, y: 2, width: 94, height: 36), bandRect = Rect(x: 10, y: 4, width: 80, height: 6)
        func draw(columnByColumn: Bool) -> PixelBuffer {
            let buffer = PixelBuffer(width: 100, height: 40)
            buffer.fill(0xFF11_2233)
            let canvas = Canvas(target: buffer)
            for (gradient, rect) in [(wide, wideRect), (band, bandRect)] {
                if columnByColumn {
                    fillColumnByColumn(rect, with: gradient, on: canvas)
                } else {
                    var path = Path(); path.addRect(rect)
                    canvas.fill(path, with: .gradient(gradient))
                }
            }
            return buffer
        }
        let mirrored = draw(columnByColumn: false), computed = draw(columnByColumn: true)
        let worst = worstChannelDifference(mirrored, computed)
        // About a centre on the grid mirroring is exact (the centre snaps by
        // under 1/512 px); off it, this ramp is not mirrored at all.
        let onGrid = abs(2 * centerX - (2 * centerX).rounded()) < 1e-3
        #expect(worst <= (onGrid ? 1 : 0), "worst channel difference \(worst)")
        let m = Int((2 * centerX).rounded()) - 1
        if onGrid {
            for x in max(3, m - 96)..<min(97, m - 2) { #expect(mirrored[x, 20] == mirrored[m - x, 20], "x \(x)") }
        }
        let mirrorRows = Int((2 * centerY).rounded()) - 1
        if Float(mirrorRows + 1) == 2 * centerY {
            for y in max(10, mirrorRows - 37)..<min(38, mirrorRows - 9) where y != mirrorRows - y {
                for x in 3..<97 { #expect(mirrored[x, y] == mirrored[x, mirrorRows - y], "(\(x), \(y))") }
            }
        }
    }

    @Test(arguments: [(40.37 as Float, 20.21 as Float), (40.5, 20.04), (39.83, 19.5)])
    func gentleRadialRampsMirrorAboutAnOffGridCentre(centerX: Float, centerY: Float) {
        // The dial's disc (26 levels over its radius), gliding off the pixel
        // grid: mirrored about the nearest pixel centre or edge, within a level
        // of the pixel-by-pixel result.
        let disc = Gradient.radial(center: Point(centerX, centerY), radius: 200, stops: GradientStops(
            GradientStop(0, Color(hex: 0x15303A)), GradientStop(1, Color(hex: 0x0B1620))))
        let rect = Rect(x: 3, y: 2, width: 94, height: 36)
        let mirrored = PixelBuffer(width: 100, height: 40), computed = PixelBuffer(width: 100, height: 40)
        var path = Path(); path.addRect(rect)
        Canvas(target: mirrored).fill(path, with: .gradient(disc))
        fillColumnByColumn(rect, with: disc, on: Canvas(target: computed))
        let worst = worstChannelDifference(mirrored, computed)
        #expect(worst <= 1, "worst channel difference \(worst)")
        // The rows' full-coverage spans, x 8..<96, were mirrored (the groups of
        // four at the rectangle's sides are shaded pixel by pixel).
        let m = Int((2 * centerX).rounded()) - 1, mirrorRows = Int((2 * centerY).rounded()) - 1
        for x in max(8, m - 95)..<min(96, m - 7) { #expect(mirrored[x, 20] == mirrored[m - x, 20], "x \(x)") }
        for y in max(2, mirrorRows - 37)..<min(38, mirrorRows - 1) {
            for x in 8..<96 { #expect(mirrored[x, y] == mirrored[x, mirrorRows - y], "(\(x), \(y))") }
        }
    }

    /// The conic gradient's vector atan2 against the C library's, in every
    /// quadrant and on the axes, where its sign and quadrant fixes apply.
    @Test func vectorAtan2MatchesTheCLibrary() {
        var worst: Float = 0
        let values: [Float] = [-300, -41.5, -7, -1, -0.5, -1e-3, 0, 1e-3, 0.5, 1, 7, 41.5, 300]
        for y in values {
            for x in values {
                let r = FastMath.atan2(SIMD8(repeating: y), SIMD8(repeating: x))
                let expected = y == 0 && x == 0 ? 0 : Float(atan2(Double(y), Double(x)))
                worst = max(worst, abs(r[3] - expected))
            }
        }
        // And every tenth of a degree round the circle, near and far.
        for tenth in 0..<3600 {
            let angle = Double(tenth) * .pi / 1800
            for radius in [0.7, 13.0, 450.0] {
                let y = Float(radius * sin(angle)), x = Float(radius * cos(angle))
                let r = FastMath.atan2(SIMD8(repeating: y), SIMD8(repeating: x))
                worst = max(worst, abs(r[5] - Float(atan2(Double(y), Double(x)))))
            }
        }
        #expect(worst < 1.2e-5, "worst error \(worst)")
    }

    @Test func conicGradientGoesClockwiseFromItsStartAngle() {
        let buffer = PixelBuffer(width: 100, height: 100)
        let canvas = Canvas(target: buffer)
        var path = Path(); path.addRect(Rect(x: 0, y: 0, width: 100, height: 100))
        // Start at -90° (north): offset 0.25 is east, 0.5 south.
        canvas.fill(path, with: .gradient(.conic(center: Point(50, 50), startAngle: -.pi / 2, stops: GradientStops(
            GradientStop(0, .black), GradientStop(1, .white)))))
        let east = Int(buffer[95, 50] & 0xFF), south = Int(buffer[50, 95] & 0xFF), west = Int(buffer[5, 50] & 0xFF)
        #expect(abs(east - 64) <= 3, "east \(east)")
        #expect(abs(south - 128) <= 3, "south \(south)")
        #expect(abs(west - 191) <= 3, "west \(west)")
    }

    @Test func clipRectAndClipPathLimitDrawing() {
        let buffer = PixelBuffer(width: 50, height: 50)
        let canvas = Canvas(target: buffer)
        var full = Path(); full.addRect(Rect(x: 0, y: 0, width: 50, height: 50))
        canvas.save()
        canvas.clip(to: Rect(x: 10, y: 10, width: 20, height: 20))
        canvas.fill(full, with: .solid(.white))
        canvas.restore()
        #expect(buffer[9, 15] == 0 && buffer[10, 15] == 0xFFFF_FFFF && buffer[29, 29] == 0xFFFF_FFFF && buffer[30, 29] == 0)
        let b2 = PixelBuffer(width: 50, height: 50)
        let c2 = Canvas(target: b2)
        var circle = Path(); circle.addCircle(center: Point(25, 25), radius: 10)
        c2.clip(to: circle)
        c2.fill(full, with: .solid(.white))
        #expect(b2[25, 25] == 0xFFFF_FFFF && b2[2, 2] == 0 && b2[25, 10] == 0)
        let area = coveredArea(b2)
        #expect(abs(area - Double.pi * 100) < 1)
    }

    /// A rectangle's vertical sides cover each pixel of a row by the part of
    /// it inside the sides, whichever group of four cells, or word of their
    /// bits, each side and the cell after it fall in (a side at 11.5 puts
    /// its two cells in two groups, one at 255.6 in two words: a column at
    /// the left edge, in the same path, starts the cells at x = 0).
    @Test(arguments: [(10.25, 13.75), (11.5, 16.4), (8.0, 12.0), (3.6, 7.3), (255.6, 262.2), (251.0, 257.75)])
    func verticalSidesCoverTheirColumnsByTheirPart(left: Float, right: Float) {
        let buffer = PixelBuffer(width: 300, height: 24)
        let canvas = Canvas(target: buffer)
        var path = Path()
        path.addRect(Rect(x: left, y: 3, width: right - left, height: 17))
        path.addRect(Rect(x: 0, y: 3, width: 1, height: 17))
        canvas.fill(path, with: .solid(.white))
        var wrong: [String] = []
        for y in [3, 4, 10, 19] {
            for x in 0..<buffer.width {
                let part = x == 0 ? 1 : max(0, min(Float(x + 1), right) - max(Float(x), left))
                let expected = Int((part * 255).rounded())
                let alpha = Int(buffer[x, y] >> 24)
                if abs(alpha - expected) > 1 { wrong.append("(\(x), \(y)): \(alpha), not \(expected)") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(6))")
        #expect(buffer[Int(left), 2] == 0 && buffer[Int(left), 20] == 0)
    }

    /// Every pixel of the rectangle, and nothing else, gets the colour,
    /// whether the rectangle is the whole buffer (one run across rows), a
    /// part of it (cut by the buffer's edges or not), narrow, or in rows
    /// padded past their width.
    @Test(arguments: [(1301, 9, 1301, nil as IntRect?), (1301, 9, 1301, IntRect(x: 37, y: 2, width: 1100, height: 5)),
                      (700, 6, 720, nil), (700, 6, 720, IntRect(x: -5, y: -1, width: 600, height: 4)),
                      (200, 5, 200, IntRect(x: 150, y: 1, width: 40, height: 3)), (40, 3, 40, nil)])
    func fillSetsEveryPixelOfItsRectangleAndNoOther(width: Int, height: Int, rowPixels: Int, rect: IntRect?) {
        let memory = UnsafeMutablePointer<UInt32>.allocate(capacity: rowPixels * height)
        defer { memory.deallocate() }
        // Each pixel its own value, so a block copied from the wrong place shows.
        for i in 0..<(rowPixels * height) { memory[i] = UInt32(i) &* 2_654_435_761 }
        let buffer = PixelBuffer(wrapping: UnsafeMutableRawPointer(memory), width: width, height: height, strideBytes: rowPixels * 4)
        let pixel: UInt32 = 0xFF0B_1016
        buffer.fill(pixel, in: rect)
        let filled = (rect ?? buffer.bounds).intersection(buffer.bounds)
        var wrong = 0
        for y in 0..<height {
            for x in 0..<rowPixels {
                let inside = x >= filled.x && x < filled.maxX && y >= filled.y && y < filled.maxY
                let expected = inside ? pixel : UInt32(y * rowPixels + x) &* 2_654_435_761
                if memory[y * rowPixels + x] != expected { wrong += 1 }
            }
        }
        #expect(wrong == 0, "\(wrong) pixels wrong filling \(filled) of \(width)x\(height)")
    }

    @Test func wrappedBufferWithPaddedStrideIsDrawnRowByRow() {
        let width = 30, height = 10, strideBytes = 48 * 4
        let memory = UnsafeMutableRawPointer.allocate(byteCount: strideBytes * height, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0xAB, count: strideBytes * height)
        defer { memory.deallocate() }
        let buffer = PixelBuffer(wrapping: memory, width: width, height: height, strideBytes: strideBytes)
        let canvas = Canvas(target: buffer)
        canvas.clear(.black)
        var path = Path(); path.addRect(Rect(x: 0, y: 0, width: 30, height: 10))
        canvas.fill(path, with: .solid(.white))
        let words = memory.assumingMemoryBound(to: UInt32.self)
        for y in 0..<height {
            for x in 0..<48 {
                let v = words[y * 48 + x]
                if x < width { #expect(v == 0xFFFF_FFFF) } else { #expect(v == 0xABAB_ABAB, "padding touched at \(x),\(y)") }
            }
        }
    }

    @Test func opacityGroupCompositesOnce() {
        // Two overlapping opaque squares in a group at 50 %: the overlap is no darker than the rest.
        let buffer = PixelBuffer(width: 40, height: 20)
        let canvas = Canvas(target: buffer)
        canvas.clear(.black)
        canvas.beginGroup(opacity: 0.5)
        var a = Path(); a.addRect(Rect(x: 0, y: 0, width: 25, height: 20))
        var b = Path(); b.addRect(Rect(x: 15, y: 0, width: 25, height: 20))
        canvas.fill(a, with: .solid(.white))
        canvas.fill(b, with: .solid(.white))
        canvas.endGroup()
        #expect(buffer[5, 5] == buffer[20, 5])
        #expect(abs(Int(buffer[20, 5] & 0xFF) - 128) <= 1)
    }

    @Test func strokeOfAnOpenLineHasButtCapsAndTheRightWidth() {
        let buffer = PixelBuffer(width: 40, height: 40)
        let canvas = Canvas(target: buffer)
        var line = Path(); line.move(to: Point(10, 20)); line.line(to: Point(30, 20))
        canvas.stroke(line, style: StrokeStyle(width: 4), with: .solid(.white))
        #expect(abs(coveredArea(buffer) - 80) < 0.5)
        let round = PixelBuffer(width: 40, height: 40)
        Canvas(target: round).stroke(line, style: StrokeStyle(width: 4, cap: .round), with: .solid(.white))
        #expect(abs(coveredArea(round) - (80 + Double.pi * 4)) < 0.6)
    }

    @Test(arguments: [5, 12, 90])
    func mitredStrokeOfARegularPolygonIsTheBandBetweenTwoPolygons(sides: Int) {
        // A closed regular polygon stroked with miter joins covers exactly the band
        // between the polygons whose apothems are a + w/2 and a - w/2: both the
        // outer miters and the inner corners must be where the offsets meet.
        let buffer = PixelBuffer(width: 100, height: 100)
        let n = Float(sides), apothem: Float = 35, width: Float = 3
        let radius = apothem / cosf(.pi / n)
        var polygon = Path()
        for k in 0..<sides {
            let a = 2 * Float.pi * Float(k) / n + 0.3
            let p = Point(50.37 + radius * cosf(a), 49.81 + radius * sinf(a))
            if k == 0 { polygon.move(to: p) } else { polygon.line(to: p) }
        }
        polygon.close()
        Canvas(target: buffer).stroke(polygon, style: StrokeStyle(width: width, join: .miter, miterLimit: 10), with: .solid(.white))
        let outer = Double(apothem + width / 2), inner = Double(apothem - width / 2)
        let expected = Double(sides) * tan(Double.pi / Double(sides)) * (outer * outer - inner * inner)
        #expect(abs(coveredArea(buffer) - expected) < expected * 0.002, "area \(coveredArea(buffer)), expected \(expected)")
        #expect(buffer[50, 50] == 0)
    }

    @Test func ringStrokeOfACircleIsAnAnnulus() {
        let buffer = PixelBuffer(width: 80, height: 80)
        var circle = Path(); circle.addCircle(center: Point(40, 40), radius: 30)
        Canvas(target: buffer).stroke(circle, style: StrokeStyle(width: 2), with: .solid(.white))
        let expected = Double.pi * (31 * 31 - 29 * 29)
        #expect(abs(coveredArea(buffer) - expected) < expected * 0.003)
        #expect(buffer[40, 40] == 0)
    }

    @Test func evenOddCoverageIsTheDistanceToTheNearestEvenWinding() {
        // Sums across several windings either way, exact integers and halves
        // included, against floor's definition; lanes and spans agree.
        var sums: [Float] = (-448...448).map { Float($0) / 64 }
        sums += [0.999_999, 1.000_001, 2.999_999, 3.000_001, -5.5, 6.25, 7.75]
        for sum in sums {
            var a = abs(sum)
            a -= 2 * (a / 2).rounded(.down)
            if a > 1 { a = 2 - a }
            let expected = UInt32((a * 255).rounded())
            let span = CoverageRasterizer.coverage(sum, evenOdd: true)
            let lanes = CoverageRasterizer.coverage(SIMD4(sum, -sum, sum, 0), evenOdd: true)
            #expect(span == expected && lanes[0] == expected && lanes[1] == expected && lanes[3] == 0, "sum \(sum): \(span), \(lanes)")
        }
    }

    @Test func evenOddLeavesTheHoleOfOverlappingLoops() {
        let buffer = PixelBuffer(width: 60, height: 60)
        var path = Path()
        path.addRect(Rect(x: 10, y: 10, width: 40, height: 40))
        path.addRect(Rect(x: 20, y: 20, width: 20, height: 20))
        Canvas(target: buffer).fill(path, with: .solid(.white), rule: .evenOdd)
        #expect(buffer[30, 30] == 0 && buffer[15, 15] == 0xFFFF_FFFF)
        let nz = PixelBuffer(width: 60, height: 60)
        Canvas(target: nz).fill(path, with: .solid(.white))
        #expect(nz[30, 30] == 0xFFFF_FFFF)
    }

    @Test func damageCoversWhatWasDrawn() {
        let buffer = PixelBuffer(width: 100, height: 100)
        let canvas = Canvas(target: buffer)
        var path = Path(); path.addRect(Rect(x: 10.5, y: 20, width: 5, height: 5))
        canvas.fill(path, with: .solid(.white))
        #expect(canvas.damage.contains(IntRect(x: 10, y: 20, width: 6, height: 5)))
        #expect(canvas.damage.area < 100)
        // A shape running off the right side is painted to the side, and so is the damage.
        canvas.resetDamage()
        path.removeAll(); path.addRect(Rect(x: 80.5, y: 40, width: 50, height: 5))
        canvas.fill(path, with: .solid(.white))
        #expect(buffer[99, 42] == 0xFFFF_FFFF)
        #expect(canvas.damage.contains(IntRect(x: 80, y: 40, width: 20, height: 5)))
    }
}
