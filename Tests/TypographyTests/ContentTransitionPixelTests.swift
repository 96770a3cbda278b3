import Testing
import AnimationCore
import Raster
@testable import Typography

/// Content transitions checked in pixels: the crossfade's arithmetic, what
/// falls back to it, length changes, interruptions, and the roll's shrink
/// and smear; and what a face without a character draws.
@Suite struct ContentTransitionPixelTests {
    let typography: TypographyTests

    init() throws { typography = try TypographyTests() }

    /// A string drawn alone, right-aligned at `anchor`, at full opacity.
    func alone(_ s: String, anchor: Point = Point(380, 80), face: FontFace? = nil) throws -> PixelBuffer {
        let buffer = PixelBuffer(width: 400, height: 160)
        let canvas = Canvas(target: buffer)
        canvas.clear(.black)
        TextRenderer().draw(s, font: try Font(face: face ?? typography.regular, size: 40), at: anchor, alignment: .right,
                            color: .white, in: canvas)
        return buffer
    }

    func differingPixels(_ a: PixelBuffer, _ b: PixelBuffer, tolerance: Int = 0) -> Int {
        var n = 0
        for y in 0..<a.height {
            for x in 0..<a.width where abs(Int(a[x, y] & 0xFF) - Int(b[x, y] & 0xFF)) > tolerance { n += 1 }
        }
        return n
    }

    /// Rows holding ink in columns x0..<x1, weighted by brightness: the centroid row.
    func inkCentroid(_ b: PixelBuffer, _ x0: Int, _ x1: Int) -> Double {
        var sum = 0.0, weight = 0.0
        for y in 0..<b.height { for x in x0..<x1 { let v = Double(b[x, y] & 0xFF); sum += v * Double(y); weight += v } }
        return weight > 0 ? sum / weight : -1
    }

    @Test func aCrossfadeIsTheOldAtItsFrameOverTheNewAtItsOwn() throws {
        // The old string stays at the frame where the change began (x = 200),
        // the new one is at the current frame (x = 380): each pixel is the new
        // string's coverage at p composited over the old one's at 1 - p.
        let p = 0.3
        let mid = try typography.renderChange(from: "BAW283", to: "DLH4AB", progress: p, rollsDown: false, kind: .opacity,
                                              face: typography.regular, fromAnchor: Point(200, 80))
        let old = try alone("BAW283", anchor: Point(200, 80)), new = try alone("DLH4AB")
        var worst = 0, inked = 0
        for y in 0..<mid.height {
            for x in 0..<mid.width {
                let o = Double(old[x, y] & 0xFF) / 255, n = Double(new[x, y] & 0xFF) / 255
                let under = o * (1 - p)
                let expected = n * p + under * (1 - n * p)
                worst = max(worst, abs(Int(mid[x, y] & 0xFF) - Int((expected * 255).rounded())))
                if o > 0.5 || n > 0.5 { inked += 1 }
            }
        }
        #expect(inked > 500)
        #expect(worst <= 3, "crossfade off by \(worst) levels")
    }

    @Test func aWordOrPlaceholderChangingToANumberCrossfadesInsteadOfRolling() throws {
        for (from, to) in [("—", "36,000"), ("GROUND", "1,200"), ("1,200", "GROUND")] {
            let rolled = try typography.renderChange(from: from, to: to, progress: 0.4, rollsDown: false, kind: .numericText,
                                                     face: typography.regular)
            let faded = try typography.renderChange(from: from, to: to, progress: 0.4, rollsDown: false, kind: .opacity,
                                                    face: typography.regular)
            #expect(differingPixels(rolled, faded) == 0, "\(from) → \(to)")
        }
    }

    @Test func aLengthChangeRollsTheNewDigitsAndTheirSeparatorInWithTheirSlot() throws {
        let font = try Font(face: typography.regular, size: 40)
        let done = try alone("1,000")
        // At the start and the end it is exactly the old and the new string.
        #expect(differingPixels(try typography.renderChange(from: "999", to: "1,000", progress: 0, rollsDown: false,
                                                            kind: .numericText, face: typography.regular), try alone("999")) == 0)
        #expect(differingPixels(try typography.renderChange(from: "999", to: "1,000", progress: 1, rollsDown: false,
                                                            kind: .numericText, face: typography.regular), done) == 0)
        // Midway the leading "1" and the comma, new in their slots, are still
        // coming up from below: their ink sits lower than when settled.
        let mid = try typography.renderChange(from: "999", to: "1,000", progress: 0.5, rollsDown: false,
                                              kind: .numericText, face: typography.regular)
        let run = TextShaper().shape("1,000", font: font)
        let left = Int(380 - run.advance)
        let commaEnd = Int(380 - run.advance + run.glyphs[0].advance + run.glyphs[1].advance)
        let oneEnd = Int(380 - run.advance + run.glyphs[0].advance)
        #expect(inkCentroid(mid, left, oneEnd) > inkCentroid(done, left, oneEnd) + 3, "the 1 rolls in from below")
        #expect(inkCentroid(mid, oneEnd, commaEnd) > inkCentroid(done, oneEnd, commaEnd) + 3, "the comma rolls in with it")
        // Counting down, a removed leading digit and comma leave downward.
        let shrinking = try typography.renderChange(from: "1,000", to: "999", progress: 0.5, rollsDown: true,
                                                    kind: .numericText, face: typography.regular)
        #expect(inkCentroid(shrinking, left, oneEnd) > inkCentroid(done, left, oneEnd) + 3, "the 1 leaves downward")
    }

    @Test func aRollingDigitShrinksAndSmearsOnlyWhileItMoves() throws {
        // Halfway through a long stagger-free roll the incoming digit is smaller
        // and spread over more rows than the same digit simply moved there.
        let font = try Font(face: typography.regular, size: 40)
        let mid = try typography.renderChange(from: "0", to: "8", progress: 0.5, rollsDown: false, kind: .numericText,
                                              face: typography.regular)
        let settled = try alone("8")
        // Shrink: an 8 rolling into a new slot (nothing leaves there) is
        // narrower than when it has settled; any ink counts, so opacity does not.
        func inkColumns(_ b: PixelBuffer) -> Int {
            let run = TextShaper().shape("85", font: font)
            var columns = 0
            for x in Int(380 - run.advance) - 2..<Int(380 - run.advance + run.glyphs[0].advance) {
                var inked = false
                for y in 0..<b.height where b[x, y] & 0xFF > 0 { inked = true }
                if inked { columns += 1 }
            }
            return columns
        }
        let arriving = try typography.renderChange(from: "5", to: "85", progress: 0.2, rollsDown: false, kind: .numericText,
                                                   face: typography.regular)
        let arrived = try alone("85")
        #expect(inkColumns(arriving) <= inkColumns(arrived) - 2, "shrunk: \(inkColumns(arriving)) columns against \(inkColumns(arrived))")
        // Smear: against the same two glyphs moved there sharply, at the same
        // opacity and in the same line box, more pixels are partly inked.
        let lineHeight = font.ascent + font.descent
        let sharp = PixelBuffer(width: 400, height: 160)
        let c = Canvas(target: sharp)
        c.clear(.black)
        c.clip(to: Rect(x: 0, y: 80 - font.ascent, width: 400, height: lineHeight))
        TextRenderer().draw("0", font: font, at: Point(380, 80 - lineHeight / 4), alignment: .right, color: .white, opacity: 0.5, in: c)
        TextRenderer().draw("8", font: font, at: Point(380, 80 + lineHeight / 4), alignment: .right, color: .white, opacity: 0.5, in: c)
        func partlyInked(_ b: PixelBuffer) -> Int {
            var n = 0
            for y in 0..<b.height { for x in 0..<b.width where (8..<100).contains(b[x, y] & 0xFF) { n += 1 } }
            return n
        }
        #expect(Double(partlyInked(mid)) > 1.3 * Double(partlyInked(sharp)),
                "smeared: \(partlyInked(mid)) partly inked pixels against \(partlyInked(sharp))")
        // Settled, there is no smear and no shrink.
        let end = try typography.renderChange(from: "0", to: "8", progress: 1, rollsDown: false, kind: .numericText,
                                              face: typography.regular)
        #expect(differingPixels(end, settled) == 0)
    }

    @Test func aValueArrivingMidRollContinuesFromWhereTheGlyphsAre() throws {
        // 36,000 → 36,500 is half done when 36,700 arrives: the first frame of
        // the new change is the last frame of the old one.
        for p in [0.2, 0.5, 0.8] {
            let before = try typography.renderChange(from: "36,000", to: "36,500", progress: p, rollsDown: false,
                                                     kind: .numericText, face: typography.regular)
            let after = try typography.renderChange(from: "36,500", to: "36,700", progress: 0, rollsDown: false, kind: .numericText,
                                                    interrupted: InterruptedChange(from: "36,000", progress: p, rollsDown: false),
                                                    face: typography.regular)
            #expect(differingPixels(before, after, tolerance: 2) == 0, "at \(p)")
        }
        // And it still arrives at the newest value.
        let end = try typography.renderChange(from: "36,500", to: "36,700", progress: 1, rollsDown: false, kind: .numericText,
                                              interrupted: InterruptedChange(from: "36,000", progress: 1, rollsDown: false),
                                              face: typography.regular)
        #expect(differingPixels(end, try alone("36,700")) == 0)
    }

    @Test func aCharacterTheFaceLacksDrawsNotdefInItsPlace() throws {
        let font = try Font(face: typography.regular, size: 40)
        let shaper = TextShaper()
        let run = shaper.shape("A飞B", font: font)
        #expect(run.glyphs.count == 3)
        #expect(run.glyphs[1].index == 0, "the missing character is .notdef")
        #expect(run.glyphs[1].advance > 0, ".notdef takes its own room")
        let a = shaper.shape("A", font: font).advance
        #expect(abs(run.glyphs[2].x - (a + run.glyphs[1].advance)) < 0.01, "B follows the .notdef")
        // .notdef has ink (a box), so a missing character shows as something.
        let drawn = try alone("飞")
        #expect(differingPixels(drawn, try alone("")) > 20)
        // Each missing character is reported once, and only the first few.
        let before = typography.regular.reportedMissingCount
        for scalar in 0x4E00..<(0x4E00 + 3 * FontFace.missingReportLimit) {
            _ = typography.regular.glyphIndex(for: Unicode.Scalar(UInt32(scalar))!)
        }
        _ = typography.regular.glyphIndex(for: "飞")
        #expect(before >= 1 && typography.regular.reportedMissingCount == FontFace.missingReportLimit + 1,
                "reports capped: \(typography.regular.reportedMissingCount)")
    }
}
