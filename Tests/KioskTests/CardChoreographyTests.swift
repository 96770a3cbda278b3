import Testing
import AnimationCore
import Typography
@testable import KioskModel
@testable import KioskRendering
@testable import KioskTools

/// The card and the dial take turns: at every audited screen size, no frame of
/// the glide to overflight or back shows the card or its text over the dial.
@Suite struct CardChoreographyTests {
    let renderer: KioskRenderer

    init() throws { renderer = KioskRenderer(fonts: try FontSet()) }

    /// Where an item's drawing can reach: the card's frame, or a text's em box
    /// from its anchor (ascent above the baseline at the frame's bottom, descent below).
    func extent(of item: RenderItem) -> AnimatableRect? {
        guard let style = KioskStyle(item.style) else { return nil }
        switch style {
        case _ where style == .dial || style.isMarker: return nil
        case _ where style.isCard: return item.frame
        default:
            guard case let .text(string) = item.content, !string.isEmpty else { return nil }
            let look = renderer.textStyle(style)
            let font = Font(face: look.face, approximateSize: Float(item.frame.height))
            let advance = Double(renderer.text.shaper.shape(string, font: font).advance)
            let x = look.alignment == .right ? item.frame.x - advance : item.frame.x
            return AnimatableRect(x: x, y: item.frame.maxY - Double(font.ascent), width: advance,
                                  height: Double(font.ascent + font.descent))
        }
    }

    /// Whether the disc inscribed in `dial` reaches into `rect`.
    static func disc(_ dial: AnimatableRect, reaches rect: AnimatableRect) -> Bool {
        let cx = dial.midX, cy = dial.midY, r = dial.width / 2
        let nx = min(max(cx, rect.x), rect.maxX), ny = min(max(cy, rect.y), rect.maxY)
        return (nx - cx) * (nx - cx) + (ny - cy) * (ny - cy) < r * r
    }

    /// Frames at 120 Hz from `start` for two seconds: the items drawn over the dial.
    func overlaps(_ controller: KioskController, from start: Double) -> [String] {
        var found: [String] = []
        for step in 0..<240 {
            let t = start + Double(step) / 120
            _ = controller.frameNeeded(at: t)
            let list = controller.renderList
            guard let dial = list.first(where: { $0.id.path == "dial" }) else { continue }
            for item in list where item.opacity > 0.01 {
                if let extent = extent(of: item), Self.disc(dial.frame, reaches: extent) {
                    found.append("\(item.id) at \((t - start) * 1000) ms, opacity \(item.opacity)")
                }
            }
        }
        return found
    }

    @Test(arguments: Audit.sizes)
    func theCardNeverShowsOverTheDial(size: String) throws {
        let pixels = try parseSize(size)
        let controller = KioskController(layout: KioskLayout(width: pixels.width, height: pixels.height))
        _ = controller.frameNeeded(at: 0)
        controller.apply(Demo.sampleOverflight, at: 1)
        let arriving = overlaps(controller, from: 1)
        #expect(arriving.isEmpty, "to overflight: \(arriving.prefix(3))")
        #expect(controller.renderList.contains { $0.id.path == "card/callsign" && $0.opacity > 0.99 }, "the card is up in the end")
        controller.apply(KioskState.standby, at: 4)
        let leaving = overlaps(controller, from: 4)
        #expect(leaving.isEmpty, "back to standby: \(leaving.prefix(3))")
        #expect(!controller.renderList.contains { $0.id.path.hasPrefix("card/") && $0.opacity > 0.01 }, "the card is gone in the end")
    }

    @Test func theCardWaitsNoLongerThanTheDialNeeds() {
        // The delay is the glide's, measured per layout: about 0.3 s landscape (wide or narrow), 0.4 s portrait.
        for size in [(800, 480), (1920, 1080), (480, 800), (800, 600), (720, 720), (1280, 1024)] {
            let delay = KioskLayout(width: size.0, height: size.1).cardRevealDelay
            #expect(delay > 0.2 && delay < 0.5, "\(size): \(delay) s")
        }
    }
}
