import Testing
import AnimationCore
import Feed
import JSON
@testable import KioskModel
import KioskRendering

/// An aircraft's pass: once it has left the overhead zone and its card is
/// held, the card says how long it was overhead and how close it came, in
/// place of where to look; the overflight log keeps the same figures.
@Suite struct PassageTests {
    static let station = GeoPoint(latitude: 51.35, longitude: -0.58)

    /// One aircraft `distance` NM north of the station, flying north, at receiver time `t`.
    static func snapshot(_ distance: Double, at t: Double) -> AircraftSnapshot {
        var r = AircraftReport(hex: "4ca7b5")
        r.callsign = "EIN154"
        r.latitude = station.latitude + distance / 60
        r.longitude = station.longitude
        r.altitudeFeet = 3_000
        r.trackDegrees = 0
        r.groundSpeedKnots = 180
        r.positionAge = 0
        r.age = 0
        return AircraftSnapshot(now: t, aircraft: [r])
    }

    @Test func theCardSaysHowLongItWasOverheadAndHowCloseOnceItHasLeft() throws {
        var settings = OverheadSelector.Settings(station: Self.station)
        settings.radiusNM = 3
        settings.exitRadiusNM = 3.5
        settings.holdSeconds = 8
        let interpreter = FeedInterpreter(sourceName: "test", selector: OverheadSelector(settings: settings))
        // In at 100 s, closest at 120 s (0.6 NM), still inside the exit radius at 140 s, out at 150 s.
        let track: [(t: Double, nm: Double)] = [(100, 2.5), (110, 1.0), (120, 0.6), (130, 1.5), (140, 3.2), (150, 4.0), (155, 4.5)]
        var states: [Double: KioskState] = [:]
        for (t, nm) in track {
            states[t] = interpreter.state(after: [.snapshot(Self.snapshot(nm, at: t))], now: t, log: { _ in }) ?? states[t - 5]
        }
        for t in [100.0, 110, 120, 130, 140] {
            #expect(states[t]?.aircraft?.callsign == "EIN154" && states[t]?.aircraft?.passage == nil, "\(t): still overhead")
        }
        let passage = try #require(states[150]?.aircraft?.passage, "held after leaving")
        #expect(passage.overheadSeconds == 50 && abs(passage.closestNM - 0.6) < 0.01, "\(passage)")
        #expect(states[155]?.aircraft?.passage == passage, "the figures hold still while the card is held")
        // The log's line for the pass says the same.
        var tracker = OverflightTracker()
        for t in [100.0, 110, 120, 130, 140, 150, 155] { _ = tracker.observe(states[t]!, at: t) }
        let ended = tracker.observe(.standby, at: 158)
        let logged = try #require(ended)
        #expect(logged.overheadSeconds == 50 && logged.closestNM.map { abs($0 - 0.6) < 0.01 } == true, "\(logged.jsonLine)")
        #expect(Overflight(jsonLine: logged.jsonLine)?.overheadSeconds == 50)
        #expect(interpreter.reevaluate(now: 158.5, log: { _ in }) == .standby, "the hold runs out")
    }

    @Test func durationsReadAsAPersonSaysThem() {
        #expect(Passage(overheadSeconds: 45, closestNM: 1).durationText == "45 s")
        #expect(Passage(overheadSeconds: 130, closestNM: 1).durationText == "2 min 10 s")
        #expect(Passage(overheadSeconds: 120, closestNM: 1).durationText == "2 min")
        #expect(Passage(overheadSeconds: 3_900, closestNM: 1).durationText == "1 h 5 min")
    }

    @Test func aBadPassageIsRefusedByName() throws {
        let bad = #expect(throws: KioskState.ParseError.self) {
            try KioskState(json: try JSONParser.parse(#"{"mode":"overflight","aircraft":{"callsign":"X","passage":{"overhead_s":-5,"closest_nm":1}}}"#))
        }
        #expect(bad?.description.hasPrefix("state.aircraft.passage.overhead_s:") == true, "\(bad?.description ?? "")")
    }

    /// The opacity of each leaf named `path` in the render list.
    static func opacity(_ controller: KioskController, _ path: String) -> Double {
        controller.renderList.filter { $0.id.path == path }.map(\.opacity).max() ?? 0
    }

    @Test(arguments: ["800x480", "1280x720", "720x720"])
    func whereToLookGivesWayToThePassNeverBothAtOnce(size: String) throws {
        let renderer = KioskRenderer(fonts: try FontSet())
        let pixels = try parseSize(size)
        var a = Aircraft(callsign: "EIN154", altitudeFeet: 3_000, distanceNM: 1.2, bearingDegrees: 20)
        let controller = KioskController(layout: KioskLayout(width: pixels.width, height: pixels.height),
                                         initial: KioskState(mode: .overflight, aircraft: a), measure: renderer)
        _ = controller.frameNeeded(at: 0)
        #expect(Self.opacity(controller, "card/look/value") == 1 && Self.opacity(controller, "card/passage/value") == 0)
        a.distanceNM = 3.6
        a.passage = Passage(overheadSeconds: 130, closestNM: 0.44)
        controller.apply(KioskState(mode: .overflight, aircraft: a), at: 1)
        var overlap = 0.0
        for step in 0...120 {
            let t = 1 + Double(step) / 120
            _ = controller.frameNeeded(at: t)
            overlap = max(overlap, min(Self.opacity(controller, "card/look/value"), Self.opacity(controller, "card/passage/value")))
        }
        #expect(overlap < 0.05, "both rows legible at once: \(overlap)")
        #expect(Self.opacity(controller, "card/look/value") == 0 && Self.opacity(controller, "card/passage/value") == 1)
        let texts = controller.renderList.compactMap { item -> String? in
            guard item.id.path.hasPrefix("card/passage/"), item.opacity > 0.5, case let .text(t) = item.content else { return nil }
            return t
        }
        #expect(texts.contains("OVERHEAD") && texts.contains("2 min 10 s"), "\(texts)")
        if pixels.width >= 800 { #expect(texts.contains("closest 0.4 NM"), "\(size): \(texts)") }
    }
}
