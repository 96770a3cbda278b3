import Testing
import AnimationCore
@testable import KioskModel
import KioskTools

/// A change of mind: the kiosk goes to OVERFLIGHT and back to STANDBY before
/// the card has come in. The card never shows, not even faintly, and the
/// status word it interrupted comes back at once, never out and in again.
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

    /// The word the change of mind interrupted comes straight back, in one
    /// movement: OVERFLIGHT never shows, STANDBY is whole again 0.25 s after
    /// the change (not 0.25 s later still, out and in again), and once it is
    /// on its way back it never dims (its fade-out's last 0.1 s add to the
    /// fade-in, as SwiftUI's animations do).
    @Test(arguments: Audit.sizes)
    func theStatusWordComesStraightBack(size: String) throws {
        let pixels = try parseSize(size)
        let delay = max(KioskController(layout: KioskLayout(width: pixels.width, height: pixels.height)).layout.cardRevealDelay, 0.25)
        for back in [0.05, delay / 2, delay - 0.02] {
            let c = KioskController(layout: KioskLayout(width: pixels.width, height: pixels.height))
            _ = c.frameNeeded(at: 0)
            c.apply(Demo.sampleOverflight, at: 1)
            var overflight = 0.0, previous = 0.0, dims: [String] = []
            var whole = -1.0
            for step in 0..<240 {
                let t = 1 + Double(step) / 120
                if t >= 1 + back && c.state.mode == .overflight { c.apply(.standby, at: t) }
                _ = c.frameNeeded(at: t)
                func opacity(_ word: String) -> Double {
                    c.renderList.filter { $0.id.path == "status" && $0.content == .text(word) }.map(\.opacity).max() ?? 0
                }
                overflight = max(overflight, opacity("OVERFLIGHT"))
                let standby = opacity("STANDBY")
                if t > 1 + back + 0.1 && standby < previous - 0.001 { dims.append("\(t - 1): \(previous) → \(standby)") }
                if whole < 0 && t > 1 + back && standby >= 0.99 { whole = t - 1 - back }
                previous = standby
            }
            #expect(overflight < 0.005, "\(size), back after \(back) s: OVERFLIGHT at \(overflight)")
            #expect(whole >= 0 && whole <= 0.25, "\(size), back after \(back) s: STANDBY whole \(whole) s after")
            #expect(dims.isEmpty, "\(size), back after \(back) s: STANDBY dims again: \(dims.prefix(3))")
        }
    }
}
