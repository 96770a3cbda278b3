import Testing
#if canImport(Glibc)
import Glibc
#endif
import AnimationCore
import Raster
@testable import KioskRendering
@testable import KioskModel

/// What the card says must be true: north is 360°, and an aircraft on the
/// ground is not an overflight.
@Suite struct CardWordingTests {
    @Test func northIsWritten360() {
        for (bearing, text) in [(359.6, "360°"), (0.2, "360°"), (360.0, "360°"), (0.6, "1°"), (180.4, "180°"), (359.4, "359°")] {
            #expect(KioskScene.valueTexts(Aircraft(callsign: "X", bearingDegrees: bearing))[3].text == text, "\(bearing)")
        }
    }

    @Test func anAircraftOnTheGroundIsSaidToBe() {
        func word(_ aircraft: Aircraft) -> String? {
            let leaves = KioskScene.leaves(for: KioskState(mode: .overflight, aircraft: aircraft), shown: nil, layout: KioskLayout(width: 800, height: 480))
            return leaves.first { $0.id.path == "status" }.flatMap { if case let .text(s) = $0.content { s } else { nil } }
        }
        #expect(word(Aircraft(callsign: "TUG1", onGround: true)) == "ON GROUND")
        #expect(word(Aircraft(callsign: "BAW283", altitudeFeet: 3000)) == "OVERFLIGHT")
        #expect(word(Aircraft(callsign: "TUG1", onGround: true, alert: "WATCHED")) == "WATCHED", "an alert says why first")
    }

    @Test func anAircraftWithoutAnICAOAddressIsUnidentified() {
        let leaves = KioskScene.leaves(for: KioskState(mode: .overflight, aircraft: Aircraft(callsign: "~298FB7", altitudeFeet: 1200)), shown: nil,
                                       layout: KioskLayout(width: 800, height: 480))
        let callsign = leaves.first { $0.id.path == "card/callsign" }
        #expect(callsign?.content == .text("Unidentified"))
        #expect(callsign?.id.explicit == "~298FB7", "the address stays its identity: another one is another card")
        #expect(Aircraft.shownCallsign("BAW283") == "BAW283")
    }
}

/// An aircraft beyond the dial's range is an arrow on the rim, not a blip
/// pinned there as if it were at the range.
@Suite struct BeyondRangeMarkTests {
    @Test func beyondTheRangeTheMarkIsAnArrowAtTheRim() throws {
        let renderer = KioskRenderer(fonts: try FontSet())
        let bearing = 60.0   // clear of the crosshair and the compass points
        var dial = AnimatableRect(x: 0, y: 0, width: 0, height: 0)
        func frame(_ distance: Double) -> PixelBuffer {
            let state = KioskState(mode: .overflight, aircraft: Aircraft(callsign: "FAR1", altitudeFeet: 9000, distanceNM: distance, bearingDegrees: bearing))
            let tick = FrameTick(controller: KioskController(layout: KioskLayout(width: 1920, height: 1080), initial: state, measure: renderer),
                                 renderer: renderer, buffer: PixelBuffer(width: 1920, height: 1080))
            tick.draw(at: 0)
            dial = tick.controller.layout.dialFrame(.overflight)
            return tick.frame
        }
        let atRange = frame(20), beyond = frame(30), halfway = frame(10)
        let r = dial.width / 2, s = r / (0.42 * 1080), b = bearing * .pi / 180
        /// The green at `radius` from the centre along the bearing, `across` px to its clockwise side.
        func green(_ buffer: PixelBuffer, _ radius: Double, across: Double = 0) -> Int {
            let x = dial.midX + sin(b) * radius + cos(b) * across, y = dial.midY - cos(b) * radius + sin(b) * across
            return Int((buffer[Int(x.rounded()), Int(y.rounded())] >> 8) & 0xFF)
        }
        // At the range the blip's dot sits on the rim; beyond it the arrow is
        // narrow there, so beside the line only the blip is bright.
        #expect(green(atRange, r, across: 5 * s) > green(beyond, r, across: 5 * s) + 60,
                "beside the rim: \(green(atRange, r, across: 5 * s)) with the blip, \(green(beyond, r, across: 5 * s)) with the arrow")
        // The arrow's body just inside the rim.
        #expect(green(beyond, r - 8 * s) > 200, "the arrow inside the rim: \(green(beyond, r - 8 * s))")
        // At 10 NM the blip is half way out, and nothing of it is at the rim.
        #expect(green(halfway, r / 2) > 200 && green(halfway, r, across: 5 * s) < 120)
    }
}
