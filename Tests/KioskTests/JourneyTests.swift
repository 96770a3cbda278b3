import Testing
import Foundation
import AnimationCore
import Feed
import JSON
import Raster
import StandingData
import Typography
@testable import KioskModel
@testable import KioskRendering

/// The journey on the card: BAW283 (Heathrow to Los Angeles in the shipped
/// standing data) placed along its great circle by the test's own geodesy,
/// then described by the kiosk and drawn; the place on the line is found in
/// the pixels.
@Suite struct JourneyTests {
    static let root: String = {
        let parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        return parts.prefix(while: { $0 != "Tests" }).joined(separator: "/")
    }()
    let data: StandingData
    let identity: AircraftIdentity
    let leg: (from: GeoPoint, to: GeoPoint, city: String?)

    init() throws {
        data = try StandingData(path: Self.root + "/Data/" + StandingData.fileName)
        identity = AircraftIdentity(standingData: data)
        let route = try #require(data.route(forCallsign: "BAW283"))
        #expect(route.airports.map(\.shortName) == ["LHR", "LAX"], "what the data says today")
        let a = route.airports[0].position, b = route.airports[1].position
        leg = (GeoPoint(latitude: a.latitude, longitude: a.longitude), GeoPoint(latitude: b.latitude, longitude: b.longitude), route.airports[1].city)
    }

    /// BAW283 a `fraction` of the way along the great circle, flying it.
    func report(at fraction: Double, offTrackNM: Double = 0) -> AircraftReport {
        let length = leg.from.distanceNM(to: leg.to)
        var p = leg.from.moved(bearing: leg.from.bearing(to: leg.to), distanceNM: fraction * length)
        if offTrackNM != 0 { p = p.moved(bearing: p.bearing(to: leg.to) + 90, distanceNM: offTrackNM) }
        var r = AircraftReport(hex: "4007f2")
        r.callsign = "BAW283"
        r.latitude = p.latitude
        r.longitude = p.longitude
        r.trackDegrees = p.bearing(to: leg.to)
        r.groundSpeedKnots = 480
        r.altitudeFeet = 38_000
        return r
    }

    @Test(arguments: [0.2, 0.5, 0.9])
    func theJourneyIsTheGreatCircleFractionOfTheLeg(fraction: Double) throws {
        let card = identity.describe(report(at: fraction))
        #expect(card.route == "LHR → LAX")
        let journey = try #require(card.journey)
        let length = leg.from.distanceNM(to: leg.to)
        #expect(abs(journey.fraction - fraction) < 0.001, "\(journey.fraction)")
        #expect(abs(journey.flownNM + journey.toGoNM - length) < 1, "\(journey.flownNM) + \(journey.toGoNM) against \(length)")
        #expect(journey.destinationCity == leg.city && leg.city == "Los Angeles", "the data's city: \(leg.city ?? "none")")
    }

    @Test func aRouteThatDoesNotFitHasNoJourney() throws {
        // 300 NM off the great circle: the route check fails, so neither the route nor the journey is shown.
        let off = identity.describe(report(at: 0.5, offTrackNM: 300))
        #expect(off.route == nil && off.journey == nil)
        // The user's own route names no airports the kiosk can place.
        var mine = identity
        mine.routes = ["BAW283": "LHR → LAX"]
        let own = mine.describe(report(at: 0.5))
        #expect(own.route == "LHR → LAX" && own.journey == nil)
    }

    /// The frame of a card for `report`, with the journey's leaf.
    func card(_ report: AircraftReport, width: Int, height: Int, renderer: KioskRenderer) -> (PixelBuffer, AnimatableRect?) {
        let known = identity.describe(report)
        let aircraft = Aircraft(callsign: "BAW283", type: known.type, route: known.route, airline: known.airline, model: known.model,
                                journey: known.journey, altitudeFeet: 38_000, groundSpeedKnots: 480, distanceNM: 2, bearingDegrees: 90)
        let controller = KioskController(layout: KioskLayout(width: width, height: height),
                                         initial: KioskState(mode: .overflight, aircraft: aircraft), measure: renderer)
        let tick = FrameTick(controller: controller, renderer: renderer, buffer: PixelBuffer(width: width, height: height))
        tick.draw(at: 0)
        return (tick.frame, controller.renderList.first { $0.id.path == "card/journey" && $0.opacity > 0.99 }?.frame)
    }

    /// The middle of the aircraft's mark on the line: the bright green inside the line's band.
    func markX(_ buffer: PixelBuffer, in band: AnimatableRect) -> Double? {
        var low = Int.max, high = Int.min
        for y in Int(band.y)...Int(band.maxY) {
            for x in Int(band.x) - 2...Int(band.maxX) + 2 where (buffer[x, y] >> 8) & 0xFF > 0xC0 {
                low = min(low, x)
                high = max(high, x)
            }
        }
        return low <= high ? Double(low + high + 1) / 2 : nil
    }

    @Test(arguments: [(800, 480), (1920, 1080)])
    func theMarkSitsWhereTheGreatCircleFractionSays(size: (Int, Int)) throws {
        let renderer = KioskRenderer(fonts: try FontSet())
        // The line's ends, as drawn: the mark at the origin and at the destination.
        let (atOrigin, shown) = card(report(at: 0), width: size.0, height: size.1, renderer: renderer)
        let band = try #require(shown, "no journey drawn")
        let (atDestination, _) = card(report(at: 1), width: size.0, height: size.1, renderer: renderer)
        let start = try #require(markX(atOrigin, in: band)), end = try #require(markX(atDestination, in: band))
        #expect(end - start > band.width * 0.8, "the line spans the card: \(start)...\(end) of \(band.width) px")
        for fraction in [0.2, 0.5, 0.9] {
            let (frame, _) = card(report(at: fraction), width: size.0, height: size.1, renderer: renderer)
            let x = try #require(markX(frame, in: band))
            let expected = start + fraction * (end - start)
            #expect(abs(x - expected) <= 2, "\(size) at \(fraction): the mark at \(x), the fraction says \(expected)")
        }
        // Off the route, no line at all.
        let (off, offLine) = card(report(at: 0.5, offTrackNM: 300), width: size.0, height: size.1, renderer: renderer)
        #expect(offLine == nil && markX(off, in: band) == nil, "a route that fails the check draws no journey")
    }

    @Test func aJourneyFromACommandIsCheckedWhereItIsRead() throws {
        func parse(_ text: String) throws -> Aircraft {
            try Aircraft(json: try JSONParser.parse(text), field: "aircraft")
        }
        let a = try parse(#"{"callsign":"BAW283","journey":{"flown_nm":612,"to_go_nm":4118,"city":"Los Angeles"}}"#)
        #expect(a.journey == Journey(flownNM: 612, toGoNM: 4118, destinationCity: "Los Angeles"))
        #expect(try parse(#"{"callsign":"BAW283","journey":\#(a.journey!.json.serialized)}"#).journey == a.journey, "round trip")
        for (bad, field) in [(#"{"flown_nm":-1,"to_go_nm":5}"#, "aircraft.journey.flown_nm"), (#"{"flown_nm":1}"#, "aircraft.journey.to_go_nm"),
                             (#"{"flown_nm":1,"to_go_nm":1e9}"#, "aircraft.journey.to_go_nm"),
                             (#"{"flown_nm":1,"to_go_nm":1,"city":"L\u202eA"}"#, "aircraft.journey.city"),
                             (#"{"flown_nm":1,"to_go_nm":1,"gate":"B"}"#, "aircraft.journey.gate")] {
            #expect(throws: KioskState.ParseError.self) { try parse(#"{"callsign":"X","journey":\#(bad)}"#) }
            do { _ = try parse(#"{"callsign":"X","journey":\#(bad)}"#) } catch let e as KioskState.ParseError {
                #expect("\(e)".contains(field), "\(e)")
            }
        }
    }

    @Test func theTextsSayTheDistancesInTheCardsUnit() {
        let j = Journey(flownNM: 612, toGoNM: 4118, destinationCity: "Los Angeles")
        #expect(j.texts(DisplayUnits()) == (flown: "612 NM flown", toGo: "4,118 NM to Los Angeles"))
        #expect(j.texts(DisplayUnits(distance: .kilometres)) == (flown: "1,133 km flown", toGo: "7,627 km to Los Angeles"))
        #expect(Journey(flownNM: 10, toGoNM: 20).texts(DisplayUnits(distance: .miles)).toGo == "23 mi to go")
    }
}
