import Testing
import AnimationCore
#if canImport(Glibc)
import Glibc
#endif
@testable import Feed
@testable import KioskModel
@testable import KioskRendering
import Raster

/// The dial turned to face the window (`station.facing_deg`): its top is the
/// facing, and the labels, the blips and the marker turn with it while the
/// text stays upright; the card says where to look.
@Suite struct FacingTests {
    static let station = GeoPoint(latitude: 51.47, longitude: -0.4543)

    /// A feed knowing one aircraft `distance` NM from the station on `bearing`, at `altitude` ft.
    static func feed(bearing: Double, distance: Double, altitude: Int = 3000) -> (FeedInterpreter, [FeedEvent]) {
        let interpreter = FeedInterpreter(sourceName: "test", selector: OverheadSelector(settings: .init(station: station)))
        var report = AircraftReport(hex: "4ca123")
        report.callsign = "EZY81QK"
        report.altitudeFeet = altitude
        let p = station.moved(bearing: bearing, distanceNM: distance)
        (report.latitude, report.longitude) = (p.latitude, p.longitude)
        report.positionAge = 0
        return (interpreter, [.snapshot(AircraftSnapshot(now: 0, aircraft: [report]))])
    }

    @Test func theFacingIsReadAsDegreesOrACompassPoint() {
        for (text, degrees) in [("90", 90.0), ("E", 90), ("ne", 45), ("SSW", 202.5), ("359.5", 359.5), ("0", 0)] {
            let (config, problems) = KioskConfiguration.parse("station.facing_deg = \(text)\n", name: "test")
            #expect(problems.isEmpty, "\(text): \(problems)")
            #expect(config.facing == degrees, "\(text)")
        }
        for text in ["360", "-10", "up", "nan", ""] {
            let (_, problems) = KioskConfiguration.parse("station.facing_deg = \(text)\n", name: "test")
            #expect(problems.count == 1 && problems[0].contains("station.facing_deg"), "\(text): \(problems)")
        }
    }

    /// The picture of the label drawn at the dial's top, and of the one on its right.
    static func labelCrops(facing: Double?, size: (Int, Int) = (800, 480)) throws -> (top: [Float], right: [Float]) {
        let controller = KioskController(layout: KioskLayout(width: size.0, height: size.1))
        controller.setStationView(facing: facing, elevationFeet: 0, at: 0)
        let renderer = KioskRenderer(fonts: try FontSet())
        let tick = FrameTick(controller: controller, renderer: renderer, buffer: PixelBuffer(width: size.0, height: size.1))
        tick.draw(at: 0)
        let dial = try #require(controller.renderList.first { $0.id == KioskScene.dialID })
        let boxes = renderer.compassLabelBoxes(dial, minimumTextSize: Float(controller.layout.minimumTextSize))
        // Boxes around where the labels stand at north up, measured from the dial, not from the facing.
        let f = dial.frame, side = Int(boxes[0].box.height) + 8
        func crop(centreX: Double, centreY: Double) -> [Float] {
            var out: [Float] = []
            for y in Int(centreY) - side / 2..<Int(centreY) + side / 2 {
                for x in Int(centreX) - side / 2..<Int(centreX) + side / 2 {
                    let p = tick.frame[x, y]
                    out.append(Float((p >> 8) & 0xFF))
                }
            }
            return out
        }
        let reach = f.width / 2 + 22 * Double(f.width / 2) / (0.42 * 1080)
        return (crop(centreX: f.midX, centreY: f.midY - reach), crop(centreX: f.midX + reach, centreY: f.midY))
    }

    static func difference(_ a: [Float], _ b: [Float]) -> Float {
        zip(a, b).reduce(0) { $0 + abs($1.0 - $1.1) } / Float(a.count)
    }

    /// Facing east, the label at the top is an E (it looks like the E on a
    /// north-up dial's right, not like its N) and the one on the right an S.
    @Test func facingEastPutsEAtTheTop() throws {
        let north = try Self.labelCrops(facing: nil), east = try Self.labelCrops(facing: 90)
        let toE = Self.difference(east.top, north.right), toN = Self.difference(east.top, north.top)
        #expect(toE * 2 < toN, "top label against E \(toE), against N \(toN)")
        #expect(Self.difference(east.top, north.top) > 5)
        // Turned back, the picture is north up's again.
        let back = try Self.labelCrops(facing: 0)
        #expect(Self.difference(back.top, north.top) == 0)
    }

    /// A blip due east is straight above the centre, both where the view
    /// reports it (the `get` reply's position) and where its dot is drawn.
    @Test(arguments: [(800, 480), (1920, 1080), (720, 1280)])
    func aBlipDueEastIsStraightUp(width: Int, height: Int) throws {
        let controller = KioskController(layout: KioskLayout(width: width, height: height))
        controller.setStationView(facing: 90, elevationFeet: 0, at: 0)
        let (interpreter, events) = Self.feed(bearing: 90, distance: 12)
        controller.feed = interpreter
        _ = controller.handle(.feed(events), at: 0)
        #expect(controller.state.mode == .standby)
        let renderer = KioskRenderer(fonts: try FontSet())
        let tick = FrameTick(controller: controller, renderer: renderer, buffer: PixelBuffer(width: width, height: height))
        // Two seconds on the sweep points down, away from the blip.
        for t in stride(from: 0.0, to: 2, by: 1.0 / 60) { _ = controller.frameNeeded(at: t) }
        tick.draw(at: 2)
        let dial = try #require(controller.renderList.first { $0.id == KioskScene.dialID })
        var marks: [(Double, Double)] = []
        controller.view.forEachMark { _, x, y in marks.append((x, y)) }
        let mark = try #require(marks.first)
        #expect(marks.count == 1)
        #expect(abs(mark.0 - dial.frame.midX) <= 1, "reported at \(mark) against the centre \(dial.frame.midX)")
        #expect(mark.1 < dial.frame.midY - dial.frame.width / 4)
        // The drawn dot: the centroid of the bright green near the reported place, by brightness.
        var sx = 0.0, sy = 0.0, n = 0.0
        let reach = Int(controller.view.touchSlop)
        for y in Int(mark.1) - reach...Int(mark.1) + reach {
            for x in Int(mark.0) - reach...Int(mark.0) + reach {
                let green = Double((tick.frame[x, y] >> 8) & 0xFF)
                guard green > 180 else { continue }
                sx += (Double(x) + 0.5) * green; sy += (Double(y) + 0.5) * green; n += green
            }
        }
        #expect(n > 0)
        #expect(abs(sx / n - dial.frame.midX) <= 1, "drawn at x \(sx / n) against the centre \(dial.frame.midX)")
    }

    /// The marker on the still face turns too: due east, facing east, it is straight up.
    @Test func theMarkerTurnsWithTheDial() throws {
        let controller = KioskController(layout: KioskLayout(width: 800, height: 480))
        controller.setStationView(facing: 90, elevationFeet: 0, at: 0)
        let (interpreter, events) = Self.feed(bearing: 90, distance: 1)
        controller.feed = interpreter
        _ = controller.handle(.feed(events), at: 0)
        #expect(controller.state.mode == .overflight)
        for t in stride(from: 0.0, through: 3, by: 1.0 / 60) { _ = controller.frameNeeded(at: t) }
        let dial = try #require(controller.renderList.first { $0.id == KioskScene.dialID })
        let marker = try #require(controller.renderList.first { $0.id.path == "dial/marker" })
        #expect(abs(marker.frame.x - dial.frame.midX) < 0.5)
        #expect(marker.frame.y < dial.frame.midY)
    }

    // MARK: where to look

    @Test func theAngleAboveTheHorizonCountsTheEarthsCurve() throws {
        let near = try #require(GeoPoint.elevationAngle(distanceNM: 3, altitudeFeet: 3000))
        #expect(abs(near - 9.4) <= 0.2, "\(near)")
        #expect(GeoPoint.elevationAngle(distanceNM: 40, altitudeFeet: 1000) == nil)
        // Flat-earth trigonometry would call it 0.2° up.
        #expect(atan2(1000, 40 * 6076.1) * 180 / .pi > 0.2)
        // From a hill 500 ft up, the same aircraft 3 NM away is lower in the sky.
        let fromHill = try #require(GeoPoint.elevationAngle(distanceNM: 3, altitudeFeet: 3000, observerFeet: 500))
        #expect(abs(fromHill - atan2(2500, 3 * 1852 / 0.3048) * 180 / .pi) < 0.05)
        #expect(GeoPoint.elevationAngle(distanceNM: 3, altitudeFeet: 400, observerFeet: 500) == nil)
        #expect(GeoPoint.elevationAngle(distanceNM: .nan, altitudeFeet: 3000) == nil)
    }

    static func lookText(bearing: Double, distance: Double, altitude: Int, facing: Double?, elevation: Double = 0) throws -> String? {
        let controller = KioskController(layout: KioskLayout(width: 1920, height: 1080))
        controller.setStationView(facing: facing, elevationFeet: elevation, at: 0)
        let (interpreter, events) = Self.feed(bearing: bearing, distance: distance, altitude: altitude)
        interpreter.selector.settings.radiusNM = 50
        interpreter.selector.settings.exitRadiusNM = 50
        controller.feed = interpreter
        _ = controller.handle(.feed(events), at: 0)
        #expect(controller.state.mode == .overflight)
        for t in stride(from: 0.0, through: 2, by: 1.0 / 60) { _ = controller.frameNeeded(at: t) }
        let look = try #require(controller.renderList.first { $0.id.path == "card/look/value" })
        guard look.opacity > 0.5, case let .text(text) = look.content else { return nil }
        return text
    }

    @Test func theCardSaysWhereToLook() throws {
        #expect(try Self.lookText(bearing: 45, distance: 3, altitude: 3000, facing: nil) == "NE · 9° up")
        // Facing the window east, north-east is ahead and to the left; south is to the right.
        #expect(try Self.lookText(bearing: 45, distance: 3, altitude: 3000, facing: 90) == "ahead left · 9° up")
        #expect(try Self.lookText(bearing: 180, distance: 3, altitude: 3000, facing: 90) == "right · 9° up")
        #expect(try Self.lookText(bearing: 270, distance: 3, altitude: 3000, facing: 90) == "behind you · 9° up")
        #expect(try Self.lookText(bearing: 10, distance: 0.1, altitude: 5000, facing: nil) == "overhead")
        // Below the horizon there is nothing to look for: the row is not shown.
        #expect(try Self.lookText(bearing: 45, distance: 40, altitude: 1000, facing: nil) == nil)
        // The station's own height counts: from 2,900 ft up the aircraft is only 100 ft above.
        #expect(try Self.lookText(bearing: 45, distance: 3, altitude: 3000, facing: nil, elevation: 2900) == "NE · on the horizon")
    }
}
