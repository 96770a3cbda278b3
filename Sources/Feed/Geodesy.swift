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

    /// The point `distanceNM` away on the initial bearing `bearing` (degrees from true north).
    public func moved(bearing: Double, distanceNM: Double) -> GeoPoint {
        let δ = distanceNM / Self.earthRadiusNM, θ = bearing * .pi / 180
        let φ1 = latitude * .pi / 180, λ1 = longitude * .pi / 180
        let φ2 = asin(min(max(sin(φ1) * cos(δ) + cos(φ1) * sin(δ) * cos(θ), -1), 1))
        let λ2 = λ1 + atan2(sin(θ) * sin(δ) * cos(φ1), cos(δ) - sin(φ1) * sin(φ2))
        let longitude = (λ2 * 180 / .pi + 540).truncatingRemainder(dividingBy: 360) - 180
        return GeoPoint(latitude: φ2 * 180 / .pi, longitude: longitude)
    }
}
