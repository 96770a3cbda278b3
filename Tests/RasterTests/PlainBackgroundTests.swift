import Testing
@testable import Raster

/// What the canvas knows of pixels still holding the clear's colour, and
/// that shapes filled over them come out exactly as blended ones.
@Suite struct PlainBackgroundTests {
    @Test func itKnowsTheClearedRectangleLessWhatWasDrawn() {
        var plain = PlainBackground()
        let inside = IntRect(x: 50, y: 50, width: 10, height: 10)
        #expect(plain.color(under: inside) == nil, "nothing is known before a clear")
        plain.cleared(IntRect(x: 0, y: 0, width: 100, height: 100), to: 0xFF0B_1016)
        #expect(plain.color(under: inside)?.color == 0xFF0B_1016)
        #expect(plain.color(under: inside)?.drawnRows == 0..<0)
        #expect(plain.color(under: IntRect(x: 95, y: 0, width: 10, height: 10)) == nil, "partly outside the clear")

        plain.drew(IntRect(x: 10, y: 10, width: 20, height: 20))
        #expect(plain.color(under: inside)?.drawnRows == 0..<0, "a box drawn elsewhere")
        #expect(plain.color(under: IntRect(x: 0, y: 0, width: 100, height: 100))?.drawnRows == 10..<30,
                "the drawn box's rows are left out, the others still known")
        #expect(plain.color(under: IntRect(x: 20, y: 12, width: 40, height: 5)) == nil, "every row of it drawn")

        plain.forget()
        #expect(plain.color(under: inside) == nil)
    }

    @Test func boxesPastItsLimitAreMergedSoNoneIsLost() {
        var plain = PlainBackground()
        plain.cleared(IntRect(x: 0, y: 0, width: 400, height: 400), to: 1)
        // Forty boxes on a diagonal, more than it keeps apart.
        for i in 0..<40 { plain.drew(IntRect(x: 10 * i, y: 10 * i, width: 3, height: 3)) }
        for i in 0..<40 {
            let row = IntRect(x: 0, y: 10 * i + 1, width: 400, height: 1)
            #expect(plain.color(under: row) == nil, "row \(10 * i + 1) was drawn into")
        }
        // A box inside one already kept changes nothing.
        var single = PlainBackground()
        single.cleared(IntRect(x: 0, y: 0, width: 100, height: 100), to: 1)
        single.drew(IntRect(x: 10, y: 10, width: 50, height: 50))
        single.drew(IntRect(x: 20, y: 20, width: 5, height: 5))
        #expect(single.color(under: IntRect(x: 0, y: 0, width: 100, height: 100))?.drawnRows == 10..<60)
    }

    /// Draws the same things into two canvases: one that keeps what it
    /// knows of the background, one made to forget after every step (so it
    /// blends every pixel). `step` draws one thing.
    func drawBoth(_ steps: [(Canvas) -> Void]) -> (kept: PixelBuffer, blended: PixelBuffer) {
        let kept = PixelBuffer(width: 160, height: 120), blended = PixelBuffer(width: 160, height: 120)
        let a = Canvas(target: kept), b = Canvas(target: blended)
        for step in steps {
            step(a)
            step(b)
            _ = b.target
        }
        return (kept, blended)
    }

    @Test func shapesOverThePlainBackgroundAreThePixelsOfTheBlend() {
        let mask = AlphaMask(width: 12, height: 9)
        for y in 0..<9 { for x in 0..<12 { mask[x, y] = UInt8((x * 23 + y * 31) % 256) } }
        let image = PixelBuffer(width: 10, height: 6)
        image.fill(0x8040_2010)
        let green = Color(hex: 0x2FA37A)
        func roundedRect(_ r: Rect) -> Path { var p = Path(); p.addRoundedRect(r, cornerRadius: 6.5); return p }
        var sawPlain = false
        let (kept, blended) = drawBoth([
            { $0.clear(Color(hex: 0x0B1016)) },
            { $0.fill(roundedRect(Rect(x: 4, y: 4, width: 30, height: 20)), with: .solid(green.withAlpha(0.6))) },
            { $0.fill(mask: mask, x: 100, y: 30, with: .solid(.white)) },
            { $0.draw(image, x: 60, y: 2, opacity: 0.7) },
            { $0.save(); $0.opacity = 0.5; $0.fill(roundedRect(Rect(x: 120, y: 113, width: 30, height: 25)), with: .solid(.white)); $0.restore() },
            { canvas in
                // The card: over the clear in most rows, over the shapes above in some.
                if let known = canvas.plain.color(under: IntRect(x: 20, y: 10, width: 130, height: 100)), known.drawnRows.upperBound < 60 {
                    sawPlain = true
                }
                canvas.fill(roundedRect(Rect(x: 20.3, y: 10.6, width: 129.2, height: 99.1)), with: .solid(Color(hex: 0x121C26, alpha: 0.92)))
            },
            { $0.fill(roundedRect(Rect(x: 45.5, y: 35.2, width: 50, height: 50)), with: .solid(green.withAlpha(0.3))) },
            // Over the image, in rows above the card.
            { $0.fill(roundedRect(Rect(x: 52, y: 0, width: 30, height: 9)), with: .solid(green.withAlpha(0.4))) },
            // A group forgets what was known: what follows it is blended.
            { $0.beginGroup(opacity: 0.5); $0.fill(roundedRect(Rect(x: 40, y: 40, width: 30, height: 30)), with: .solid(green)); $0.endGroup() },
            { $0.fill(roundedRect(Rect(x: 30, y: 60, width: 50, height: 30)), with: .solid(green.withAlpha(0.3))) },
        ])
        #expect(sawPlain, "the card's box was known to hold the clear's colour below the shapes drawn into its top")
        var differing = 0
        for y in 0..<kept.height { for x in 0..<kept.width where kept[x, y] != blended[x, y] { differing += 1 } }
        #expect(differing == 0, "\(differing) pixels differ from the blend")
    }

    @Test func pixelsChangedThroughTheTargetAreNotTakenForTheBackground() {
        let canvas = Canvas(target: PixelBuffer(width: 40, height: 40))
        canvas.clear(Color(hex: 0x0B1016))
        let under: UInt32 = 0xFF80_4020
        canvas.target.fill(under, in: IntRect(x: 0, y: 0, width: 40, height: 20))
        var path = Path()
        path.addRect(Rect(x: 0, y: 0, width: 40, height: 40))
        let source = Color(hex: 0x121C26, alpha: 0.92)
        canvas.fill(path, with: .solid(source))
        let buffer = canvas.target
        #expect(buffer[20, 10] == PixelMath.sourceOver(source.premultipliedPixel, under))
        #expect(buffer[20, 30] == PixelMath.sourceOver(source.premultipliedPixel, Color(hex: 0x0B1016).premultipliedPixel))
    }
}
