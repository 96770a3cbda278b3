import Testing
import AnimationCore
#if canImport(Glibc)
import Glibc
#endif
@testable import Feed
@testable import KioskModel

/// What a tap finds: the view's hit test against what its output shows at
/// that moment, mid-glide included. LXJ440 (the Irvine capture's only
/// airborne aircraft within 3 NM of the station) comes overhead while the
/// dial sweeps with the traffic; the point where it is drawn reports it all
/// through the glide (its traffic blip first, then its marker), and the card
/// is the card once it is there.
@Suite struct HitTestTests {
    static let station = GeoPoint(latitude: 33.635029, longitude: -117.842218)

    /// The capture with LXJ440 moved 10 NM north: nothing overhead.
    static func away(_ capture: AircraftSnapshot) -> AircraftSnapshot {
        var snapshot = capture
        for i in snapshot.aircraft.indices where snapshot.aircraft[i].hex == "a54b30" {
            snapshot.aircraft[i].latitude = 33.85
        }
        return snapshot
    }

    /// Where the aircraft is drawn on the dial of `view` at `time`, from its
    /// own bearing and distance (not from the view's blips or leaves), by
    /// the brighter of its two marks: its blip among the traffic, faded with
    /// the sweeping face, at the range the rings show now; or its marker,
    /// fading in where the settled dial will have it.
    static func drawnCentre(of aircraft: Aircraft, in view: KioskView, controller: KioskController,
                            at time: Double) -> (x: Double, y: Double)? {
        guard let dial = view.renderList.first(where: { $0.id == KioskScene.dialID }), let bearing = aircraft.bearingDegrees,
              let distance = aircraft.distanceNM else { return nil }
        let marker = view.renderList.first { $0.id.path == "dial/marker" }?.opacity ?? 0
        let sweeping = 1 - DialChannels(dial.custom).stillness > marker
        let frame = sweeping ? dial.frame.scaled(aboutCenterBy: dial.scale) : view.layout.dialFrame(.overflight)
        let range = sweeping ? controller.traffic.displayedRangeNM(at: time) : controller.dialRangeNM
        let r = min(distance / range, 1) * frame.width / 2
        return (frame.midX + sin(bearing * .pi / 180) * r, frame.midY - cos(bearing * .pi / 180) * r)
    }

    /// A point of the dial farther than the touch slop from every blip.
    static func emptyPointOfDial(_ view: KioskView, traffic: TrafficPicture) -> (x: Double, y: Double)? {
        guard let dial = view.renderList.first(where: { $0.id == KioskScene.dialID }) else { return nil }
        let r = dial.frame.width / 2
        for step in 0..<72 {
            for reach in [0.9, 0.7, 0.5, 0.3] {
                let angle = Double(step) * 5 * .pi / 180
                let (x, y) = (sin(angle) * reach, cos(angle) * reach)
                if traffic.blips.allSatisfy({ (($0.x - x) * ($0.x - x) + ($0.y - y) * ($0.y - y)).squareRoot() * r > 2 * view.touchSlop }) {
                    return (dial.frame.midX + x * r, dial.frame.midY - y * r)
                }
            }
        }
        return nil
    }

    @Test(arguments: [(800, 480), (1920, 1080), (720, 1280)])
    func theAircraftIsFoundWhereItIsDrawnThroughTheGlide(width: Int, height: Int) throws {
        let capture = try TrafficTests.capture()
        let controller = KioskController(layout: KioskLayout(width: width, height: height))
        controller.feed = FeedInterpreter(sourceName: "replay", selector: OverheadSelector(settings: .init(station: Self.station)))
        _ = controller.handle(.feed([.snapshot(Self.away(capture))]), at: 0)
        // The traffic fades in and the range settles.
        for t in stride(from: 0.0, through: 2, by: 1.0 / 60) { _ = controller.frameNeeded(at: t) }
        #expect(controller.state.mode == .standby)
        let view = controller.view
        // Away from every blip, the dial is the dial; on a blip, that blip's aircraft.
        let empty = try #require(Self.emptyPointOfDial(view, traffic: controller.traffic))
        #expect(view.hitTest(x: empty.x, y: empty.y) == .dial)
        let dial = try #require(view.renderList.first { $0.id == KioskScene.dialID })
        let blip = try #require(controller.traffic.blips.first)
        #expect(view.hitTest(x: dial.frame.midX + blip.x * dial.frame.width / 2, y: dial.frame.midY - blip.y * dial.frame.width / 2)
                == .traffic(address: controller.traffic.address(ofSerial: blip.serial) ?? "?"))

        var snapshot = capture
        snapshot.now += 2
        _ = controller.handle(.feed([.snapshot(snapshot)]), at: 2)
        let aircraft = try #require(controller.state.aircraft)
        #expect(aircraft.callsign == "LXJ440")
        // The layout's spring: `.spring(duration: 0.8, bounce: 0.12)`.
        let glide = 0.8
        var cardFound = false
        for fraction in [0.2, 0.5, 0.8] {
            let t = 2 + fraction * glide
            _ = controller.frameNeeded(at: t)
            let items = view.renderList
            let centre = try #require(Self.drawnCentre(of: aircraft, in: view, controller: controller, at: t))
            let found = view.hitTest(x: centre.x, y: centre.y)
            #expect(found == .aircraft("LXJ440") || found == .traffic(address: "a54b30"),
                    "at \(Int(fraction * 100)) % of the glide at \(width)x\(height): \(found) at \(centre); \(items.filter { $0.id.path == "dial/marker" || $0.id == KioskScene.dialID }.map { "\($0.id) \($0.frame) \($0.opacity) \($0.custom.x)" }) \(controller.traffic.blips.filter { $0.highlighted })")
            // A point on the card: the card once it shows, never the aircraft.
            let card = try #require(items.first { $0.id == NodeID("card/background") })
            let onCard = view.hitTest(x: card.frame.maxX - 10, y: card.frame.maxY - 10)
            if card.opacity > KioskView.visible {
                #expect(onCard == .card, "at \(Int(fraction * 100)) %: \(onCard)")
                cardFound = true
            } else {
                #expect(onCard != .card, "the card at \(card.opacity) opacity is not there to be touched")
            }
        }
        #expect(cardFound, "the card shows by 80 % of the glide")
        // Far from the aircraft on the still dial: the dial.
        let settled = try #require(view.renderList.first { $0.id == KioskScene.dialID })
        _ = controller.frameNeeded(at: 4)
        let centre = try #require(Self.drawnCentre(of: aircraft, in: view, controller: controller, at: 4))
        let opposite = (x: 2 * settled.frame.midX - centre.x, y: 2 * settled.frame.midY - centre.y)
        #expect(view.hitTest(x: opposite.x, y: opposite.y) == .dial)
    }

    /// A second view follows the same state at its own size: the aircraft is
    /// where that view draws it, not where the first one does.
    @Test func aSecondViewHasItsOwnLayoutAndHitTest() throws {
        let capture = try TrafficTests.capture()
        let controller = KioskController(layout: KioskLayout(width: 800, height: 480))
        let second = controller.addView(layout: KioskLayout(width: 1920, height: 1080), at: 0)
        controller.feed = FeedInterpreter(sourceName: "replay", selector: OverheadSelector(settings: .init(station: Self.station)))
        _ = controller.handle(.feed([.snapshot(capture)]), at: 0)
        for t in stride(from: 0.0, through: 2, by: 1.0 / 60) { _ = controller.frameNeeded(at: t) }
        let aircraft = try #require(controller.state.aircraft)
        // Settled; the clocks run on for the traffic the still faces keep.
        #expect(!controller.isAnimating(at: 2) && second.isSweeping && controller.view.isSweeping)
        let small = try #require(Self.drawnCentre(of: aircraft, in: controller.view, controller: controller, at: 2))
        let large = try #require(Self.drawnCentre(of: aircraft, in: second, controller: controller, at: 2))
        #expect(controller.view.hitTest(x: small.x, y: small.y) == .aircraft("LXJ440"))
        #expect(second.hitTest(x: large.x, y: large.y) == .aircraft("LXJ440"))
        #expect(abs(small.x - large.x) + abs(small.y - large.y) > 100, "the two outputs draw it at two places")
        // Back to standby: both views glide back and sweep again.
        controller.apply(.standby, at: 3)
        #expect(controller.view.isSweeping && second.isSweeping)
        #expect(second.frameNeeded(at: 3.1) && controller.view.frameNeeded(at: 3.1))
    }
}
