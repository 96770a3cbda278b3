#if canImport(Glibc)
import Glibc
#endif

/// A point on the Earth in decimal degrees.
public struct GeoPoint: Equatable, Sendable {
    public var latitude: Double
    public var longitude: Double
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public static let earthRadiusNM = 6_371_008.8 / 1852

    /// Great-circle distance in nautical miles (haversine, mean Earth radius).
    public func distanceNM(to other: GeoPoint) -> Double {
        let φ1 = latitude * .pi / 180, φ2 = other.latitude * .pi / 180
        let dφ = φ2 - φ1, dλ = (other.longitude - longitude) * .pi / 180
        let a = sin(dφ / 2) * sin(dφ / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
        return 2 * Self.earthRadiusNM * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    /// Initial bearing to `other`, degrees clockwise from true north, 0..<360.
    public func bearing(to other: GeoPoint) -> Double {
        let φ1 = latitude * .pi / 180, φ2 = other.latitude * .pi / 180
        let dλ = (other.longitude - longitude) * .pi / 180
        let y = sin(dλ) * cos(φ2)
        let x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(dλ)
        let b = atan2(y, x) * 180 / .pi
        return b < 0 ? b + 360 : b
    }
}
