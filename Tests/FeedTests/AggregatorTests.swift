import Testing
import Feed

/// The aggregator presets: the query each service documents, whole NM within
/// its limit, and never asked faster than it allows.
@Suite struct AggregatorTests {
    let irvine = GeoPoint(latitude: 33.635029, longitude: -117.842218)

    @Test func eachServiceIsAskedForTheAircraftAroundTheStation() {
        #expect(Aggregator.adsbLol.url(station: irvine, radiusNM: 40) == "https://api.adsb.lol/v2/point/33.6350/-117.8422/40")
        #expect(Aggregator.adsbFi.url(station: irvine, radiusNM: 12.2) == "https://opendata.adsb.fi/api/v2/lat/33.6350/lon/-117.8422/dist/13")
        #expect(Aggregator.adsbFi.url(station: GeoPoint(latitude: -0.00004, longitude: 0.5), radiusNM: 1, origin: "https://localhost:8443")
                == "https://localhost:8443/api/v2/lat/0.0000/lon/0.5000/dist/1")
        #expect(Aggregator.adsbLol.url(station: GeoPoint(latitude: -33.86, longitude: 151.2093), radiusNM: 3)
                == "https://api.adsb.lol/v2/point/-33.8600/151.2093/3")
    }

    @Test func theRadiusIsWholeAndWithinTheServicesLimit() {
        #expect(Aggregator.wholeRadius(0.2) == 1 && Aggregator.wholeRadius(3) == 3 && Aggregator.wholeRadius(3.01) == 4)
        #expect(Aggregator.wholeRadius(400) == 250 && Aggregator.wholeRadius(.infinity) == 250 && Aggregator.wholeRadius(.nan) == 250)
    }

    @Test func theDocumentedRatesAndCredits() {
        #expect(Aggregator.adsbFi.minimumInterval == 1 && Aggregator.adsbLol.minimumInterval == 5)
        #expect(Aggregator.adsbLol.attribution.contains("ODbL") && Aggregator.adsbFi.attribution.contains("adsb.fi"))
    }
}
