#if canImport(Glibc)
import Glibc
#endif
import Feed

/// Aircraft for the traffic benchmark: `count` of them spread over 5 to 38 NM
/// from a station, each flying a straight track at 150 to 500 kt, from a
/// fixed seed (the same traffic in every run), reported once a second.
struct SyntheticTraffic {
    let station = GeoPoint(latitude: 51.47, longitude: -0.4543)
    private var start: [(hex: String, position: GeoPoint, knots: Double, track: Double, feet: Int)] = []

    init(count: Int) {
        var seed: UInt64 = 0x5EED
        func next() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        for i in 0..<count {
            let position = station.moved(bearing: next() * 360, distanceNM: 5 + 33 * next())
            start.append((hex: String(0x400000 + i * 37, radix: 16), position: position, knots: 150 + 350 * next(),
                          track: next() * 360, feet: 2000 + Int(next() * 36_000)))
        }
    }

    /// The report `seconds` after the start.
    func snapshot(at seconds: Double) -> AircraftSnapshot {
        var snapshot = AircraftSnapshot(now: 1_800_000_000 + seconds, aircraft: [])
        for a in start {
            var r = AircraftReport(hex: a.hex)
            let p = a.position.moved(bearing: a.track, distanceNM: a.knots * seconds / 3600)
            (r.latitude, r.longitude, r.positionAge) = (p.latitude, p.longitude, 0)
            (r.groundSpeedKnots, r.trackDegrees, r.altitudeFeet) = (a.knots, a.track, a.feet)
            r.callsign = "SYN\(a.hex.suffix(4))"
            snapshot.aircraft.append(r)
        }
        return snapshot
    }
}
