import Testing
import Foundation
import Feed
import Raster
import StandingData
@testable import KioskModel
@testable import KioskRendering

/// The airports on the dial, at the Irvine capture's station with the
/// shipped standing data: where the test's own geodesy puts them, found in
/// the pixels (a frame with the airports against one without).
@Suite struct DialAirportTests {
    let data: StandingData

    init() throws {
        data = try StandingData(path: CardIdentityTests.root + "/Data/" + StandingData.fileName)
    }

    @Test func theAirportsAirlinesServeAreChosenNotEveryAirfield() throws {
        let labels = DialAirport.around(TrafficTests.station, in: data, within: 40).map(\.label)
        for served in ["SNA", "LGB", "ONT", "LAX"] { #expect(labels.contains(served), "\(served) in \(labels)") }
        // Riverside (56 routes) and Santa Monica (5) are within 40 NM and not drawn.
        for code in ["KRIV", "KSMO"] {
            let airport = try #require(data.airport(code: code))
            let place = GeoPoint(latitude: airport.position.latitude, longitude: airport.position.longitude)
            #expect(TrafficTests.station.distanceNM(to: place) < 40 && airport.routeCount < DialAirport.minimumRoutes)
            #expect(!labels.contains(airport.shortName) && !labels.contains(code))
        }
        #expect(labels.first == "SNA", "nearest first: \(labels)")
    }

    /// The capture's traffic on a 1280x720 dial, its range settled at 40 NM.
    func frame(airports: Bool, facing: Double?, renderer: KioskRenderer) -> (PixelBuffer, KioskController) {
        let controller = TrafficTests.controller(width: 1280, height: 720, measure: renderer)
        controller.showsAirports = airports
        controller.placeAirports()
        controller.setStationView(facing: facing, elevationFeet: 0, at: 0)
        let tick = FrameTick(controller: controller, renderer: renderer, buffer: PixelBuffer(width: 1280, height: 720))
        _ = controller.handle(.feed([.snapshot(TrafficTests.replay(try! TrafficTests.capture(), at: 0))]), at: 0)
        for frame in 0...60 { tick.draw(at: Double(frame) / 30) }
        return (tick.frame, controller)
    }

    /// Where an airport's mark must be: its bearing and distance from the station, on the dial as drawn.
    func expected(_ code: String, controller: KioskController, facing: Double) throws -> (x: Double, y: Double) {
        let airport = try #require(data.airport(code: code))
        let place = GeoPoint(latitude: airport.position.latitude, longitude: airport.position.longitude)
        let distance = TrafficTests.station.distanceNM(to: place), bearing = (TrafficTests.station.bearing(to: place) - facing) * .pi / 180
        let dial = controller.view.layout.dialFrame(.standby), range = controller.traffic.displayedRangeNM(at: 2)
        #expect(range == 40)
        let r = distance / range * dial.width / 2
        return (dial.midX + sin(bearing) * r, dial.midY - cos(bearing) * r)
    }

    /// The middle of the mark's ring near `at`: the box of what the airports changed there, left of the label.
    func ring(near at: (x: Double, y: Double), _ with: PixelBuffer, _ without: PixelBuffer) -> (x: Double, y: Double)? {
        var x0 = Int.max, x1 = Int.min, y0 = Int.max, y1 = Int.min
        for y in Int(at.y) - 6...Int(at.y) + 6 {
            for x in Int(at.x) - 6...Int(at.x) + 4 where with[x, y] != without[x, y] {
                (x0, x1, y0, y1) = (min(x0, x), max(x1, x), min(y0, y), max(y1, y))
            }
        }
        return x0 <= x1 ? (Double(x0 + x1 + 1) / 2, Double(y0 + y1 + 1) / 2) : nil
    }

    /// The airports' codes keep clear of the rings' labels: near London
    /// (KQA101 overhead, the README's card from a capture), LHR's code would
    /// run into the "10" to its right; near Irvine on the 40 NM dial.
    @Test(arguments: [("dump1090fa_plord12_44ac.json", 51.350377, -0.578384, 800, 480), ("readsb_overirvine_170ac.json", 33.68, -117.87, 1280, 720)])
    func theCodesKeepClearOfTheRingsLabels(capture: String, latitude: Double, longitude: Double, width: Int, height: Int) throws {
        let renderer = KioskRenderer(fonts: try FontSet())
        let controller = KioskController(layout: KioskLayout(width: width, height: height), measure: renderer)
        let feed = FeedInterpreter(sourceName: "replay", selector: OverheadSelector(settings: .init(station: GeoPoint(latitude: latitude, longitude: longitude))))
        feed.identity.standingData = data
        controller.feed = feed
        controller.placeAirports()
        let snapshot = try AircraftJSON.parse(Array(try String(contentsOfFile: CardIdentityTests.root + "/Tests/FeedTests/Fixtures/" + capture, encoding: .utf8).utf8))
        _ = controller.handle(.feed([.snapshot(snapshot)]), at: 0)
        let tick = FrameTick(controller: controller, renderer: renderer, buffer: PixelBuffer(width: width, height: height))
        for frame in 0...90 { tick.draw(at: Double(frame) / 30) }
        let dial = try #require(controller.renderList.first { $0.id == KioskScene.dialID })
        let boxes = renderer.airportAndRangeLabelBoxes(dial, minimumTextSize: Float(controller.layout.minimumTextSize))
        #expect(boxes.airports.count >= 2, "\(capture): airports on the dial \(boxes.airports.count)")
        for (i, box) in boxes.airports.enumerated() {
            #expect(!boxes.rings.contains { $0.intersects(box) }, "\(capture): airport \(i)'s code \(box) runs into a ring's label \(boxes.rings)")
        }
    }

    @Test(arguments: [0.0, 90.0])
    func theMarksLieAtTheirBearingAndDistance(facing: Double) throws {
        let renderer = KioskRenderer(fonts: try FontSet())
        let (with, controller) = frame(airports: true, facing: facing, renderer: renderer)
        let (without, _) = frame(airports: false, facing: facing, renderer: renderer)
        for code in ["KSNA", "KLAX"] {
            let want = try expected(code, controller: controller, facing: facing)
            let found = try #require(ring(near: want, with, without), "\(code): no mark near \(want)")
            #expect(abs(found.x - want.x) <= 2 && abs(found.y - want.y) <= 2, "\(code) facing \(facing)°: the mark at \(found), its place \(want)")
            // Its code to its right.
            var label = 0
            for y in Int(want.y) - 8...Int(want.y) + 8 {
                for x in Int(want.x) + 7...Int(want.x) + 40 where with[x, y] != without[x, y] { label += 1 }
            }
            #expect(label > 20, "\(code): its label, \(label) pixels")
        }
        // An airfield few airlines serve has no mark.
        for code in ["KRIV", "KSMO"] {
            let at = try expected(code, controller: controller, facing: facing)
            #expect(ring(near: at, with, without) == nil, "\(code) is marked")
        }
    }
}
