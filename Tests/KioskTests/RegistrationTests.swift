import Testing
import Foundation
import AnimationCore
import Feed
import StandingData
@testable import KioskModel
import KioskRendering

/// Who an aircraft is beyond its callsign: the country that assigned its
/// address and whether the block is military (Virtual Radar Server's code
/// blocks, in the shipped standing data), its registration and squawk beside
/// the callsign, and its climb or descent beside the altitude.
@Suite struct RegistrationTests {
    let data: StandingData
    init() throws { data = try StandingData(path: CardIdentityTests.root + "/Data/" + StandingData.fileName) }

    /// The first single-address military block of `country` in the code blocks the tests import.
    func militaryAddress(_ country: String) throws -> String {
        let path = CardIdentityTests.root + "/Tests/StandingDataTests/Fixtures/standing-data/code-blocks/schema-01/code-blocks.csv"
        let row = try #require(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .map { $0.split(separator: ",").map(String.init) }.first { $0.count == 7 && $0[2] == "1" && $0[5] == "1" && $0[6].hasPrefix(country) })
        return row[0].lowercased()
    }

    @Test func aMilitaryBlockAlertsOnAFeedThatSendsNoDatabaseFlags() throws {
        let address = try militaryAddress("US")
        // N1539E (a0d8ec) given a military address, as a feed without readsb's database sends it.
        let military = try AlertTests().capture("a0d8ec") { $0.replacingOccurrences(of: #""hex":"a0d8ec""#, with: #""hex":"\#(address)""#) }
        func shown(_ snapshot: AircraftSnapshot, data: StandingData?) -> Aircraft? {
            let interpreter = FeedInterpreter(sourceName: "capture", selector: OverheadSelector(settings: .init(station: AlertTests.station)))
            var rules = KioskConfiguration().alerts
            rules.military = true
            interpreter.alerts = rules
            interpreter.identity = AircraftIdentity(standingData: data)
            return interpreter.state(after: [.snapshot(snapshot)], now: snapshot.now, log: { _ in })?.aircraft
        }
        let alert = try #require(shown(military, data: data))
        #expect(alert.callsign == "N1539E" && alert.alert == "MILITARY" && alert.countryCode == "US", "\(alert)")
        #expect(shown(military, data: nil)?.callsign == "LXJ440", "without the standing data: the one overhead")
        // Where readsb sends its database's flags, they decide.
        let flagged = try AlertTests().capture("a0d8ec") {
            $0.replacingOccurrences(of: #""hex":"a0d8ec""#, with: #""hex":"\#(address)""#)
                .replacingOccurrences(of: #""squawk":"0204""#, with: #""squawk":"0204","dbFlags":0"#)
        }
        #expect(shown(flagged, data: data)?.callsign == "LXJ440")
        #expect(shown(try AlertTests().capture("a0d8ec") { $0 }, data: data)?.callsign == "LXJ440", "the capture as it was")
    }

    @Test(arguments: ["dump1090fa_plord12_44ac.json", "readsb_overirvine_170ac.json"])
    func everyAircraftOfACaptureIsNamedByItsAddressBlock(file: String) throws {
        let snapshot = try AircraftJSON.parse(try CardIdentityTests().capture(file))
        let identity = AircraftIdentity(standingData: data)
        var named = 0, icao = 0
        for r in snapshot.aircraft {
            if !r.hex.hasPrefix("~") { icao += 1 }
            let block = data.addressBlock(address: r.hex)
            let card = identity.describe(r)
            #expect(card.countryCode == block?.countryCode && card.country == block?.countryName, "\(r.hex)")
            if card.country != nil { named += 1 }
            if r.hex.hasPrefix("~") { #expect(card.country == nil) }
        }
        #expect(named * 10 >= icao * 9, "\(named) of \(icao) ICAO addresses named")
    }

    static let aircraft = Aircraft(callsign: "BAW283", altitudeFeet: 36_000, distanceNM: 3.2, bearingDegrees: 274,
                                   verticalRateFeetPerMinute: 1_536)

    /// The leaves of an overflight card, measured as the renderer draws them.
    func leaves(_ a: Aircraft, width: Int, height: Int, renderer: KioskRenderer, units: DisplayUnits = DisplayUnits()) -> [LeafDescription] {
        KioskScene.leaves(for: KioskState(mode: .overflight, aircraft: a), shown: nil, layout: KioskLayout(width: width, height: height),
                          measure: renderer, units: units)
    }

    func text(_ leaves: [LeafDescription], _ name: String) -> (text: String, leaf: LeafDescription)? {
        guard let leaf = leaves.first(where: { $0.id.path == name }), case let .text(t) = leaf.content else { return nil }
        return (t, leaf)
    }

    @Test(arguments: [(1280, 720), (800, 480), (1920, 1080), (480, 800), (720, 720)])
    func theRegistrationAndCountrySitBesideTheCallsignWhereTheyFit(size: (Int, Int)) throws {
        let renderer = KioskRenderer(fonts: try FontSet())
        var a = Self.aircraft
        a.registration = "G-ZBKA"
        a.country = "United Kingdom"
        a.countryCode = "GB"
        a.squawk = "7421"
        for callsign in ["BAW283", "N1539E", "Unidentified"] {
            a.callsign = callsign
            let card = leaves(a, width: size.0, height: size.1, renderer: renderer)
            let layout = KioskLayout(width: size.0, height: size.1)
            let s = layout.cardScale
            let sign = try #require(text(card, "card/callsign"))
            let signRight = sign.leaf.frame.x + renderer.width(of: sign.text, style: .callsign, size: sign.leaf.frame.height)
            for (i, choices) in [["G-ZBKA · Squawk 7421", "G-ZBKA", ""], ["United Kingdom", "GB", ""]].enumerated() {
                let line = try #require(text(card, "card/registration\(i)"))
                #expect(choices.contains(line.text), "\(size) \(callsign): '\(line.text)'")
                #expect(line.leaf.opacity == (line.text.isEmpty ? 0 : 1))
                let left = line.leaf.frame.x - renderer.width(of: line.text, style: .registration, size: line.leaf.frame.height)
                if !line.text.isEmpty { #expect(left >= signRight + 20 * s, "\(size) \(callsign): '\(line.text)' runs into the callsign") }
                // The longest that fits: the next longer choice would not have.
                if let k = choices.firstIndex(of: line.text), k > 0 {
                    #expect(line.leaf.frame.x - renderer.width(of: choices[k - 1], style: .registration, size: line.leaf.frame.height) < signRight + 24 * s)
                }
            }
        }
        // A short callsign on a wide card has room for each whole line.
        if size.0 >= 1280 {
            a.callsign = "BAW283"
            let card = leaves(a, width: size.0, height: size.1, renderer: renderer)
            #expect(text(card, "card/registration0")?.text == "G-ZBKA · Squawk 7421" && text(card, "card/registration1")?.text == "United Kingdom")
        }
    }

    @Test(arguments: [(1280, 720), (800, 480), (720, 720)])
    func theClimbRateSitsBetweenTheAltitudesLabelAndItsValue(size: (Int, Int)) throws {
        let renderer = KioskRenderer(fonts: try FontSet())
        for units in [DisplayUnits(), DisplayUnits(altitude: .meters)] {
            let card = leaves(Self.aircraft, width: size.0, height: size.1, renderer: renderer, units: units)
            let rate = try #require(text(card, "card/row0/rate"))
            let label = try #require(text(card, "card/row0/label")), value = try #require(text(card, "card/row0/value"))
            // The rate fits beside the label at these sizes: the arrow alone is for less room.
            #expect(rate.text == units.verticalRateText(Self.aircraft).text && rate.leaf.opacity == 1, "\(size): '\(rate.text)'")
            let labelRight = label.leaf.frame.x + renderer.width(of: label.text, style: .rowLabel, size: label.leaf.frame.height)
            let valueLeft = value.leaf.frame.x - renderer.width(of: value.text, style: .rowValue, size: value.leaf.frame.height)
            let rateRight = rate.leaf.frame.x + renderer.width(of: rate.text, style: .route, size: rate.leaf.frame.height)
            #expect(rate.leaf.frame.x > labelRight && rateRight < valueLeft, "\(size): '\(rate.text)' between \(labelRight) and \(valueLeft)")
        }
        var level = Self.aircraft
        level.verticalRateFeetPerMinute = 100
        #expect(text(leaves(level, width: size.0, height: size.1, renderer: renderer), "card/row0/rate")?.leaf.opacity == 0, "level flight: nothing")
    }
}
