#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Feed
import StandingData

/// An airport drawn on the dial under the traffic: a small mark and its
/// code, where it lies from the station. Only airports airlines serve are
/// drawn (a hub or a regional airport, not every airfield and helipad):
/// the data has no sizes, so it is those that at least `minimumRoutes`
/// scheduled routes call at.
public struct DialAirport: Equatable, Sendable {
    /// What the mark is labelled: the IATA code travellers know, else the ICAO code.
    public var label: String
    /// Where it lies from the station, NM east and north.
    public var east: Double
    public var north: Double

    public init(label: String, east: Double, north: Double) {
        self.label = label
        self.east = east
        self.north = north
    }

    /// The fewest scheduled routes that make an airport worth a mark:
    /// around Irvine that keeps LAX, ONT, SNA, BUR, LGB and SBD and leaves out
    /// Riverside's 56 and Santa Monica's 5; 1,062 airports of 34,128 worldwide.
    public static let minimumRoutes = 100

    /// At most this many marks: the nearest. A dial is not a chart.
    public static let maximumCount = 16

    /// The airports within `radiusNM` of `station` in `data`, nearest first.
    public static func around(_ station: GeoPoint, in data: StandingData, within radiusNM: Double) -> [DialAirport] {
        data.airports(within: radiusNM, of: station, minimumRoutes: minimumRoutes).prefix(maximumCount).map { airport in
            let place = GeoPoint(latitude: airport.position.latitude, longitude: airport.position.longitude)
            let distance = station.distanceNM(to: place), bearing = station.bearing(to: place) * .pi / 180
            return DialAirport(label: airport.shortName, east: distance * sin(bearing), north: distance * cos(bearing))
        }
    }
}

/// One airport's mark on the dial for one frame: where, in fractions of the
/// dial's radius (x right, y up, as `TrafficBlip`), and which airport.
public struct DialAirportMark: Equatable, Sendable {
    public var x: Double
    public var y: Double
    /// Its index in the traffic picture's `airports`.
    public var index: Int
}
