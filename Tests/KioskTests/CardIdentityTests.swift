import Testing
import Foundation
import Feed
import StandingData
@testable import KioskModel

/// What the card says about an aircraft from the real captures, with the
/// shipped standing data: routes that fit, names, types on feeds that carry
/// none. Expected values come from the data and the captures, looked up the
/// other way round, never written here.
@Suite struct CardIdentityTests {
    static let root: String = {
        let parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        return parts.prefix(while: { $0 != "Tests" }).joined(separator: "/")
    }()
    let data: StandingData
    let identity: AircraftIdentity

    init() throws {
        data = try StandingData(path: Self.root + "/Data/" + StandingData.fileName)
        identity = AircraftIdentity(standingData: data)
    }

    func capture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: Self.root + "/Tests/FeedTests/Fixtures/" + name)))
    }

    @Test(arguments: ["dump1090fa_plord12_44ac.json", "readsb_overirvine_170ac.json"])
    func aircraftJSONCardsShowWhatTheDataKnowsAndNothingElse(file: String) throws {
        let snapshot = try AircraftJSON.parse(try capture(file))
        var routes = 0, airlines = 0, types = 0
        for r in snapshot.aircraft {
            let card = identity.describe(r)
            // A route only where the data has one for the callsign and the aircraft fits a leg of it.
            if let route = card.route {
                let scheduled = try #require(r.callsign.flatMap(data.route(forCallsign:)), "\(r.hex): a route from nowhere")
                let leg = try #require(RouteCheck.plausibleLeg(of: scheduled, position: GeoPoint(latitude: r.latitude!, longitude: r.longitude!),
                                                               trackDegrees: r.trackDegrees, groundSpeedKnots: r.groundSpeedKnots))
                #expect(route == "\(scheduled.airports[leg].shortName) → \(scheduled.airports[leg + 1].shortName)")
                routes += 1
            }
            // The airline is the data's name for the callsign's ICAO code.
            if let airline = card.airline {
                let code = try #require(r.callsign.map { String($0.prefix(3)) })
                #expect(airline == data.airlineName(code: code) ?? r.owner, "\(r.callsign ?? r.hex)")
                airlines += 1
            } else if let code = r.callsign.map({ String($0.prefix(3)) }), code.allSatisfy(\.isLetter), r.callsign!.count > 3,
                      r.callsign!.dropFirst(3).first?.isNumber == true {
                #expect(data.airlineName(code: code) == nil, "\(r.callsign!): a known airline left off")
            }
            // The type: the feed's, else the data's by address; the model from the type.
            let record = data.aircraft(address: r.hex)
            #expect(card.type == (r.typeCode ?? record?.typeDesignator), "\(r.hex)")
            if let type = card.type {
                types += 1
                if let name = data.aircraftType(designator: type)?.name { #expect(card.model == String(name.prefix(Aircraft.nameLength))) }
            } else if card.model != nil {
                #expect(card.model == r.typeDescription || card.model == r.category.flatMap(AircraftIdentity.categoryName))
            }
        }
        print("\(file): \(snapshot.aircraft.count) aircraft, \(routes) routes shown, \(airlines) airlines, \(types) types")
        #expect(airlines > 5, "\(airlines) airline names")
        #expect(routes > 0, "\(routes) routes shown")
        if file.hasPrefix("dump1090fa") { #expect(types > 0, "dump1090-fa sends no types: the data's aircraft table gives \(types)") }
    }

    @Test func sbsCardsGetTypesAndNamesByAddressAndCallsign() throws {
        var decoder = SBS1Decoder()
        for line in String(decoding: try capture("sbs1_nodesbs1_antirez_4184lines.txt"), as: UTF8.self).split(separator: "\n") {
            decoder.feed(line, at: 0)
        }
        let reports = decoder.snapshot(at: 1).aircraft
        let described = reports.map { identity.describe($0) }
        #expect(described.contains { $0.airline != nil }, "SBS callsigns get airline names")
        for (r, card) in zip(reports, described) {
            #expect(card.type == data.aircraft(address: r.hex)?.typeDesignator, "SBS carries no type: only the data's, \(r.hex)")
        }
        // None of the captured addresses is in the data's sparse table: the
        // same lines from an airframe it knows (VP-CAH, a Global 7500 in the
        // excerpt the StandingData tests read) get its type and model.
        var known = SBS1Decoder()
        for line in String(decoding: try capture("sbs1_skypies_dump1090style_7lines.txt"), as: UTF8.self).split(separator: "\n") {
            known.feed(Substring(line.replacingOccurrences(of: "A81BD0", with: "400210")), at: 0)
        }
        let report = try #require(known.snapshot(at: 1).aircraft.first)
        let card = identity.describe(report)
        let record = try #require(data.aircraft(address: "400210"))
        #expect(card.type == record.typeDesignator && card.type != nil)
        #expect(card.model == record.typeDesignator.flatMap { data.aircraftType(designator: $0)?.name } && card.model != nil, "\(card)")
    }

    @Test func theUsersRouteWinsAndADoubtfulOneIsNotShown() throws {
        var report = AircraftReport(hex: "400000")
        report.callsign = "BAW283"
        let scheduled = try #require(data.route(forCallsign: "BAW283"))
        let heathrow = scheduled.airports[0].position
        // 60 NM west of Heathrow, heading west: on the way to Los Angeles.
        report.latitude = heathrow.latitude
        report.longitude = heathrow.longitude - 60 / (60 * cos(heathrow.latitude * .pi / 180))
        report.trackDegrees = 285
        report.groundSpeedKnots = 420
        let names = scheduled.airports.map(\.shortName)
        #expect(identity.describe(report).route == "\(names[0]) → \(names[1])")
        // Heading east at that spot: not this route.
        report.trackDegrees = 95
        #expect(identity.describe(report).route == nil)
        // The user's file wins, whatever the aircraft does.
        let mine = AircraftIdentity(routes: ["BAW283": "LHR → SFO"], standingData: data)
        #expect(mine.describe(report).route == "LHR → SFO")
        // No standing data: no route, no names, the feed's type only.
        report.typeCode = "B789"
        let bare = AircraftIdentity().describe(report)
        #expect(bare.route == nil && bare.airline == nil && bare.model == nil && bare.type == "B789")
    }
}
