import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import Feed
import StandingData
import Raster
import SystemIO
@testable import KioskModel
@testable import KioskRendering
@testable import KioskTools

/// The traffic on the dial, from a real capture (readsb near Irvine: 52
/// aircraft within 38 NM of the station) replayed once a second with each
/// aircraft flown on along its track at its speed, and each position off by
/// up to 0.1 NM as a receiver's are.
@Suite struct TrafficTests {
    static let station = GeoPoint(latitude: 33.68, longitude: -117.87)

    /// The capture `seconds` later: positions flown on and jittered (the same jitter for the same aircraft and second).
    static func replay(_ capture: AircraftSnapshot, at seconds: Int) -> AircraftSnapshot {
        var snapshot = capture
        snapshot.now += Double(seconds)
        for i in snapshot.aircraft.indices {
            var r = snapshot.aircraft[i]
            guard let lat = r.latitude, let lon = r.longitude else { continue }
            var p = GeoPoint(latitude: lat, longitude: lon)
            if let speed = r.groundSpeedKnots, let track = r.trackDegrees, !r.onGround {
                p = p.moved(bearing: track, distanceNM: speed * Double(seconds) / 3600)
            }
            var seed = UInt64(truncatingIfNeeded: (r.hex.hashValueStable &* 31) &+ UInt64(seconds) &* 1_000_003)
            func next() -> Double {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Double(seed >> 11) / Double(1 << 53)
            }
            p = p.moved(bearing: next() * 360, distanceNM: next() * 0.1)
            (r.latitude, r.longitude) = (p.latitude, p.longitude)
            snapshot.aircraft[i] = r
        }
        return snapshot
    }

    static func capture() throws -> AircraftSnapshot {
        try AircraftJSON.parse(Array(try FileContents.text(CardIdentityTests.root + "/Tests/FeedTests/Fixtures/readsb_overirvine_170ac.json").utf8))
    }

    static func standingData() -> StandingData? { try? StandingData(path: CardIdentityTests.root + "/Data/" + StandingData.fileName) }

    static func controller(width: Int = 800, height: Int = 480, measure: TextMeasuring? = nil) -> KioskController {
        let controller = KioskController(layout: KioskLayout(width: width, height: height), measure: measure)
        var settings = OverheadSelector.Settings(station: station)
        settings.radiusNM = 0.5   // nothing overhead: the dial sweeps with its traffic
        let feed = FeedInterpreter(sourceName: "replay", selector: OverheadSelector(settings: settings))
        // The shipped standing data: the dial's airports are drawn too.
        feed.identity.standingData = standingData()
        controller.feed = feed
        return controller
    }

    /// 20 s at 60 Hz, a snapshot every second: no blip jumps at an update or
    /// between, each keeps its aircraft, and the range fits the traffic.
    @Test func blipsGlideAcrossFeedUpdatesAndKeepTheirAircraft() throws {
        let capture = try Self.capture()
        let controller = Self.controller()
        var last: [Int: (x: Double, y: Double)] = [:]
        var worstStep = 0.0, worstAtUpdate = 0.0, frames = 0, counts: [Int] = []
        var lostSerials = 0
        for frame in 0..<(20 * 60) {
            let t = Double(frame) / 60
            let updated = frame % 60 == 0
            if updated { _ = controller.handle(.feed([.snapshot(Self.replay(capture, at: frame / 60))]), at: t) }
            _ = controller.frameNeeded(at: t)
            var now: [Int: (x: Double, y: Double)] = [:]
            let range = controller.traffic.displayedRangeNM(at: t)
            for blip in controller.traffic.blips where blip.opacity >= 1 {
                // In NM from the station (a change of range moves blips on the dial, not in the sky).
                now[blip.serial] = (blip.x * range, blip.y * range)
                if let before = last[blip.serial] {
                    // A blip at 500 kt moves 0.0023 NM a frame.
                    let step = hypot(blip.x * range - before.x, blip.y * range - before.y)
                    worstStep = max(worstStep, step)
                    if updated { worstAtUpdate = max(worstAtUpdate, step) }
                }
            }
            // Leaving over the rim (40 NM) is not losing it.
            if frame > 60 { lostSerials += last.filter { now[$0.key] == nil && hypot($0.value.x, $0.value.y) < 39 }.count }
            counts.append(controller.traffic.blips.count)
            last = now
            frames += 1
        }
        #expect(controller.traffic.rangeNM == 40, "52 aircraft out to 38 NM: the 40 NM range")
        #expect(counts.last ?? 0 >= 45, "blips on the dial: \(counts.last ?? 0)")
        // 600 kt is 0.0028 NM a frame; a corrected course (up to 0.2 NM here) adds at most 1.5x its
        // size a second while it blends in; a jump to it would be 0.05 NM and more.
        #expect(worstStep < 0.01, "largest move in one frame \(worstStep) NM (at an update \(worstAtUpdate) NM)")
        #expect(lostSerials == 0, "\(lostSerials) times a blip's aircraft vanished while it was still in the feed")
    }

    /// The same replay drawn two ways: every sweeping frame redrawn in boxes
    /// is the whole frame's pixels, the traffic moving across feed updates.
    @Test func sweepFramesWithTrafficAreWholeFrames() throws {
        let fonts = try FontSet()
        let capture = try Self.capture()
        let (w, h) = (800, 480)
        let cachedRenderer = KioskRenderer(fonts: fonts)
        let cached = FrameTick(controller: Self.controller(measure: cachedRenderer), renderer: cachedRenderer, buffer: PixelBuffer(width: w, height: h))
        let wholeRenderer = KioskRenderer(fonts: fonts)
        wholeRenderer.redrawsInParts = false
        let wholeController = Self.controller(measure: wholeRenderer)
        let whole = Canvas(target: PixelBuffer(width: w, height: h))
        var differing = 0, partial = 0, blipsSeen = 0
        for frame in 0..<150 {
            let t = 0.5 + Double(frame) / 30
            if frame % 30 == 0 {
                var snapshot = Self.replay(capture, at: frame / 30)
                // Aircraft leaving (their blips fade out where they were) and one
                // whose new position is 6 NM off (its blip moves there at once).
                if frame / 30 >= 2 { snapshot.aircraft.removeAll { ["a0d8ec", "a10d56", "a944ea"].contains($0.hex) } }
                // (At 4.5 s, with the sweep on the far side of the dial from where it was.)
                if frame / 30 == 4, let i = snapshot.aircraft.firstIndex(where: { $0.hex == "aab100" }) {
                    snapshot.aircraft[i].latitude! += 0.1
                }
                for c in [cached.controller, wholeController] { _ = c.handle(.feed([.snapshot(snapshot)]), at: t) }
            }
            cached.draw(at: t)
            if cached.canvas.damage.area < w * h { partial += 1 }
            _ = wholeController.frameNeeded(at: t)
            wholeRenderer.draw(wholeController.renderList, sweepBearing: wholeController.sweepBearing, traffic: wholeController.traffic,
                               minimumTextSize: Float(wholeController.layout.minimumTextSize),
                               unchanged: wholeController.renderListUnchanged, into: whole)
            wholeController.frameDrawn()
            blipsSeen = max(blipsSeen, wholeController.traffic.blips.count)
            for y in 0..<h where memcmp(cached.frame.row(y), whole.target.row(y), w * 4) != 0 { differing += 1; break }
        }
        #expect(blipsSeen >= 45)
        #expect(differing == 0, "\(differing) of 150 frames differ from the whole frame")
        // Whole frames while the range glides from 20 to 40 NM (0.8 s) at the start.
        #expect(partial >= 120, "redrawn in boxes: \(partial) of 150")
    }

    @Test func theRangeStepsToFitTheTraffic() {
        let picture = TrafficPicture()
        func choice(_ hex: String, _ distance: Double) -> OverheadSelector.Choice {
            var r = AircraftReport(hex: hex)
            r.groundSpeedKnots = 0
            return OverheadSelector.Choice(report: r, distanceNM: distance, bearingDegrees: 90)
        }
        picture.update([choice("a", 2.5), choice("b", 3.0)], at: 0)
        #expect(picture.rangeNM == 4 && picture.rangeLabels == ("1", "2", "3 NM"))
        picture.update([choice("a", 2.5), choice("b", 15)], at: 1)
        #expect(picture.rangeNM == 20 && picture.rangeLabels == ("5", "10", "15 NM"))
        #expect(picture.rangeIsChanging(at: 1.5) && !picture.rangeIsChanging(at: 2))
        #expect(abs(picture.displayedRangeNM(at: 1.4) - 12) < 4, "gliding from 4 to 20")
        // Hysteresis: 7 NM fits 8 only barely; the range stays at 20 until all are well inside.
        picture.update([choice("a", 7.0)], at: 3)
        #expect(picture.rangeNM == 20)
        picture.update([choice("a", 6.0)], at: 4)
        #expect(picture.rangeNM == 8 && picture.rangeLabels == ("2", "4", "6 NM"))
        picture.setFixedRange(10, at: 5)
        #expect(picture.rangeNM == 10 && picture.rangeLabels == ("2.5", "5", "7.5 NM") && !picture.rangeIsChanging(at: 5))
    }

    /// While the range glides (here from 40 NM down to an overflight's 8,
    /// which holds the card's aircraft and its four nearest neighbours, and back), the rings' labels say the scale the blips are drawn at in
    /// every frame: a blip's radius over a ring's is its distance over the
    /// ring's label, within 2 %; settled, the labels are whole again.
    @Test(arguments: [DisplayUnits.Distance.nauticalMiles, .kilometres])
    func theRingsLabelsSayTheRangeTheBlipsAreAtInEveryFrame(unit: DisplayUnits.Distance) {
        let picture = TrafficPicture()
        picture.distanceUnit = unit
        func choice(_ hex: String, _ distance: Double, _ bearing: Double) -> OverheadSelector.Choice {
            var r = AircraftReport(hex: hex)
            r.groundSpeedKnots = 0
            return OverheadSelector.Choice(report: r, distanceNM: distance, bearingDegrees: bearing)
        }
        let seen = [choice("near", 2.4, 30), choice("mid", 6.0, 200), choice("far", 33, 300),
                    choice("a", 1.5, 100), choice("b", 2.0, 250), choice("c", 3.0, 340)]
        let distances = ["near": 2.4, "mid": 6.0, "far": 33.0, "a": 1.5, "b": 2.0, "c": 3.0]
        picture.update(seen, at: 0)
        picture.sample(at: 2)
        picture.focusDistanceNM = 2.4
        picture.update(seen, at: 3)
        picture.focusDistanceNM = nil
        picture.update(seen, at: 6)
        var checked = 0, gliding = 0, worst = 0.0
        for frame in 0...(8 * 60) {
            let t = 2 + Double(frame) / 60
            picture.sample(at: t)
            if picture.rangeIsChanging(at: t) { gliding += 1 }
            let labels = [picture.rangeLabels.0, picture.rangeLabels.1, picture.rangeLabels.2]
                .map { Double($0.split(separator: " ")[0])! / unit.perNauticalMile }
            for blip in picture.blips where blip.opacity > 0 {
                let hex = picture.address(ofSerial: blip.serial)!
                let r = (blip.x * blip.x + blip.y * blip.y).squareRoot()
                for (k, label) in labels.enumerated() {
                    let ratio = (r / (Double(k + 1) / 4)) / (distances[hex]! / label)
                    worst = max(worst, abs(ratio - 1))
                    checked += 1
                }
            }
        }
        #expect(gliding >= 90 && checked > 1000, "\(gliding) gliding frames, \(checked) checks")
        #expect(worst <= 0.02, "\(unit): a blip and the rings' labels \(worst * 100) % apart")
        #expect(picture.rangeLabels == TrafficPicture.ringLabels(rangeNM: picture.rangeNM, unit: unit), "settled: whole labels again")
    }

    /// The rings speak the card's unit: whole kilometres (or miles) with the
    /// unit said, and the blips placed on the same scale as the rings.
    @Test func theRingsAreLabelledInTheCardsUnit() {
        func choice(_ hex: String, _ distance: Double) -> OverheadSelector.Choice {
            var r = AircraftReport(hex: hex)
            r.groundSpeedKnots = 0
            return OverheadSelector.Choice(report: r, distanceNM: distance, bearingDegrees: 90)
        }
        let km = TrafficPicture()
        km.distanceUnit = .kilometres
        #expect(km.rangeLabels == ("10", "20", "30 km"), "\(km.rangeLabels)")
        km.update([choice("a", 2.0)], at: 0)   // 3.7 km: the 8 km step
        #expect(km.rangeLabels == ("2", "4", "6 km") && abs(km.rangeNM * 1.852 - 8) < 1e-9)
        km.update([choice("a", 30.0)], at: 1)  // 55.6 km: the 80 km step
        #expect(km.rangeLabels == ("20", "40", "60 km"))
        // A blip at 20 km on the 80 km dial stands on the first ring (a quarter of the radius).
        km.update([choice("a", 30.0), choice("b", 20 / 1.852)], at: 2)
        km.sample(at: 4)
        let b = km.blips.first { km.address(ofSerial: $0.serial) == "b" }
        #expect(b.map { abs(($0.x * $0.x + $0.y * $0.y).squareRoot() - 0.25) < 0.01 } == true, "\(String(describing: b))")
        let miles = TrafficPicture()
        miles.distanceUnit = .miles
        #expect(miles.rangeLabels == ("5", "10", "15 mi") && abs(miles.rangeNM * 1.150779 - 20) < 1e-9)
        #expect(TrafficPicture.rangeSteps(.nauticalMiles).last == 40 && abs(TrafficPicture.rangeSteps(.kilometres).last! * 1.852 - 80) < 1e-9)
    }

    @Test func withoutTrafficTheRingsAreLabelledInTheCardsUnitToo() {
        let metric = KioskController(layout: KioskLayout(width: 800, height: 480), units: DisplayUnits(distance: .kilometres))
        #expect(metric.ringLabels == ("10", "20", "30 km") && abs(metric.dialRangeNM * 1.852 - 40) < 1e-9)
        #expect(KioskController(layout: KioskLayout(width: 800, height: 480)).ringLabels == ("5", "10", "15 NM"))
    }

    /// The Irvine capture with LXJ440 overhead (HitTestTests' station): the
    /// card shows it and the other aircraft stay on the still face.
    static func overflightController(width: Int, height: Int, measure: TextMeasuring?) -> KioskController {
        let controller = KioskController(layout: KioskLayout(width: width, height: height), measure: measure)
        let feed = FeedInterpreter(sourceName: "replay", selector: OverheadSelector(settings: .init(station: HitTestTests.station)))
        feed.identity.standingData = standingData()
        controller.feed = feed
        return controller
    }

    /// Settled on the overflight layout, the traffic is still there, dimmed:
    /// each blip's brightest pixel is a fraction of the way from the face
    /// without it to the blip's full green that a 0.4 opacity gives (with
    /// its glow under its dot), where the sweeping face draws it whole.
    @Test func theStillFaceKeepsTheTrafficDimmed() throws {
        let fonts = try FontSet()
        let (w, h) = (1920, 1080)
        let renderer = KioskRenderer(fonts: fonts)
        let controller = Self.overflightController(width: w, height: h, measure: renderer)
        let tick = FrameTick(controller: controller, renderer: renderer, buffer: PixelBuffer(width: w, height: h))
        _ = controller.handle(.feed([.snapshot(try Self.capture())]), at: 0)
        for t in stride(from: 0.0, through: 4, by: 1.0 / 30) { tick.draw(at: t) }
        #expect(controller.state.mode == .overflight)
        let bare = Canvas(target: PixelBuffer(width: w, height: h))
        renderer.draw(controller.renderList, sweepBearing: controller.sweepBearing, traffic: nil,
                      minimumTextSize: Float(controller.layout.minimumTextSize), into: bare)
        let dial = try #require(controller.renderList.first { $0.id == KioskScene.dialID })
        let marker = try #require(controller.renderList.first { $0.id.path == "dial/marker" })
        let radius = dial.frame.width / 2
        let green = { (pixel: UInt32) in Double((pixel >> 8) & 0xFF) }
        let full = green(DialPainter.bright.premultipliedPixel)
        var fractions: [Double] = []
        for blip in controller.traffic.blips where blip.opacity >= 1 && !blip.highlighted && hypot(blip.x, blip.y) < 0.9 {
            let (x, y) = (dial.frame.midX + blip.x * radius, dial.frame.midY - blip.y * radius)
            // Alone: no other blip's glow or the marker within reach.
            let others = controller.traffic.blips.filter { $0.serial != blip.serial && hypot($0.x - blip.x, $0.y - blip.y) * radius < 24 }
            guard others.isEmpty, hypot(marker.frame.x - x, marker.frame.y - y) > 40 else { continue }
            var brightest = 0.0
            for dy in -3...3 {
                for dx in -3...3 {
                    let (px, py) = (Int(x) + dx, Int(y) + dy)
                    let ground = green(bare.target.row(py)[px])
                    brightest = max(brightest, (green(tick.frame.row(py)[px]) - ground) / (full - ground))
                }
            }
            fractions.append(brightest)
        }
        fractions.sort()
        #expect(fractions.count >= 2, "blips alone on the still face: \(fractions.count)")
        let median = fractions.isEmpty ? 0 : fractions[fractions.count / 2]
        #expect(median > 0.3 && median < 0.65, "the still face's blips reach \(median) of their full green (\(fractions))")
    }

    /// Settled on the overflight layout with the traffic moving across feed
    /// updates: the loop keeps drawing for the blips, each frame with no
    /// roll is redrawn in boxes around what moved (the marker over the dial
    /// drawn again where one reaches it), and every frame is the whole
    /// frame's pixels.
    @Test func stillFaceFramesWithTrafficAreWholeFrames() throws {
        let fonts = try FontSet()
        let capture = try Self.capture()
        let (w, h) = (800, 480)
        let cachedRenderer = KioskRenderer(fonts: fonts)
        let cached = FrameTick(controller: Self.overflightController(width: w, height: h, measure: cachedRenderer), renderer: cachedRenderer,
                               buffer: PixelBuffer(width: w, height: h))
        let wholeRenderer = KioskRenderer(fonts: fonts)
        wholeRenderer.redrawsInParts = false
        let wholeController = Self.overflightController(width: w, height: h, measure: wholeRenderer)
        let whole = Canvas(target: PixelBuffer(width: w, height: h))
        var differing = 0, partial = 0, drawnInBoxes = 0, largest = 0, wanted = 0
        for frame in 0..<240 {
            let t = Double(frame) / 30
            if frame % 30 == 0 {
                let snapshot = Self.replay(capture, at: frame / 30)
                for c in [cached.controller, wholeController] { _ = c.handle(.feed([.snapshot(snapshot)]), at: t) }
            }
            if cached.view.frameNeeded(at: t) { wanted += 1 }
            cached.draw(at: t)
            _ = wholeController.frameNeeded(at: t)
            wholeRenderer.draw(wholeController.renderList, sweepBearing: wholeController.sweepBearing, traffic: wholeController.traffic,
                               minimumTextSize: Float(wholeController.layout.minimumTextSize),
                               unchanged: wholeController.renderListUnchanged, into: whole)
            wholeController.frameDrawn()
            guard frame >= 90 else { continue }   // settled: 3 s on
            let damage = cached.canvas.damage.area
            if damage < w * h {
                partial += 1
                if damage > 0 { drawnInBoxes += 1; largest = max(largest, damage) }
            }
            for y in 0..<h where memcmp(cached.frame.row(y), whole.target.row(y), w * 4) != 0 { differing += 1; break }
        }
        #expect(cached.controller.state.mode == .overflight)
        #expect(wanted == 240, "the loop draws for the moving blips: \(wanted) of 240 frames wanted")
        #expect(differing == 0, "\(differing) of 150 settled frames differ from the whole frame")
        // Whole frames while a feed update's new numbers roll.
        #expect(partial >= 30 && drawnInBoxes >= 20, "redrawn in boxes: \(partial) of 150, \(drawnInBoxes) drawing something")
        #expect(largest * 3 < w * h, "boxes of up to \(largest) pixels")
    }
}

extension String {
    /// A hash that is the same in every run (Swift's own is seeded per process).
    var hashValueStable: UInt64 { utf8.reduce(14_695_981_039_346_656_037) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 } }
}
