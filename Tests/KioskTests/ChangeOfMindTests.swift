import Testing
import AnimationCore
@testable import KioskModel
import KioskTools

/// A change of mind: the kiosk goes to OVERFLIGHT and back to STANDBY before
/// the card has come in. The card never shows, not even faintly, and the
/// status word swaps once each way, never flickering.
@Suite struct ChangeOfMindTests {
    @Test(arguments: Audit.sizes)
    func aChangeOfMindWithinTheRevealDelayNeverShowsTheCard(size: String) throws {
        let pixels = try parseSize(size)
        let controller = KioskController(layout: KioskLayout(width: pixels.width, height: pixels.height))
        let delay = max(controller.layout.cardRevealDelay, 0.25)
        for back in [0.05, delay / 2, delay - 0.02] {
            let c = KioskController(layout: KioskLayout(width: pixels.width, height: pixels.height))
            _ = c.frameNeeded(at: 0)
            c.apply(Demo.sampleOverflight, at: 1)
            var card = 0.0, text = 0.0
            for step in 0..<240 {
                let t = 1 + Double(step) / 120
                if t >= 1 + back && c.state.mode == .overflight { c.apply(.standby, at: t) }
                _ = c.frameNeeded(at: t)
                for item in c.renderList where item.id.path.hasPrefix("card/") {
                    if item.id.path == "card/background" { card = max(card, item.opacity) } else { text = max(text, item.opacity) }
                }
            }
            #expect(card < 0.005 && text < 0.005, "\(size), back after \(back) s: card \(card), its text \(text)")
        }
    }
}
