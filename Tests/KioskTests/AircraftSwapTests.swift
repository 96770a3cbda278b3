import Testing
import AnimationCore
@testable import KioskModel
import KioskTools

/// Aircraft A's card giving way to B's while the card is up: field by field,
/// B's values coming in as A's go, so the card never stands with its labels
/// and no values, and A's and B's are never both more than faint.
@Suite struct AircraftSwapTests {
    static let a = Aircraft(callsign: "BAW283", route: "LHR → LAX", altitudeFeet: 36_000, groundSpeedKnots: 487, distanceNM: 3.2, bearingDegrees: 274)
    static let b = Aircraft(callsign: "DLH4AB", route: "FRA → MAN", altitudeFeet: 9_750, groundSpeedKnots: 312, distanceNM: 2.1, bearingDegrees: 118)

    @Test(arguments: Audit.sizes)
    func anotherAircraftNeverLeavesTheCardWithoutValues(size: String) throws {
        let pixels = try parseSize(size)
        let c = KioskController(layout: KioskLayout(width: pixels.width, height: pixels.height))
        _ = c.frameNeeded(at: 0)
        c.apply(KioskState(mode: .overflight, aircraft: Self.a), at: 0)
        for step in 0...360 { _ = c.frameNeeded(at: Double(step) / 120) }
        c.apply(KioskState(mode: .overflight, aircraft: Self.b), at: 3)
        var emptiest = 1.0, ghost = 0.0
        for step in 0...120 {
            let t = 3 + Double(step) / 120
            _ = c.frameNeeded(at: t)
            let labels = c.renderList.first { $0.id.path == "card/row0/label" }?.opacity ?? 0
            for row in 0..<4 {
                let values = c.renderList.filter { $0.id.path == "card/row\(row)/value" }
                let of = { (who: String) in values.filter { $0.id.explicit == who }.map(\.opacity).max() ?? 0 }
                if labels > 0.9 { emptiest = min(emptiest, max(of("BAW283"), of("DLH4AB"))) }
                ghost = max(ghost, min(of("BAW283"), of("DLH4AB")))
            }
        }
        #expect(emptiest >= 0.05, "\(size): a frame with the labels up and the values at \(emptiest)")
        #expect(ghost <= 0.1, "\(size): A's and B's values both at \(ghost)")
        #expect(c.renderList.filter { $0.id.path.hasPrefix("card/row") && $0.id.path.hasSuffix("/value") && $0.id.explicit == "DLH4AB" }.allSatisfy { $0.opacity == 1 },
                "B's values are all in after a second")
    }
}
