import Testing
import AnimationCore
import Display
import Input
import Raster
#if canImport(Glibc)
import Glibc
#endif
@testable import Feed
@testable import KioskModel

/// Gestures from timed touches, where they land on a turned panel, and what
/// a tap does on the dial, the card and a dark screen.
@Suite struct TouchTests {
    @Test func aDriftingFingerTapsAndATravellingOneSwipes() {
        var g = TouchGestures(width: 800, height: 480)
        #expect(g.take(id: 0, phase: .began, x: 100, y: 100, at: 0) == nil)
        _ = g.take(id: 0, phase: .moved, x: 107, y: 107, at: 0.05)
        #expect(g.take(id: 0, phase: .ended, x: 108, y: 106, at: 0.15) == .tap(x: 100, y: 100), "10 px of drift is still a tap")
        _ = g.take(id: 0, phase: .began, x: 100, y: 200, at: 1)
        _ = g.take(id: 0, phase: .moved, x: 250, y: 205, at: 1.1)
        #expect(g.take(id: 0, phase: .ended, x: 300, y: 205, at: 1.2) == .swipe(dx: 200, dy: 5), "a swipe is not a tap")
        // Out and back: travelled, so no tap, and not far enough at the end to swipe.
        _ = g.take(id: 0, phase: .began, x: 100, y: 200, at: 2)
        _ = g.take(id: 0, phase: .moved, x: 200, y: 200, at: 2.1)
        #expect(g.take(id: 0, phase: .ended, x: 102, y: 200, at: 2.2) == nil)
    }

    @Test func twoFingersAreNoGestureAndAHeldOneIsALongPress() {
        var g = TouchGestures(width: 800, height: 480)
        _ = g.take(id: 0, phase: .began, x: 100, y: 100, at: 0)
        _ = g.take(id: 1, phase: .began, x: 300, y: 100, at: 0.05)
        #expect(g.take(id: 1, phase: .ended, x: 300, y: 100, at: 0.1) == nil)
        #expect(g.take(id: 0, phase: .ended, x: 100, y: 100, at: 0.15) == nil)
        _ = g.take(id: 0, phase: .began, x: 400, y: 240, at: 1)
        #expect(g.take(id: 0, phase: .ended, x: 402, y: 241, at: 2) == .longPress(x: 400, y: 240))
        _ = g.take(id: 0, phase: .began, x: 400, y: 240, at: 3)
        #expect(g.take(id: 0, phase: .ended, x: 400, y: 240, at: 3.65) == nil, "between a tap and a long press: nothing")
        #expect(g.take(id: 5, phase: .ended, x: 1, y: 1, at: 4) == nil, "a lift never seen coming down")
    }

    /// The mapping undoes the picture's turn exactly as the copy into the scanout buffer makes it.
    @Test(arguments: DisplayRotation.allCases)
    func aTouchLandsOnThePixelDrawnUnderIt(rotation: DisplayRotation) {
        let (panelWidth, panelHeight) = (800, 480)
        let (frameWidth, frameHeight) = rotation.swapsAxes ? (panelHeight, panelWidth) : (panelWidth, panelHeight)
        let copier = ScanoutCopier(rotation: rotation, format: .xrgb8888, frameWidth: frameWidth, frameHeight: frameHeight)
        let mapping = TouchMapping(rotation: rotation)
        for (fx, fy) in [(10, 20), (frameWidth - 30, 5), (200, frameHeight - 1)] {
            let under = copier.bufferRect(for: IntRect(x: fx, y: fy, width: 1, height: 1))
            let (u, v) = ((Double(under.x) + 0.5) / Double(panelWidth), (Double(under.y) + 0.5) / Double(panelHeight))
            let p = mapping.point(x: u, y: v, width: Double(frameWidth), height: Double(frameHeight))
            #expect(abs(p.x - (Double(fx) + 0.5)) < 1e-6 && abs(p.y - (Double(fy) + 0.5)) < 1e-6, "\(rotation) (\(fx), \(fy)) → \(p)")
        }
        let swapped = TouchMapping(swapsAxes: true, invertsX: true).point(x: 0.25, y: 0.75, width: 800, height: 480)
        #expect(swapped.x == 0.25 * 800 && swapped.y == 0.25 * 480)
    }

    static func touch(_ c: KioskController, _ phase: TouchEvent.Phase, x: Double, y: Double, at t: Double) -> KioskController.Response {
        c.handle(.touch(TouchEvent(id: 0, phase: phase, x: x / c.layout.width, y: y / c.layout.height)), at: t)
    }

    /// The traffic of the Irvine capture with nothing overhead: a tap on a blip
    /// brings its card (SELECTED), the feed's standby does not take it away,
    /// a tap on the dial does, and so does the linger's end.
    @Test func aTapOnABlipChoosesItsAircraftUntilTheLingerEnds() throws {
        let capture = HitTestTests.away(try TrafficTests.capture())
        let controller = KioskController(layout: KioskLayout(width: 800, height: 480))
        controller.feed = FeedInterpreter(sourceName: "replay", selector: OverheadSelector(settings: .init(station: HitTestTests.station)))
        controller.touchLingerSeconds = 20
        _ = controller.handle(.feed([.snapshot(capture)]), at: 0)
        for t in stride(from: 0.0, through: 2, by: 1.0 / 60) { _ = controller.frameNeeded(at: t) }
        let dial = try #require(controller.view.renderList.first { $0.id == KioskScene.dialID })
        let blip = try #require(controller.traffic.blips.first)
        let (x, y) = (dial.frame.midX + blip.x * dial.frame.width / 2, dial.frame.midY - blip.y * dial.frame.width / 2)
        _ = Self.touch(controller, .began, x: x, y: y, at: 2)
        let chosen = Self.touch(controller, .ended, x: x + 3, y: y, at: 2.1)
        #expect(controller.state.mode == .overflight && controller.state.selected && controller.state.aircraft != nil)
        #expect(chosen.log.first?.hasPrefix("radar-kiosk: state SELECTED") == true, "\(chosen.log)")
        #expect(controller.selectionDeadline == 22.1)
        // The feed still sees nothing overhead: the chosen card stays.
        var later = capture
        later.now += 2
        _ = controller.handle(.feed([.snapshot(later)]), at: 4)
        #expect(controller.state.selected)
        _ = controller.handle(.selectionLingerEnded, at: 10)
        #expect(controller.state.selected, "not before its time")
        _ = controller.handle(.selectionLingerEnded, at: 22.2)
        #expect(controller.state.mode == .standby && controller.selectionDeadline == nil)

        // Chosen again, then a tap on the dial away from every blip: standby.
        _ = Self.touch(controller, .began, x: x, y: y, at: 30)
        _ = Self.touch(controller, .ended, x: x, y: y, at: 30.1)
        #expect(controller.state.selected)
        for t in stride(from: 30.1, through: 33, by: 1.0 / 60) { _ = controller.frameNeeded(at: t) }
        let card = try #require(controller.view.renderList.first { $0.id.path == "card/background" })
        let shown = controller.state.aircraft?.callsign
        _ = Self.touch(controller, .began, x: card.frame.maxX - 10, y: card.frame.maxY - 10, at: 33)
        let tapCard = Self.touch(controller, .ended, x: card.frame.maxX - 10, y: card.frame.maxY - 10, at: 33.1)
        #expect(tapCard.log.count == 1 && tapCard.log[0].hasSuffix("(touch: next)") && controller.state.aircraft?.callsign != shown,
                "a tap on the card: the next aircraft around, \(tapCard.log) \(card.frame)")
        #expect(controller.state.selected, "still chosen")
        let settledDial = try #require(controller.view.renderList.first { $0.id == KioskScene.dialID })
        let away = settledDial.frame.scaled(aboutCenterBy: settledDial.scale)
        _ = Self.touch(controller, .began, x: away.midX, y: away.y + 4, at: 34)
        _ = Self.touch(controller, .ended, x: away.midX, y: away.y + 4, at: 34.1)
        #expect(controller.state.mode == .standby, "a tap on the dial puts the chosen card away")
    }

    /// A screen dark at night, traffic on the dial: a tap on a blip wakes the
    /// screen and does nothing else (the card does not come up unseen).
    @Test func aTouchOnADarkScreenWakesItAndIsNotATap() throws {
        let controller = KioskController(layout: KioskLayout(width: 800, height: 480))
        controller.feed = FeedInterpreter(sourceName: "replay", selector: OverheadSelector(settings: .init(station: HitTestTests.station)))
        _ = controller.handle(.feed([.snapshot(HitTestTests.away(try TrafficTests.capture()))]), at: 0)
        for t in stride(from: 0.0, through: 2, by: 1.0 / 60) { _ = controller.frameNeeded(at: t) }
        _ = controller.handle(.night(true), at: 2)
        #expect(controller.screenPower(at: 2) == .off)
        let dial = try #require(controller.view.renderList.first { $0.id == KioskScene.dialID })
        let blip = try #require(controller.traffic.blips.first)
        let (x, y) = (dial.frame.midX + blip.x * dial.frame.width / 2, dial.frame.midY - blip.y * dial.frame.width / 2)
        let woke = Self.touch(controller, .began, x: x, y: y, at: 2.5)
        #expect(woke.log == ["radar-kiosk: wake (touch): screen on"])
        let lifted = Self.touch(controller, .ended, x: x, y: y, at: 2.6)
        #expect(lifted.log.isEmpty && controller.state.mode == .standby, "the waking touch chose nothing")
        #expect(controller.screenPower(at: 3).isOn)
        // Awake now: the same tap chooses the aircraft.
        _ = Self.touch(controller, .began, x: x, y: y, at: 3)
        _ = Self.touch(controller, .ended, x: x, y: y, at: 3.1)
        #expect(controller.state.selected)
    }
}

/// Several aircraft overhead: the card says which of them it shows ("1/3"),
/// moves on by itself each `overhead.cycle_s` (the loop wakes for it) and
/// at once on a tap on the card.
@Suite struct OverheadRoundTests {
    static let station = GeoPoint(latitude: 51.47, longitude: -0.4543)

    static func snapshot(at t: Double) -> AircraftSnapshot {
        let aircraft = [("400001", "BAW1", 1.0), ("400002", "EZY2", 1.5), ("400003", "RYR3", 2.0)].map { hex, callsign, north in
            var r = AircraftReport(hex: hex)
            r.callsign = callsign
            r.altitudeFeet = 3000
            (r.latitude, r.longitude) = (station.latitude + north / 60, station.longitude)
            r.positionAge = 0
            return r
        }
        return AircraftSnapshot(now: t, aircraft: aircraft)
    }

    static func placeText(_ c: KioskController) -> String? {
        guard let item = c.renderList.first(where: { $0.id.path == "card/place" }), item.opacity > 0.5, case let .text(t) = item.content else { return nil }
        return t
    }

    @Test func theCardCountsTheAircraftOverheadAndTakesTurns() throws {
        let controller = KioskController(layout: KioskLayout(width: 800, height: 480))
        let interpreter = FeedInterpreter(sourceName: "test", selector: OverheadSelector(settings: .init(station: Self.station)))
        controller.feed = interpreter
        _ = controller.handle(.feed([.snapshot(Self.snapshot(at: 0))]), at: 0)
        #expect(controller.state.aircraft?.callsign == "BAW1" && controller.state.place == .init(index: 1, count: 3))
        for t in stride(from: 0.0, through: 2, by: 1.0 / 60) { _ = controller.frameNeeded(at: t) }
        #expect(Self.placeText(controller) == "1/3")
        #expect(controller.statusLine == "OVERFLIGHT BAW1 1/3")
        // The loop is told when the turn ends, and at that deadline the next one's card comes.
        #expect(interpreter.deadline == 8)
        let turn = controller.handle(.feedDeadline, at: 8)
        #expect(controller.state.aircraft?.callsign == "EZY2" && controller.state.place == .init(index: 2, count: 3), "\(turn.log)")
        for t in stride(from: 8.0, through: 10, by: 1.0 / 60) { _ = controller.frameNeeded(at: t) }
        #expect(Self.placeText(controller) == "2/3")
        // A tap on the card: the third at once, not chosen (the round goes on from it).
        let card = try #require(controller.renderList.first { $0.id.path == "card/background" }).frame
        _ = TouchTests.touch(controller, .began, x: card.midX, y: card.maxY - 10, at: 10)
        let tap = TouchTests.touch(controller, .ended, x: card.midX, y: card.maxY - 10, at: 10.1)
        #expect(controller.state.aircraft?.callsign == "RYR3" && !controller.state.selected, "\(tap.log)")
        #expect(tap.log == ["radar-kiosk: state OVERFLIGHT RYR3 3/3 (touch: the next overhead)"])
        #expect(interpreter.selector.turnEnds == 18.1)
        // New positions within its turn keep it; after, the round starts again.
        _ = controller.handle(.feed([.snapshot(Self.snapshot(at: 12))]), at: 12)
        #expect(controller.state.aircraft?.callsign == "RYR3")
        _ = controller.handle(.feed([.snapshot(Self.snapshot(at: 18.2))]), at: 18.2)
        #expect(controller.state.aircraft?.callsign == "BAW1" && controller.state.place?.index == 1)
        // The state as `get` gives it carries the place.
        let place = controller.state.json.objectValue?["place"]?.objectValue
        #expect(place?["index"]?.doubleValue == 1 && place?["count"]?.doubleValue == 3)
    }

    @Test func oneOverheadShowsNoCountAndNeverTakesTurns() {
        let controller = KioskController(layout: KioskLayout(width: 800, height: 480))
        let interpreter = FeedInterpreter(sourceName: "test", selector: OverheadSelector(settings: .init(station: Self.station)))
        controller.feed = interpreter
        var one = Self.snapshot(at: 0)
        one.aircraft.removeLast(2)
        _ = controller.handle(.feed([.snapshot(one)]), at: 0)
        for t in stride(from: 0.0, through: 2, by: 1.0 / 60) { _ = controller.frameNeeded(at: t) }
        #expect(controller.state.place == nil && Self.placeText(controller) == nil)
        #expect(interpreter.deadline == 15, "only the data going stale")
    }

    @Test func withTurnsOffTheClosestStays() {
        let controller = KioskController(layout: KioskLayout(width: 800, height: 480))
        var settings = OverheadSelector.Settings(station: Self.station)
        settings.cycleSeconds = 0
        let interpreter = FeedInterpreter(sourceName: "test", selector: OverheadSelector(settings: settings))
        controller.feed = interpreter
        _ = controller.handle(.feed([.snapshot(Self.snapshot(at: 0))]), at: 0)
        _ = controller.handle(.feed([.snapshot(Self.snapshot(at: 20))]), at: 20)
        #expect(controller.state.aircraft?.callsign == "BAW1" && interpreter.deadline == 35)
    }
}
