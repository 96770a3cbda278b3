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

    /// The mean Earth radius in feet.
    public static let earthRadiusFeet = 6_371_008.8 / 0.3048

    /// How high above the horizon something `distanceNM` away over the
    /// ground and at `altitudeFeet` is seen from `observerFeet` (both above
    /// sea level), degrees; nil when the Earth's curve hides it. No
    /// refraction: 3 NM away at 3,000 ft is 9.3° up, and 40 NM away at
    /// 1,000 ft is about 400 ft below the horizon.
    public static func elevationAngle(distanceNM: Double, altitudeFeet: Double, observerFeet: Double = 0) -> Double? {
        guard distanceNM.isFinite, altitudeFeet.isFinite, observerFeet.isFinite, distanceNM >= 0 else { return nil }
        let θ = distanceNM / earthRadiusNM
        let target = earthRadiusFeet + altitudeFeet, observer = earthRadiusFeet + observerFeet
        // The target from the observer, up and along the ground, in the plane through the Earth's centre.
        let up = target * cos(θ) - observer, along = target * sin(θ)
        guard up > 0 else { return nil }
        return atan2(up, along) * 180 / .pi
    }

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
