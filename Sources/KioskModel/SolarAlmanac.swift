#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Feed

/// Sunrise and sunset for a place and day, from NOAA's solar calculator
/// (Meeus's low-precision solar coordinates with nutation and aberration):
/// good to a minute or so away from the poles, and without tables or a
/// network. The sun is "up" while its centre is above 90.833° from the
/// zenith (refraction and the half disc), the almanacs' convention.
public enum SolarAlmanac {
    /// A sunrise or sunset, or why a day has none.
    public enum Event: Equatable, Sendable {
        /// Seconds since the epoch.
        case at(Double)
        /// The sun stays up all day (midnight sun): no sunset, no sunrise.
        case sunAlwaysUp
        /// The sun stays down all day (polar night).
        case sunAlwaysDown

        public var moment: Double? { if case let .at(t) = self { return t } else { return nil } }
    }

    /// The sunrise of `date` at `place`: the one before the local solar noon of that day.
    public static func sunrise(on date: CivilDate, at place: GeoPoint) -> Event { event(rising: true, on: date, at: place) }

    /// The sunset of `date` at `place`: the one after the local solar noon of that day
    /// (after midnight in Reykjavík in June).
    public static func sunset(on date: CivilDate, at place: GeoPoint) -> Event { event(rising: false, on: date, at: place) }

    private static func event(rising: Bool, on date: CivilDate, at place: GeoPoint) -> Event {
        let julianMidnight = Double(date.daysSinceEpoch) + 2_440_587.5
        // Minutes after 0h UTC; start from the solar noon and refine at the event twice.
        var minutes = 720 - 4 * place.longitude
        for _ in 0..<3 {
            let sun = position(julianDay: julianMidnight + minutes / 1440)
            let lat = place.latitude * .pi / 180
            let cosHourAngle = (cos(90.833 * .pi / 180) - sin(lat) * sin(sun.declination)) / (cos(lat) * cos(sun.declination))
            if cosHourAngle > 1 { return .sunAlwaysDown }
            if cosHourAngle < -1 { return .sunAlwaysUp }
            let hourAngle = acos(cosHourAngle) * 180 / .pi
            minutes = 720 - 4 * place.longitude - sun.equationOfTimeMinutes + (rising ? -4 : 4) * hourAngle
        }
        return .at(date.utcMidnight + minutes * 60)
    }

    /// The sun's declination (radians) and the equation of time (minutes) at a Julian day.
    static func position(julianDay: Double) -> (declination: Double, equationOfTimeMinutes: Double) {
        let c = (julianDay - 2_451_545) / 36_525
        let rad = Double.pi / 180
        let meanLongitude = (280.466_46 + c * (36_000.769_83 + c * 0.000_303_2)).truncatingRemainder(dividingBy: 360)
        let meanAnomaly = 357.529_11 + c * (35_999.050_29 - 0.000_153_7 * c)
        let eccentricity = 0.016_708_634 - c * (0.000_042_037 + 0.000_000_126_7 * c)
        let centre = sin(meanAnomaly * rad) * (1.914_602 - c * (0.004_817 + 0.000_014 * c))
            + sin(2 * meanAnomaly * rad) * (0.019_993 - 0.000_101 * c) + sin(3 * meanAnomaly * rad) * 0.000_289
        let node = (125.04 - 1934.136 * c) * rad
        let apparentLongitude = (meanLongitude + centre - 0.005_69 - 0.004_78 * sin(node)) * rad
        let meanObliquity = 23 + (26 + (21.448 - c * (46.815 + c * (0.000_59 - c * 0.001_813))) / 60) / 60
        let obliquity = (meanObliquity + 0.002_56 * cos(node)) * rad
        let declination = asin(sin(obliquity) * sin(apparentLongitude))
        let y = tan(obliquity / 2) * tan(obliquity / 2)
        let l0 = meanLongitude * rad, m = meanAnomaly * rad
        let equation = y * sin(2 * l0) - 2 * eccentricity * sin(m) + 4 * eccentricity * y * sin(m) * cos(2 * l0)
            - 0.5 * y * y * sin(4 * l0) - 1.25 * eccentricity * eccentricity * sin(2 * m)
        return (declination, 4 * equation / rad)
    }
}
