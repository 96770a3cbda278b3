#if canImport(Glibc)
import Glibc
#endif
import Feed

/// Whether a scheduled route is plausibly the one an aircraft is flying, and
/// which leg. Routes come by callsign from a schedule and are often wrong
/// (another leg of a multi-leg flight, a diversion, a callsign reused), so a
/// route is shown only when the aircraft is where and going where the route
/// says:
/// - within `crossTrackLimit` of the great circle between the leg's airports:
///   10 % of the leg's length, at least 40 NM (departures and arrivals turn
///   onto and off the great circle) and at most 120 NM (a receiver sees about
///   250 NM; ocean tracks that wander further are out of its sight anyway);
/// - between the airports along that circle, give or take `alongTrackSlack`
///   (20 NM: a departure climbing out beyond the runway);
/// - when it is moving (80 kt or more, with a track) and more than
///   `nearAirport` (25 NM) from both ends, heading within `headingLimit` (60°)
///   of the great circle's course toward the destination: not the reverse leg.
public enum RouteCheck {
    public static let alongTrackSlack = 20.0
    public static let nearAirport = 25.0
    public static let headingLimit = 60.0
    public static let movingSpeed = 80.0

    public static func crossTrackLimit(legLength: Double) -> Double { min(max(0.1 * legLength, 40), 120) }

    /// The index of the first leg (airports k and k + 1) the aircraft plausibly
    /// flies, or nil when none is.
    public static func plausibleLeg(of route: StandingData.Route, position: GeoPoint, trackDegrees: Double?,
                                    groundSpeedKnots: Double?) -> Int? {
        guard route.airports.count >= 2 else { return nil }
        for k in 0..<(route.airports.count - 1) {
            let a = route.airports[k].position, b = route.airports[k + 1].position
            if fits(from: GeoPoint(latitude: a.latitude, longitude: a.longitude), to: GeoPoint(latitude: b.latitude, longitude: b.longitude),
                    position: position, trackDegrees: trackDegrees, groundSpeedKnots: groundSpeedKnots) {
                return k
            }
        }
        return nil
    }

    /// Where `p` lies against the great circle from `a` to `b`, in nautical
    /// miles: how far along it from `a` (negative before `a`, beyond
    /// `length` past `b`), how far off it, and the leg's length; nil for a
    /// leg too short to have a direction.
    public static func place(of p: GeoPoint, from a: GeoPoint, to b: GeoPoint) -> (alongTrack: Double, crossTrack: Double, length: Double)? {
        let length = a.distanceNM(to: b), fromA = a.distanceNM(to: p)
        guard length.isFinite, fromA.isFinite, length > 1 else { return nil }
        let r = GeoPoint.earthRadiusNM
        let angle = (a.bearing(to: p) - a.bearing(to: b)) * .pi / 180
        let crossTrack = asin(min(max(sin(fromA / r) * sin(angle), -1), 1)) * r
        var alongTrack = acos(min(max(cos(fromA / r) / cos(crossTrack / r), -1), 1)) * r
        if cos(angle) < 0 { alongTrack = -alongTrack }
        return (alongTrack, crossTrack, length)
    }

    /// Whether an aircraft at `position` fits the leg from `a` to `b`.
    public static func fits(from a: GeoPoint, to b: GeoPoint, position p: GeoPoint, trackDegrees: Double?, groundSpeedKnots: Double?) -> Bool {
        guard let (alongTrack, crossTrack, length) = place(of: p, from: a, to: b) else { return false }
        let fromA = a.distanceNM(to: p), toB = p.distanceNM(to: b)
        guard abs(crossTrack) <= crossTrackLimit(legLength: length),
              alongTrack >= -alongTrackSlack, alongTrack <= length + alongTrackSlack else { return false }
        if let track = trackDegrees, let speed = groundSpeedKnots, track.isFinite, speed.isFinite, speed >= movingSpeed,
           fromA > nearAirport, toB > nearAirport {
            let course = p.bearing(to: b)
            let difference = abs((track - course + 540).truncatingRemainder(dividingBy: 360) - 180)
            if difference > headingLimit { return false }
        }
        return true
    }
}
