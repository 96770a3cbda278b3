import Testing
import CFreeType
import AnimationCore
import Raster
@testable import Typography

/// FreeType text: shaping, placement, the glyph cache, and content transitions in pixels.
@Suite struct TypographyTests {
    static let fonts: String = {
        let path = #filePath
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let root = parts.prefix(while: { $0 != "Tests" }).joined(separator: "/")
        return root + "/Fonts/"
    }()
    let library: FontLibrary
    let regular: FontFace
    let mono: FontFace

    init() throws {
        library = try FontLibrary()
        regular = try library.face(at: Self.fonts + "B612-Regular.otf")
        mono = try library.face(at: Self.fonts + "B612Mono-Regular.otf")
    }

    /// Columns and rows that hold any ink, as a box.
    func inkBox(_ b: PixelBuffer, threshold: UInt32 = 40) -> (minX: Int, maxX: Int, minY: Int, maxY: Int)? {
        var box: (Int, Int, Int, Int)?
        for y in 0..<b.height {
            for x in 0..<b.width where b[x, y] & 0xFF > threshold {
                box = box.map { (min($0.0, x), max($0.1, x), min($0.2, y), max($0.3, y)) } ?? (x, x, y, y)
            }
        }
        return box.map { (minX: $0.0, maxX: $0.1, minY: $0.2, maxY: $0.3) }
    }

    @Test func callsignHasTheShapersAdvanceAndSitsOnItsBaseline() throws {
        let font = try Font(face: regular, size: 72)
        let text = TextRenderer()
        let run = text.shaper.shape("BAW283", font: font)
        // The shaped advance against FreeType's own horizontal metrics (hmtx, read
        // without HarfBuzz): the same widths, give or take the font's kerning.
        var designUnits = 0
        for glyph in run.glyphs {
            var advance: FT_Fixed = 0
            #expect(FT_Get_Advance(regular.face, glyph.index, FT_Int32(FT_LOAD_NO_SCALE), &advance) == 0)
            designUnits += Int(advance)
        }
        let hmtx = Float(designUnits) * 72 / Float(regular.unitsPerEm)
        #expect(abs(run.advance - hmtx) < 0.05 * hmtx, "shaped \(run.advance) px, hmtx \(hmtx) px")
        #expect(run.glyphs.count == 6 && run.glyphs.allSatisfy { $0.index != 0 }, "every character has its glyph")
        let buffer = PixelBuffer(width: 400, height: 120)
        let canvas = Canvas(target: buffer)
        canvas.clear(.black)
        text.draw("BAW283", font: font, at: Point(10, 90), color: .white, in: canvas)
        let ink = try #require(inkBox(buffer))
        // Capitals and digits stand on the baseline: their bottom row is the one just above y = 90.
        #expect(ink.maxY >= 88 && ink.maxY <= 90, "ink bottom \(ink.maxY)")
        #expect(abs(Float(89 - ink.minY) - font.capHeight) <= 2, "cap height \(font.capHeight), ink top \(ink.minY)")
        #expect(ink.minX >= 10 && ink.minX <= 20 && Float(ink.maxX) <= 10 + run.advance + 1)
    }

    @Test func kerningComesFromGPOS() throws {
        let font = try Font(face: regular, size: 100)
        let shaper = TextShaper()
        // B612 keeps its kerning in GPOS, where FreeType's kerning call cannot see it;
        // "OVERFLIGHT" has a kerned pair, about 0.05 em in all.
        for word in ["OVERFLIGHT", "ALT 36,000 ft"] {
            let whole = shaper.shape(word, font: font).advance
            let apart = word.map { shaper.shape(String($0), font: font).advance }.reduce(0, +)
            #expect(apart - whole > 0.02 * 100 && apart - whole < 0.2 * 100, "\(word): \(whole) vs \(apart)")
        }
    }

    /// The card's values are set in the proportional face (a comma or a point
    /// takes its own narrow width) with tabular digits, as `.monospacedDigit()`
    /// does: every digit one width, and no kerning between digits, so numbers
    /// stay right-aligned and still while they roll.
    @Test func proportionalDigitsAreTabularAndNotKerned() throws {
        let font = try Font(face: regular, size: 40)
        let shaper = TextShaper()
        let widths = (0...9).map { shaper.shape(String($0), font: font).advance }
        #expect(Set(widths).count == 1, "\(widths)")
        for number in ["1111", "36,000", "487", "3.2", "274"] {
            let apart = number.map { shaper.shape(String($0), font: font).advance }.reduce(0, +)
            #expect(abs(shaper.shape(number, font: font).advance - apart) < 0.01, "\(number) is kerned")
        }
        #expect(shaper.shape(",", font: font).advance < widths[0] * 0.7, "a comma narrower than a digit")
    }

    @Test func monoDigitsAreTabular() throws {
        let font = try Font(face: mono, size: 40)
        let shaper = TextShaper()
        let widths = (0...9).map { shaper.shape(String($0), font: font).advance }
        #expect(Set(widths).count == 1)
    }

    @Test(.enabled(if: AllocationCounting.works, Comment(rawValue: AllocationCounting.why)))
    func steadyTextHitsTheCacheAndAllocatesNothing() throws {
        let font = try Font(face: regular, size: 40)
        let text = TextRenderer()
        let buffer = PixelBuffer(width: 600, height: 100)
        let canvas = Canvas(target: buffer)
        func frame() { text.draw("ALT 36,000 ft", font: font, at: Point(10, 60), color: .white, in: canvas) }
        frame()
        text.glyphs.resetCounters()
        let before = threadAllocations()
        for _ in 0..<10 { frame() }
        #expect(threadAllocations() - before == 0)
        #expect(text.glyphs.misses == 0 && text.glyphs.hits > 0)
    }

    @Test func glyphCacheIsBounded() throws {
        let text = TextRenderer(glyphCacheCapacity: 16)
        let buffer = PixelBuffer(width: 800, height: 60)
        let canvas = Canvas(target: buffer)
        text.draw("ABCDEFGHIJKLMNOPQRSTUVWXYZ", font: try Font(face: regular, size: 20), at: Point(0, 40), color: .white, in: canvas)
        #expect(text.glyphs.count == 16 && text.glyphs.evictions > 0)
    }

    @Test func badSizesAndMissingFilesAreClearErrors() throws {
        #expect(throws: FontError.self) { try Font(face: regular, size: 0) }
        #expect(throws: FontError.self) { try Font(face: regular, size: .nan) }
        do {
            _ = try library.face(at: "/nonexistent/B612.otf")
            Issue.record("expected an error")
        } catch let e as FontError {
            #expect(e.description == "/nonexistent/B612.otf: font file does not exist")
        }
        do {
            _ = try FontLibrary.locate("Nope.otf", in: ["/a", "/b/"])
            Issue.record("expected an error")
        } catch let e as FontError {
            #expect(e.description == "font Nope.otf not found; tried: /a/Nope.otf, /b/Nope.otf")
        }
    }

    /// Renders a value right-aligned at x = 380 on baseline 80, mid-change.
    func renderChange(from: String, to: String, progress: Double, rollsDown: Bool, kind: ContentTransition,
                      interrupted: InterruptedChange? = nil, face: FontFace? = nil, fromAnchor: Point = Point(380, 80)) throws -> PixelBuffer {
        let font = try Font(face: face ?? mono, size: 40)
        let text = TextRenderer()
        let buffer = PixelBuffer(width: 400, height: 160)
        let canvas = Canvas(target: buffer)
        canvas.clear(.black)
        let state = ContentTransitionState(from: from, to: to, progress: progress, kind: kind,
                                           fromFrame: .zero, rollsDown: rollsDown, interrupted: interrupted)
        ContentTransitionPainter().draw(state, font: font, anchor: Point(380, 80), fromAnchor: fromAnchor,
                                        alignment: .right, color: .white, opacity: 1, text: text, in: canvas)
        return buffer
    }

    func columns(_ b: PixelBuffer, _ x0: Int, _ x1: Int) -> (ink: Int, top: Int, bottom: Int, peak: UInt32) {
        var ink = 0, top = Int.max, bottom = Int.min
        var peak: UInt32 = 0
        for y in 0..<b.height {
            for x in x0..<x1 {
                let v = b[x, y] & 0xFF
                peak = max(peak, v)
                if v > 40 { ink += 1; top = min(top, y); bottom = max(bottom, y) }
            }
        }
        return (ink, top, bottom, peak)
    }

    @Test(arguments: [false, true])
    func numericRollMovesOnlyTheChangedDigit(countsDown: Bool) throws {
        let font = try Font(face: mono, size: 40)
        let advance = TextShaper().shape("0", font: font).advance
        let still = try renderChange(from: "36,500", to: "36,500", progress: 1, rollsDown: false, kind: .numericText)
        let mid = try renderChange(from: "36,000", to: "36,500", progress: 0.5, rollsDown: countsDown, kind: .numericText(countsDown: countsDown))
        // Slots from the right: 0 "0", 1 "0", 2 "5"/"0", 3 ",", 4 "6", 5 "3".
        func slot(_ k: Int) -> (Int, Int) { (Int(380 - Float(k + 1) * advance), Int(380 - Float(k) * advance)) }
        for k in [0, 1, 3, 4, 5] {
            let (a, b) = slot(k)
            var same = true
            for y in 0..<160 { for x in a..<b where mid[x, y] != still[x, y] { same = false } }
            #expect(same, "slot \(k) unchanged")
        }
        let (a, b) = slot(2)
        let stillDigit = columns(still, a, b)
        // Old and new glyphs, each half transparent, displaced about a quarter
        // line in opposite directions (half a line of travel, half done), and
        // nothing drawn outside the line box (ascent above, descent below the baseline at 80).
        let lineHeight = font.ascent + font.descent
        let upper = columns(mid, a, b)
        #expect(upper.peak < 200, "both glyphs partly transparent")
        let up = Float(stillDigit.top - upper.top), down = Float(upper.bottom - stillDigit.bottom)
        #expect(abs(up - lineHeight / 4) < 0.12 * lineHeight, "one glyph a quarter line up: \(up), line \(lineHeight)")
        #expect(abs(down - lineHeight / 4) < 0.12 * lineHeight || Float(upper.bottom) >= 80 + font.descent - 1,
                "one glyph a quarter line down (or cut at the line box): \(down)")
        #expect(Float(upper.top) >= 80 - font.ascent - 1 && Float(upper.bottom) <= 80 + font.descent + 1,
                "the roll stays in its line box: rows \(upper.top)...\(upper.bottom)")
        // Which glyph went up: counting up, the old (0) leaves upward; counting down, the new (5) comes from above.
        let topHalf = PixelBuffer(width: 400, height: 160)
        let c = Canvas(target: topHalf)
        c.clear(.black)
        TextRenderer().draw(countsDown ? "5" : "0", font: font, at: Point(Float(b), 80 - lineHeight / 4), alignment: .right, color: .white, in: c)
        var overlap = 0, expected = 0
        // Only above the settled digit's top can nothing but the upward glyph be.
        for y in max(Int(80 - font.ascent), 0)..<stillDigit.top { for x in a..<b where topHalf[x, y] & 0xFF > 128 { expected += 1; if mid[x, y] & 0xFF > 30 { overlap += 1 } } }
        #expect(expected > 0 && Double(overlap) / Double(expected) > 0.8, "the \(countsDown ? "new" : "old") digit is the one above")
    }

    @Test func identityShowsExactlyOneString() throws {
        for p in stride(from: 0.0, through: 1.0, by: 0.25) {
            let b = try renderChange(from: "BAW283", to: "DLH4AB", progress: p, rollsDown: false, kind: .identity)
            let single = try renderChange(from: "DLH4AB", to: "DLH4AB", progress: 1, rollsDown: false, kind: .identity)
            var same = true
            for y in 0..<b.height { for x in 0..<b.width where b[x, y] != single[x, y] { same = false } }
            #expect(same, "at \(p)")
        }
    }
}

import AllocationCounting
func threadAllocations() -> UInt64 { radar_thread_allocation_count() }
