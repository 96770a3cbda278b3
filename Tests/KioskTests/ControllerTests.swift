import Testing
import AnimationCore
import Display
@testable import Feed
import Raster
import JSON
import SystemIO
@testable import KioskModel
@testable import KioskRendering

/// Every input-to-state rule, on the controller alone: no display, no device,
/// no clock (times are passed in).
@Suite struct ControllerTests {
    static let layout = KioskLayout(width: 800, height: 480)
    static let station = GeoPoint(latitude: 51.47, longitude: -0.4543)

    /// A feed that knows one aircraft `distance` NM north of the station.
    static func feed(callsign: String = "EZY81QK", north distance: Double = 1.0, groundSpeed: Double? = 250, now: Double = 0) -> (FeedInterpreter, [FeedEvent]) {
        var settings = OverheadSelector.Settings(station: station)
        settings.radiusNM = 3
        let interpreter = FeedInterpreter(sourceName: "test", selector: OverheadSelector(settings: settings))
        var report = AircraftReport(hex: "4ca123")
        report.callsign = callsign
        report.altitudeFeet = 3000
        report.latitude = station.latitude + distance / 60
        report.longitude = station.longitude
        report.positionAge = 1
        report.groundSpeedKnots = groundSpeed
        return (interpreter, [.snapshot(AircraftSnapshot(now: now, aircraft: [report]))])
    }

    static func texts(_ controller: KioskController) -> [String: String] {
        var out: [String: String] = [:]
        for item in controller.renderList where item.opacity > 0.5 {
            if case let .text(t) = item.content { out[item.id.path] = t }
        }
        return out
    }

    @Test func aChangeNotAnimatedShowsTheNewStateOnTheNextFrame() {
        // The state a GPIO line is in at start: the first frame is that state,
        // with none of the card's or the dial's own choreography.
        let c = KioskController(layout: Self.layout)
        _ = c.frameNeeded(at: 0)
        c.apply(Demo.sampleOverflight, at: 0.5, animated: false)
        _ = c.frameNeeded(at: 0.5)
        let settled = KioskController(layout: Self.layout, initial: Demo.sampleOverflight)
        _ = settled.frameNeeded(at: 0)
        for item in settled.renderList {
            let now = c.renderList.first { $0.id == item.id }
            #expect(now?.frame == item.frame && now?.opacity == item.opacity, "\(item.id)")
        }
    }

    @Test func getSaysWhetherTheFeedIsLive() throws {
        let c = KioskController(layout: Self.layout)
        #expect(!c.perform(.get, at: 0).reply!.contains("feeds"), "no feed, no feeds")
        let (interpreter, events) = Self.feed()
        c.feed = interpreter
        #expect(c.perform(.get, at: 0).reply!.contains(#""feeds":[{"live":false,"name":"test"}]"#), "nothing has come yet")
        _ = c.handle(.feed(events), at: 1)
        #expect(c.perform(.get, at: 1).reply!.contains(#""feeds":[{"live":true,"name":"test"}]"#))
        interpreter.memberStatuses = { [FeedSourceStatus(name: "/a.json", isLive: true), FeedSourceStatus(name: "adsb.fi", isLive: false)] }
        #expect(c.perform(.get, at: 1).reply!.contains(#""feeds":[{"live":true,"name":"/a.json"},{"live":false,"name":"adsb.fi"}]"#))
        _ = c.handle(.feed([.failed("test: gone")]), at: 30)
        #expect(c.perform(.get, at: 30).reply!.contains(#""feeds":[{"live":false,"name":"/a.json"},{"live":false,"name":"adsb.fi"}]"#),
                "all failing: none is live")
    }

    @Test func anAggregatorsCreditShowsInStandbyOnly() {
        let credited = KioskController(layout: Self.layout, attribution: "Data: adsb.lol (ODbL)")
        _ = credited.frameNeeded(at: 0)
        let credit = credited.renderList.first { $0.id == NodeID("credit") }
        #expect(credit?.opacity == 1 && credit?.content == .text("Data: adsb.lol (ODbL)"))
        // In the bottom-right corner, clear of the note's bottom-left.
        #expect((credit?.frame.x ?? 0) > Self.layout.width * 0.9 && (credit?.frame.maxY ?? 0) <= Self.layout.height)
        credited.apply(Demo.sampleOverflight, at: 1, animated: true)
        for t in stride(from: 1.0, through: 4, by: 0.5) { _ = credited.frameNeeded(at: t) }
        #expect(credited.renderList.first { $0.id == NodeID("credit") }?.opacity == 0, "the card's numbers are what show overhead")
        let plain = KioskController(layout: Self.layout)
        _ = plain.frameNeeded(at: 0)
        #expect(!plain.renderList.contains { $0.id == NodeID("credit") }, "a receiver of one's own needs no credit")
    }

    @Test func keysAreDebouncedAndMapped() {
        let c = KioskController(layout: Self.layout)
        c.keyMap = [57: .toggle, 24: .overflight, 31: .standby, 16: .quit]
        #expect(c.handle(.key(code: 57, from: "key"), at: 1).log == ["radar-kiosk: state OVERFLIGHT (key space)"])
        #expect(c.state.mode == .overflight)
        // A mashed key: presses inside the window change nothing.
        for i in 1...5 { _ = c.handle(.key(code: 57, from: "key"), at: 1 + Double(i) * 0.03) }
        #expect(c.state.mode == .overflight)
        _ = c.handle(.key(code: 31, from: "key"), at: 1.3)
        #expect(c.state.mode == .standby)
        #expect(c.handle(.key(code: 99, from: "key"), at: 2) == KioskController.Response(), "an unmapped key does nothing")
        #expect(c.handle(.key(code: 16, from: "key"), at: 3).quit, "q quits when run by hand")
        c.keysMayQuit = false
        #expect(!c.handle(.key(code: 16, from: "key"), at: 4).quit, "under systemd q does not stop a kiosk")
    }

    @Test func overheadWithNoAircraftKnownShowsNoInventedOne() {
        let c = KioskController(layout: Self.layout)
        let response = c.handle(.gpio(active: true, line: "OVERHEAD", initial: false), at: 1)
        #expect(response.log == ["radar-kiosk: state OVERFLIGHT (GPIO OVERHEAD active)"])
        #expect(c.state == KioskState(mode: .overflight))
        for t in stride(from: 1.0, through: 4, by: 1.0 / 60) { _ = c.frameNeeded(at: t) }
        let shown = Self.texts(c)
        #expect(shown["card/callsign"] == "—" && shown["card/route"] == KioskScene.unknownAircraftLine, "\(shown)")
        #expect(shown["card/row0/value"] == "—" && shown["card/row3/value"] == "—")
        #expect(!shown.values.contains { $0.contains("BAW") || $0.contains("DLH") || $0.contains("EZY") }, "\(shown)")
        _ = c.handle(.gpio(active: false, line: "OVERHEAD", initial: false), at: 6)
        #expect(c.state == .standby)
    }

    @Test func overheadShowsTheFeedsNearestAircraftWhenThereIsOne() {
        let c = KioskController(layout: Self.layout)
        let (interpreter, events) = Self.feed(north: 8)   // outside the overhead radius, inside the dial
        c.feed = interpreter
        _ = c.handle(.feed(events), at: 1)
        #expect(c.state.mode == .standby, "8 NM is not overhead")
        c.keyMap = [24: .overflight]
        _ = c.handle(.key(code: 24, from: "key"), at: 2)
        #expect(c.state.mode == .overflight && c.state.aircraft?.callsign == "EZY81QK")
    }

    @Test func aFeedNumberThatIsNotFiniteNeverReachesTheCard() {
        for speed in [Double.nan, .infinity, -.infinity, 1e300, -1e300, -0.0] {
            let c = KioskController(layout: Self.layout)
            let (interpreter, events) = Self.feed(groundSpeed: speed)
            c.feed = interpreter
            _ = c.handle(.feed(events), at: 1)
            #expect(c.state.mode == .overflight)
            let shown = c.state.aircraft?.groundSpeedKnots
            #expect(shown == (speed == 0 ? 0 : nil), "\(speed) became \(String(describing: shown))")
        }
    }

    @Test func aFailedReadKeepsThePictureUntilTheDataIsStale() {
        let c = KioskController(layout: Self.layout)
        let (interpreter, events) = Self.feed()
        c.feed = interpreter
        #expect(c.handle(.feed(events), at: 1).log == ["radar-kiosk: state OVERFLIGHT EZY81QK (feed test)"])
        let failed = c.handle(.feed([.failed("test: torn read")]), at: 2)
        #expect(failed.log == ["radar-kiosk: feed test: torn read; keeping the last picture for up to 15 s"])
        #expect(c.state.mode == .overflight && c.state.note == nil, "one bad read changes nothing on screen")
        #expect(c.deadline == 16)
        _ = c.handle(.feedDeadline, at: 16)
        #expect(c.state.mode == .standby && c.state.note == FeedInterpreter.unavailableNote)
        let (_, later) = Self.feed(now: 17)
        _ = c.handle(.feed(later), at: 17)
        #expect(c.state.mode == .overflight && c.state.note == nil, "the receiver is back")
    }

    @Test func snapshotsThatStopMovingOnGoStale() {
        let c = KioskController(layout: Self.layout)
        let (interpreter, events) = Self.feed()
        c.feed = interpreter
        // readsb stopped: its last file is read again and again, its clock standing still.
        for t in stride(from: 1.0, through: 15.5, by: 1) { _ = c.handle(.feed(events), at: t) }
        #expect(c.state.mode == .overflight)
        let log = c.handle(.feed(events), at: 16.5).log
        #expect(c.state.mode == .standby && c.state.note == FeedInterpreter.unavailableNote)
        #expect(log.first == "radar-kiosk: feed test: the receiver's data stopped changing; showing NO DATA and retrying")
    }

    @Test func commandsAreAnsweredOneLineEach() throws {
        let c = KioskController(layout: Self.layout)
        let set = c.handle(.commandLine(.text(#"{"cmd":"set","state":{"mode":"overflight","aircraft":{"callsign":"AFR12"}}}"#), client: .nobody), at: 1)
        #expect(set.reply == KioskCommand.okReply && c.state.aircraft?.callsign == "AFR12")
        let get = try #require(c.handle(.commandLine(.text(#"{"cmd":"get"}"#), client: .nobody), at: 1.1).reply)
        #expect(get.contains(#""callsign":"AFR12""#) && get.contains(#""animating":true"#))
        #expect(c.handle(.commandLine(.text("nonsense"), client: .nobody), at: 2).reply?.hasPrefix(#"{"error":"malformed JSON"#) == true)
        #expect(c.handle(.commandLine(.tooLong(70_000), client: .nobody), at: 2).reply == KioskCommand.errorReply("command line too long (70000 bytes)"))
        #expect(c.handle(.commandLine(.text(" \t"), client: .nobody), at: 2).reply == KioskCommand.errorReply("empty command line"))
        let shot = c.handle(.commandLine(.text(#"{"cmd":"screenshot","path":"/tmp/x.png"}"#), client: .nobody), at: 2)
        #expect(shot.screenshotPath == "/tmp/x.png" && shot.reply == nil, "the screenshot's reply comes after it is written")
        #expect(c.state.aircraft?.callsign == "AFR12", "bad commands change nothing")
    }

    @Test func framesAreNeededWhileSomethingMovesAndOnceAfterARepaint() {
        let c = KioskController(layout: Self.layout, initial: Demo.sampleOverflight)
        #expect(c.frameNeeded(at: 0), "the first frame")
        c.frameDrawn()
        #expect(!c.frameNeeded(at: 0.1), "a settled overflight: the face is still, nothing to draw")
        _ = c.handle(.display(.reacquired), at: 1)
        #expect(c.frameNeeded(at: 1))
        c.frameDrawn()
        #expect(!c.frameNeeded(at: 1.1))
        c.apply(.standby, at: 2)
        #expect(c.frameNeeded(at: 2.1) && c.isSweeping)
        for t in stride(from: 2.1, through: 6, by: 1.0 / 60) { _ = c.frameNeeded(at: t); c.frameDrawn() }
        #expect(c.frameNeeded(at: 6), "standby keeps drawing: the sweep runs")
    }

    /// The sweep's clock is a timeline paused while the face is still. Across
    /// a pause the bearing does not resume where it stopped: on resuming, the
    /// timeline's date is the current time again (SwiftUI regenerates the
    /// entries from now), so the angle jumps by the paused time; the jump
    /// happens while the sweep's opacity is zero, so no frame shows it.
    @Test func theSweepPausesWithTheStillFaceAndResumesOnTheClock() {
        let c = KioskController(layout: Self.layout)
        let rate = c.sweep.degreesPerSecond
        _ = c.frameNeeded(at: 1)
        #expect(abs(c.sweepBearing - rate) < 0.5)
        c.apply(Demo.sampleOverflight, at: 1)
        for t in stride(from: 1.0, through: 4, by: 1.0 / 60) { _ = c.frameNeeded(at: t) }
        #expect(!c.isSweeping)
        let held = c.sweepBearing
        _ = c.frameNeeded(at: 10)
        #expect(c.sweepBearing == held, "paused: the date stays")
        c.apply(.standby, at: 10)
        _ = c.frameNeeded(at: 10)
        #expect(abs(c.sweepBearing - (10 * rate).truncatingRemainder(dividingBy: 360)) < 0.5, "resumed on the clock's own time")
        let dial = c.renderList.first { $0.id == KioskScene.dialID }.map { DialChannels($0.custom) }
        #expect(dial?.stillness == 1, "at the moment it resumes the sweep is invisible")
    }
}

/// What the README claims of the card and the dial, checked on drawn frames.
@Suite struct DrawnClaimsTests {
    func frame(_ state: KioskState, _ width: Int = 800, _ height: Int = 480) throws -> (PixelBuffer, KioskLayout) {
        let layout = KioskLayout(width: width, height: height)
        let buffer = PixelBuffer(width: width, height: height)
        FrameTick(controller: KioskController(layout: layout, initial: state), renderer: KioskRenderer(fonts: try FontSet()), buffer: buffer).draw(at: 0)
        return (buffer, layout)
    }

    /// The aircraft marker (the brightest green on the still face) sits at its bearing and distance.
    @Test(arguments: [(90.0, 1.0, 0.0), (270.0, -1.0, 0.0), (0.0, 0.0, -1.0), (180.0, 0.0, 1.0)])
    func theMarkerSitsAtTheAircraftsBearing(bearing: Double, east: Double, south: Double) throws {
        var aircraft = Demo.sampleAircraft
        aircraft.bearingDegrees = bearing
        aircraft.distanceNM = 10
        let (buffer, layout) = try frame(KioskState(mode: .overflight, aircraft: aircraft))
        let dial = layout.dialFrame(.overflight)
        var best = (x: 0, y: 0, g: 0)
        for y in Int(dial.y)..<Int(dial.maxY) {
            for x in Int(dial.x)..<Int(dial.maxX) {
                let p = buffer[x, y], g = Int((p >> 8) & 0xFF) - Int(p & 0xFF)
                if g > best.g { best = (x, y, g) }
            }
        }
        let r = dial.width / 2 * 10 / KioskScene.dialRangeNM
        #expect(abs(Double(best.x) - (dial.midX + east * r)) < 6 && abs(Double(best.y) - (dial.midY + south * r)) < 6,
                "marker at \(best.x),\(best.y) for bearing \(bearing)")
    }

    @Test func getRoundTripsTheStateThatWasSet() throws {
        let c = KioskController(layout: KioskLayout(width: 320, height: 240))
        let state = Demo.sampleOverflight
        _ = c.handle(.commandLine(.text(#"{"cmd":"set","state":"# + state.json.serialized + "}"), client: .nobody), at: 0)
        let reply = try #require(c.handle(.commandLine(.text(#"{"cmd":"get"}"#), client: .nobody), at: 0.1).reply)
        let parsed = try JSONParser.parse(reply)
        #expect(try KioskState(json: #require(parsed["state"])) == state)
        for bad in ["{", #"{"cmd":"set","state":{"mode":"x"}}"#, "\u{1}"] {
            let error = try #require(c.handle(.commandLine(.text(bad), client: .nobody), at: 1).reply)
            #expect((try? JSONParser.parse(error))?["ok"] == .bool(false), "an error is valid JSON: \(error)")
        }
    }

    @Test func routesFromTheRoutesFileReachTheCard() throws {
        let (interpreter, events) = ControllerTests.feed(callsign: "EZY81QK")
        interpreter.identity.routes = ["EZY81QK": "BFS → LGW"]
        let c = KioskController(layout: KioskLayout(width: 320, height: 240))
        c.feed = interpreter
        _ = c.handle(.feed(events), at: 1)
        #expect(c.state.aircraft?.route == "BFS → LGW")
    }

    /// A `.scale` transition draws the leaf scaled about its centre (the renderer ignored the scale).
    @Test func aScaledLeafIsDrawnScaled() throws {
        let controller = KioskController(layout: KioskLayout(width: 800, height: 480), initial: Demo.sampleOverflight)
        _ = controller.frameNeeded(at: 0)
        let renderer = KioskRenderer(fonts: try FontSet())
        var card = try #require(controller.renderList.first { $0.id.path == "card/background" })
        func inked(_ item: RenderItem) -> Int {
            let buffer = PixelBuffer(width: 800, height: 480)
            renderer.draw([item], sweepBearing: 0, minimumTextSize: 12, into: Canvas(target: buffer))
            var n = 0
            for y in 0..<480 { for x in 0..<800 where buffer[x, y] != KioskRenderer.background.premultipliedPixel { n += 1 } }
            return n
        }
        let whole = inked(card)
        card.scale = 0.5
        let half = inked(card)
        #expect(abs(Double(half) / Double(whole) - 0.25) < 0.03, "\(half) of \(whole) pixels")
        card.scale = 1e-5
        #expect(inked(card) == 0, "`.scale` at its start draws nothing")
    }
}
