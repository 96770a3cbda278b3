import Testing
import Foundation
import Feed
@testable import StandingData

/// Whether a route is shown: the aircraft must be near the great circle
/// between its airports, between them, and heading for the destination.
@Suite struct RouteCheckTests {
    let data: StandingData

    init() throws { data = try StandingData(path: StandingDataTests.shipped) }

    /// The point a fraction `f` of the way from `a` to `b` along the great circle.
    static func along(_ a: GeoPoint, _ b: GeoPoint, _ f: Double) -> GeoPoint {
        let φ1 = a.latitude * .pi / 180, λ1 = a.longitude * .pi / 180, φ2 = b.latitude * .pi / 180, λ2 = b.longitude * .pi / 180
        let δ = a.distanceNM(to: b) / GeoPoint.earthRadiusNM
        let A = sin((1 - f) * δ) / sin(δ), B = sin(f * δ) / sin(δ)
        let x = A * cos(φ1) * cos(λ1) + B * cos(φ2) * cos(λ2), y = A * cos(φ1) * sin(λ1) + B * cos(φ2) * sin(λ2), z = A * sin(φ1) + B * sin(φ2)
        return GeoPoint(latitude: atan2(z, (x * x + y * y).squareRoot()) * 180 / .pi, longitude: atan2(y, x) * 180 / .pi)
    }

    /// The point `distance` NM from `p` on the initial bearing `bearing`.
    static func offset(_ p: GeoPoint, bearing: Double, distance: Double) -> GeoPoint {
        let δ = distance / GeoPoint.earthRadiusNM, θ = bearing * .pi / 180
        let φ1 = p.latitude * .pi / 180, λ1 = p.longitude * .pi / 180
        let φ2 = asin(sin(φ1) * cos(δ) + cos(φ1) * sin(δ) * cos(θ))
        let λ2 = λ1 + atan2(sin(θ) * sin(δ) * cos(φ1), cos(δ) - sin(φ1) * sin(φ2))
        return GeoPoint(latitude: φ2 * 180 / .pi, longitude: λ2 * 180 / .pi)
    }

    func point(_ airport: StandingData.Airport) -> GeoPoint {
        GeoPoint(latitude: airport.position.latitude, longitude: airport.position.longitude)
    }

    @Test func baw283IsShownOnItsGreatCircleAndNot200NMOffOrFlyingTheOtherWay() throws {
        let route = try #require(data.route(forCallsign: "BAW283"))
        let origin = point(route.airports[0]), destination = point(route.airports[1])
        for f in [0.02, 0.05, 0.3, 0.7, 0.97] {
            let p = Self.along(origin, destination, f)
            let course = p.bearing(to: destination)
            #expect(RouteCheck.plausibleLeg(of: route, position: p, trackDegrees: course, groundSpeedKnots: 480) == 0, "at \(f)")
            // 200 NM to either side of the great circle: not this route.
            for side in [90.0, -90.0] {
                let off = Self.offset(p, bearing: course + side, distance: 200)
                #expect(RouteCheck.plausibleLeg(of: route, position: off, trackDegrees: course, groundSpeedKnots: 480) == nil,
                        "200 NM off at \(f)")
            }
            // On the circle but flying the reverse leg (LAX → LHR).
            #expect(RouteCheck.plausibleLeg(of: route, position: p, trackDegrees: course + 180, groundSpeedKnots: 480) == nil,
                    "reversed at \(f)")
            // Slow or without a track, the direction is not judged.
            #expect(RouteCheck.plausibleLeg(of: route, position: p, trackDegrees: nil, groundSpeedKnots: nil) == 0)
        }
        // On the circle 150 NM beyond the destination, or before the origin.
        let length = origin.distanceNM(to: destination)
        for f in [1 + 150 / length, -150 / length] {
            let p = Self.along(origin, destination, f)
            #expect(RouteCheck.plausibleLeg(of: route, position: p, trackDegrees: nil, groundSpeedKnots: nil) == nil, "at \(f)")
        }
    }

    @Test func aMultiLegRoutePicksTheLegTheAircraftIsOn() throws {
        // A three-airport route of the data's, found by reading it.
        let excerpt = try StandingDataTests().csv("routes/schema-01/B/BAW-all.csv")
        let row = try #require(excerpt.first { row in
            let codes = row["AirportCodes"]!.split(separator: "-")
            return codes.count == 3 && data.route(forCallsign: row["Callsign"]!)?.airports.count == 3
        })
        let route = try #require(data.route(forCallsign: row["Callsign"]!))
        for leg in 0..<2 {
            let a = point(route.airports[leg]), b = point(route.airports[leg + 1])
            let p = Self.along(a, b, 0.5)
            #expect(RouteCheck.plausibleLeg(of: route, position: p, trackDegrees: p.bearing(to: b), groundSpeedKnots: 450) == leg,
                    "\(row["Callsign"]!) \(row["AirportCodes"]!): midway on leg \(leg)")
        }
    }

    @Test func theLimitsAreTheDocumentedOnes() {
        #expect(RouteCheck.crossTrackLimit(legLength: 100) == 40)
        #expect(RouteCheck.crossTrackLimit(legLength: 800) == 80)
        #expect(RouteCheck.crossTrackLimit(legLength: 4700) == 120)
    }
}
