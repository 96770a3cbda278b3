#if canImport(Glibc)
import Glibc
#endif
import SystemIO

/// A public ADS-B aggregator the kiosk can take aircraft from when it has no
/// receiver of its own: readsb's API v2 "aircraft within R of a point" query
/// over HTTPS, asked no faster than the service allows (its documentation at
/// the time of writing), with the credit its terms ask for on the screen.
public enum Aggregator: String, CaseIterable, Sendable {
    case adsbLol = "adsb.lol"
    case adsbFi = "adsb.fi"

    /// Where the service answers; `RADAR_KIOSK_AGGREGATOR_ORIGIN` replaces it
    /// (the tests' own HTTPS server, a mirror).
    public var origin: String {
        switch self {
        case .adsbLol: return "https://api.adsb.lol"
        case .adsbFi: return "https://opendata.adsb.fi"
        }
    }

    /// The shortest time between two requests: adsb.fi's open data allows one
    /// a second; adsb.lol's limit moves with its load, five seconds is its
    /// stated default.
    public var minimumInterval: Double {
        switch self {
        case .adsbLol: return 5
        case .adsbFi: return 1
        }
    }

    /// The widest query either service answers.
    public static let maximumRadiusNM = 250

    /// The line the standby screen carries for the service's terms (adsb.fi
    /// asks for credit and a link; adsb.lol's data is under the ODbL).
    public var attribution: String {
        switch self {
        case .adsbLol: return "Data: adsb.lol (ODbL)"
        case .adsbFi: return "Data: https://adsb.fi"
        }
    }

    /// The query for aircraft within `radiusNM` (whole NM, 1...250) of `station`.
    public func url(station: GeoPoint, radiusNM: Double, origin: String? = nil) -> String {
        let radius = Self.wholeRadius(radiusNM)
        let lat = Self.coordinate(station.latitude)
        let lon = Self.coordinate(station.longitude)
        let base = origin ?? self.origin
        switch self {
        case .adsbLol: return "\(base)/v2/point/\(lat)/\(lon)/\(radius)"
        case .adsbFi: return "\(base)/api/v2/lat/\(lat)/lon/\(lon)/dist/\(radius)"
        }
    }

    /// `radiusNM` rounded up to a whole NM the services accept.
    public static func wholeRadius(_ radiusNM: Double) -> Int {
        guard radiusNM.isFinite else { return maximumRadiusNM }
        return min(max(Int(radiusNM.rounded(.up)), 1), maximumRadiusNM)
    }

    /// Four decimals (about 10 m): the query needs no more, and no exponent ever.
    static func coordinate(_ degrees: Double) -> String {
        let scaled = Int((degrees * 10_000).rounded())
        let sign = scaled < 0 ? "-" : ""
        let magnitude = abs(scaled)
        let fraction = String(magnitude % 10_000)
        return "\(sign)\(magnitude / 10_000).\(String(repeating: "0", count: 4 - fraction.count))\(fraction)"
    }

    /// The origin to use: the environment's override, or the service's own.
    public static var originOverride: String? {
        guard let value = getenv("RADAR_KIOSK_AGGREGATOR_ORIGIN") else { return nil }
        let text = String(cString: value)
        return text.hasPrefix("https://") || text.hasPrefix("http://") ? text : nil
    }
}
