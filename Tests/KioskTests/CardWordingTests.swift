import Testing
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
