import Testing
@testable import Feed

/// The overhead choice over the Irvine capture, with expectations worked out by
/// hand (haversine from the station, positions at most 15 s old):
/// within 3 nm are a54b30 LXJ440 at 550 ft, reported 2.53 nm away on 321.9°
/// with a position 3.8 s old at 134.6 kt on track 206.95°, so carried 0.142 nm
/// on (flat-earth by hand: 2.475 nm, bearing 318.9°); and five aircraft on the
/// ground, not carried on: a5724f N450CA 2.76 nm, ad0851 2.89, ad7760 2.91,
/// adf9b7 2.92, ~358936 2.97.
@Suite struct OverheadTests {
    let station = GeoPoint(latitude: 33.635029, longitude: -117.842218)

    func irvine() throws -> AircraftSnapshot {
        try AircraftJSON.parse(try FeedParsingTests.bytes("readsb_overirvine_170ac.json"))
    }

    @Test func closestAirborneAircraftWithinThreeMiles() throws {
        var selector = OverheadSelector(settings: .init(station: station))
        let choice = try #require(selector.update(try irvine(), at: 0))
        #expect(choice.report.hex == "a54b30" && choice.report.callsign == "LXJ440")
        #expect(abs(choice.distanceNM - 2.475) < 0.001, "\(choice.distanceNM)")
        #expect(abs(choice.bearingDegrees - 318.9) < 0.05, "\(choice.bearingDegrees)")
    }

    @Test func groundTrafficOnlyWhenAllowed() throws {
        var settings = OverheadSelector.Settings(station: station)
        settings.ignore = ["lxj440"]
        var airborne = OverheadSelector(settings: settings)
        #expect(airborne.update(try irvine(), at: 0) == nil)
        settings.includeGround = true
        var ground = OverheadSelector(settings: settings)
        let choice = try #require(ground.update(try irvine(), at: 0))
        #expect(choice.report.hex == "a5724f" && choice.report.callsign == "N450CA" && abs(choice.distanceNM - 2.757) < 0.001)
        settings.radiusNM = 2.4
        settings.ignore = []
        var tight = OverheadSelector(settings: settings)
        #expect(tight.update(try irvine(), at: 0) == nil)
        let all = OverheadSelector(settings: .init(station: station)).candidates(in: try irvine(), radius: 3)
        #expect(all.map(\.report.hex) == ["a54b30"])
    }

    /// An aircraft hovering at the edge does not flap the layout.
    @Test func theEdgeDoesNotFlap() {
        var selector = OverheadSelector(settings: .init(station: station))
        func at(_ distanceNM: Double) -> AircraftSnapshot {
            var r = AircraftReport(hex: "abcdef")
            r.callsign = "EDGE1"
            r.altitudeFeet = 3000
            r.latitude = station.latitude + distanceNM / 60
            r.longitude = station.longitude
            r.positionAge = 1
            return AircraftSnapshot(now: 0, aircraft: [r])
        }
        var shown: [Bool] = []
        // 3.1 nm: outside the entry radius, so nothing yet.
        shown.append(selector.update(at(3.1), at: 0) != nil)
        // Crosses in, then wobbles around 3 nm: stays shown (exit radius 3.5 nm).
        for (i, d) in [2.9, 3.05, 2.95, 3.2, 3.4, 3.1].enumerated() { shown.append(selector.update(at(d), at: Double(i + 1)) != nil) }
        #expect(shown == [false, true, true, true, true, true, true])
        // Leaves for good: held for the hold time, then standby.
        #expect(selector.update(at(4), at: 10) != nil)
        #expect(selector.update(at(4), at: 17) != nil)
        #expect(selector.update(at(4), at: 18.5) == nil)
    }

    @Test func greatCircleDistancesAndBearings() {
        let london = GeoPoint(latitude: 51.4700, longitude: -0.4543), paris = GeoPoint(latitude: 49.0097, longitude: 2.5479)
        #expect(abs(london.distanceNM(to: paris) - 188.5) < 1.5)
        let north = GeoPoint(latitude: 10, longitude: 20), moved = GeoPoint(latitude: 10.1, longitude: 20)
        #expect(abs(north.bearing(to: moved)) < 1e-9 && abs(north.distanceNM(to: moved) - 6.0) < 0.05)
        #expect(abs(moved.bearing(to: north) - 180) < 1e-9)
    }

    func report(_ hex: String, north distanceNM: Double, altitude: Int? = 3000, positionAge: Double = 1, onGround: Bool = false,
                callsign: String? = nil) -> AircraftReport {
        var r = AircraftReport(hex: hex)
        r.callsign = callsign
        r.altitudeFeet = altitude
        r.onGround = onGround
        r.latitude = station.latitude + distanceNM / 60
        r.longitude = station.longitude
        r.positionAge = positionAge
        return r
    }

    @Test func theCeilingThePositionAgeAndTheIgnoreListEachExclude() {
        var settings = OverheadSelector.Settings(station: station)
        settings.ceilingFeet = 5000
        settings.maximumPositionAge = 20
        settings.ignore = ["ignored1", "abc999"]
        let selector = OverheadSelector(settings: settings)
        let snapshot = AircraftSnapshot(now: 0, aircraft: [
            report("a00001", north: 1, altitude: 5001),                      // above the ceiling
            report("a00002", north: 1, altitude: 5000, positionAge: 21),    // position too old
            report("a00003", north: 1, callsign: "IGNORED1"),               // ignored by callsign
            report("abc999", north: 1),                                     // ignored by address
            report("a00004", north: 1, altitude: nil),                      // altitude unknown
            report("a00005", north: 2, altitude: 5000, positionAge: 20),    // at the limits: shown
        ])
        #expect(selector.candidates(in: snapshot, radius: 3).map(\.report.hex) == ["a00005"])
    }

    @Test func aClearlyCloserAircraftTakesOverWhenTheyDoNotTakeTurns() {
        var settings = OverheadSelector.Settings(station: station)
        settings.cycleSeconds = 0
        var selector = OverheadSelector(settings: settings)
        let far = report("a00001", north: 2.5)
        #expect(selector.update(AircraftSnapshot(now: 0, aircraft: [far]), at: 0)?.report.hex == "a00001")
        // Slightly closer: the shown one keeps its place (no flapping between two).
        #expect(selector.update(AircraftSnapshot(now: 1, aircraft: [far, report("a00002", north: 2.2)]), at: 1)?.report.hex == "a00001")
        // Clearly closer (under 80 % of the distance): it takes over.
        #expect(selector.update(AircraftSnapshot(now: 2, aircraft: [far, report("a00002", north: 1.0)]), at: 2)?.report.hex == "a00002")
    }

    /// Three overhead: the closest first, then each in the order they came
    /// for its turn, round again; a newcomer joins the end of the round, and
    /// one that leaves drops out of it.
    @Test func severalOverheadTakeTurns() {
        var selector = OverheadSelector(settings: .init(station: station))
        let a = report("a00001", north: 2.0), b = report("a00002", north: 1.0), c = report("a00003", north: 2.5)
        func shown(_ aircraft: [AircraftReport], at t: Double) -> String? {
            selector.update(AircraftSnapshot(now: t, aircraft: aircraft), at: t)?.report.hex
        }
        #expect(shown([a, b], at: 0) == "a00002", "the closest first")
        #expect(selector.place == .init(index: 1, count: 2), "in the order they came: by distance at first")
        #expect(selector.turnEnds == 8)
        #expect(shown([a, b, c], at: 1) == "a00002")
        #expect(selector.place == .init(index: 1, count: 3), "the newcomer joins the end")
        #expect(shown([a, b, c], at: 7.9) == "a00002", "its turn is not over")
        #expect(shown([a, b, c], at: 8) == "a00001")
        #expect(selector.place == .init(index: 2, count: 3) && selector.turnEnds == 16)
        #expect(shown([a, b, c], at: 16) == "a00003")
        #expect(selector.place == .init(index: 3, count: 3))
        // The shown one leaves: the closest of the rest at once, the round now two.
        #expect(shown([a, b], at: 17) == "a00002")
        #expect(selector.place == .init(index: 1, count: 2))
        // A tap: the next at once, and a whole turn for it.
        let advanced = selector.advance(at: 18)
        #expect(advanced)
        #expect(shown([a, b], at: 18) == "a00001" && selector.turnEnds == 26)
        // Alone, no place and no turns.
        #expect(shown([c], at: 19) == "a00003")
        let alone = selector.advance(at: 19)
        #expect(selector.place == nil && selector.turnEnds == nil && !alone)
    }

    /// Between the radii, one already overhead stays in the round; one just arriving is not in it yet.
    @Test func theRoundKeepsTheExitRadius() {
        var selector = OverheadSelector(settings: .init(station: station))
        let a = report("a00001", north: 1.0), b = report("a00002", north: 2.9)
        _ = selector.update(AircraftSnapshot(now: 0, aircraft: [a, b]), at: 0)
        #expect(selector.place?.count == 2)
        _ = selector.update(AircraftSnapshot(now: 1, aircraft: [a, report("a00002", north: 3.3)]), at: 1)
        #expect(selector.place?.count == 2, "3.3 NM is inside the exit radius")
        _ = selector.update(AircraftSnapshot(now: 2, aircraft: [a, report("a00002", north: 3.6)]), at: 2)
        #expect(selector.place == nil)
        _ = selector.update(AircraftSnapshot(now: 3, aircraft: [a, report("a00002", north: 3.3)]), at: 3)
        #expect(selector.place == nil, "coming back, it must be inside the entry radius again")
    }

    @Test func sbsAircraftExpireAndReportTheGround() {
        var decoder = SBS1Decoder()
        decoder.expiry = 60
        decoder.feed("MSG,3,1,1,4CA123,1,,,,,,3000,,,51.47,-0.45,,,0,0,0,0", at: 0)
        decoder.feed("MSG,2,1,1,4CA124,1,,,,,,,12,90,51.47,-0.45,,,0,0,0,-1", at: 0)
        decoder.feed("MSG,1,1,1,4CA124,1,,,,,TAXI1,,,,,,,,,,,", at: 30)
        var snapshot = decoder.snapshot(at: 50)
        let taxi = snapshot.aircraft.first { $0.hex == "4ca124" }
        #expect(snapshot.aircraft.count == 2 && taxi?.onGround == true && taxi?.altitudeFeet == nil && taxi?.callsign == "TAXI1")
        #expect(taxi?.age == 20 && taxi?.positionAge == 50)
        snapshot = decoder.snapshot(at: 70)
        #expect(snapshot.aircraft.map(\.hex) == ["4ca124"], "silent for 70 s: expired; heard 40 s ago: kept")
    }

    /// The hold keeps the card up at the edge, following the aircraft's live
    /// data; an aircraft that lands, loses its position or leaves the feed goes at once.
    @Test func aHeldAircraftFollowsItsLiveDataAndLeavesPromptly() {
        func held(_ change: (inout AircraftReport) -> Void) -> OverheadSelector.Choice? {
            var selector = OverheadSelector(settings: .init(station: station))
            #expect(selector.update(AircraftSnapshot(now: 0, aircraft: [report("a00001", north: 2.9)]), at: 0) != nil)
            var later = report("a00001", north: 4, altitude: 2500)
            change(&later)
            return selector.update(AircraftSnapshot(now: 1, aircraft: [later]), at: 1)
        }
        let following = held { _ in }
        #expect(following?.report.altitudeFeet == 2500 && abs((following?.distanceNM ?? 0) - 4) < 0.05, "held, with its live numbers")
        #expect(held { $0.onGround = true; $0.altitudeFeet = nil } == nil, "landed, and ground traffic is not shown: gone")
        #expect(held { $0.positionAge = 30 } == nil, "its position stale: gone")
        var selector = OverheadSelector(settings: .init(station: station))
        _ = selector.update(AircraftSnapshot(now: 0, aircraft: [report("a00001", north: 2.9)]), at: 0)
        #expect(selector.update(AircraftSnapshot(now: 1, aircraft: []), at: 1) == nil, "out of the feed: gone")
    }

    /// A position 10 s old at 360 kt (6 NM a minute) is 1 NM behind the aircraft.
    @Test func anOldPositionIsCarriedAlongTheTrack() {
        var r = report("a00001", north: -2, positionAge: 10)
        r.groundSpeedKnots = 360
        r.trackDegrees = 0
        let choice = OverheadSelector(settings: .init(station: station)).candidates(in: AircraftSnapshot(now: 0, aircraft: [r]), radius: 3)
        #expect(abs((choice.first?.distanceNM ?? 0) - 1) < 0.01 && abs((choice.first?.bearingDegrees ?? 0) - 180) < 0.1, "\(choice)")
        // On the ground it is not carried on (taxiing turns).
        r.onGround = true
        r.altitudeFeet = nil
        var settings = OverheadSelector.Settings(station: station)
        settings.includeGround = true
        #expect(abs((OverheadSelector(settings: settings).candidates(in: AircraftSnapshot(now: 0, aircraft: [r]), radius: 3).first?.distanceNM ?? 0) - 2) < 0.01)
    }
}
