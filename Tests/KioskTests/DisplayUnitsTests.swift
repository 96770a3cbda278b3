import Testing
@testable import KioskModel

/// The card's numbers in the units a user chose.
@Suite struct DisplayUnitsTests {
    let a = Aircraft(callsign: "BAW283", altitudeFeet: 36_000, groundSpeedKnots: 487, distanceNM: 3.2, bearingDegrees: 274)

    @Test func eachQuantityInEachUnit() {
        let metric = DisplayUnits(altitude: .meters, speed: .kilometresPerHour, distance: .kilometres)
        #expect(metric.altitudeText(a).text == "10,973 m" && metric.altitudeText(a).number == 10_973)   // 36,000 × 0.3048
        #expect(metric.speedText(487).text == "902 km/h")        // 487 × 1.852 = 901.9
        #expect(metric.distanceText(3.2).text == "5.9 km")       // 3.2 × 1.852 = 5.93
        let imperial = DisplayUnits(speed: .milesPerHour, distance: .miles)
        #expect(imperial.speedText(487).text == "560 mph")       // 487 × 1.1508 = 560.4
        #expect(imperial.distanceText(3.2).text == "3.7 mi")     // 3.2 × 1.1508 = 3.68
        let aviation = DisplayUnits()
        #expect(aviation.altitudeText(a).text == "36,000 ft" && aviation.speedText(1888).text == "1,888 kt")
        #expect(aviation.distanceText(3.2).text == "3.2 NM" && aviation.distanceText(nil).text == "—")
    }

    @Test func flightLevelsAboveTheTransitionAltitude() {
        let levels = DisplayUnits(flightLevelsAbove: 6000)
        #expect(levels.altitudeText(a).text == "FL360" && levels.altitudeText(a).number == 360)
        var low = a
        low.altitudeFeet = 5_500
        #expect(levels.altitudeText(low).text == "5,500 ft", "below the transition altitude: feet")
        low.altitudeFeet = 7_000
        #expect(levels.altitudeText(low).text == "FL070")
        low.onGround = true
        #expect(levels.altitudeText(low).text == "GROUND")
    }

    @Test func climbingAndDescendingAreMarkedBesideTheAltitudeLevelIsNot() {
        var climbing = a
        climbing.verticalRateFeetPerMinute = 1_536
        #expect(DisplayUnits().altitudeText(climbing).text == "36,000 ft", "the altitude's digits stay where they are")
        #expect(DisplayUnits().verticalRateText(climbing) == ("↑", "↑ 1,500 ft/min"))
        #expect(DisplayUnits(altitude: .meters).verticalRateText(climbing) == ("↑", "↑ 7.8 m/s"))
        climbing.verticalRateFeetPerMinute = -DisplayUnits.levelRate
        #expect(DisplayUnits().verticalRateText(climbing) == ("↓", "↓ 300 ft/min"))
        climbing.verticalRateFeetPerMinute = 200
        #expect(DisplayUnits().verticalRateText(climbing) == ("", ""), "200 ft/min is level flight")
        let descending = Aircraft(callsign: "X", altitudeFeet: 30_000, verticalRateFeetPerMinute: -900)
        #expect(DisplayUnits(flightLevelsAbove: 6000).altitudeText(descending).text == "FL300")
        #expect(DisplayUnits(altitude: .meters, flightLevelsAbove: 6000).verticalRateText(descending).text == "↓ 900 ft/min",
                "flight levels are flown in feet")
        #expect(DisplayUnits().verticalRateText(Aircraft(callsign: "X", onGround: true, verticalRateFeetPerMinute: -900)) == ("", ""))
    }

    @Test func theConfigurationChoosesThem() {
        let (c, problems) = KioskConfiguration.parse("units.altitude = m\nunits.speed = km/h\nunits.distance = mi\nunits.flight_levels_above = 18000\n",
                                                     name: "k.conf")
        #expect(problems.isEmpty, "\(problems)")
        #expect(c.units == DisplayUnits(altitude: .meters, speed: .kilometresPerHour, distance: .miles, flightLevelsAbove: 18_000))
        let (_, bad) = KioskConfiguration.parse("units.speed = furlongs\n", name: "k.conf")
        #expect(bad == ["k.conf:1: units.speed: expected kt, km/h or mph, not 'furlongs'"])
    }

    @Test func theCardShowsThem() {
        let c = KioskController(layout: KioskLayout(width: 800, height: 480), initial: KioskState(mode: .overflight, aircraft: a),
                                units: DisplayUnits(altitude: .meters, speed: .kilometresPerHour, distance: .kilometres))
        _ = c.frameNeeded(at: 0)
        let values = c.renderList.filter { $0.id.path.hasPrefix("card/row") && $0.id.path.hasSuffix("/value") }.compactMap { item -> String? in
            if case let .text(s) = item.content { return s } else { return nil }
        }
        #expect(values == ["10,973 m", "902 km/h", "5.9 km", "274°"], "\(values)")
    }
}
