import JSON

/// Reads aircraft.json as readsb, dump1090-fa, older dump1090 forks and the
/// readsb API v2 shape write it (design/adsb-and-devices.md §1.3–1.4).
public enum AircraftJSON {
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    public static func parse(_ bytes: [UInt8]) throws -> AircraftSnapshot {
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch let e as JSONError {
            throw Failure(description: "malformed JSON at \(e)")
        }
        return try parse(json)
    }

    public static func parse(_ json: JSONValue) throws -> AircraftSnapshot {
        guard let top = json.objectValue else { throw Failure(description: "expected a JSON object with \"aircraft\"") }
        // readsb's API v2 shape: "ac" instead of "aircraft", "now" in milliseconds.
        let isV2 = top["aircraft"] == nil && top["ac"] != nil
        guard let list = (isV2 ? top["ac"] : top["aircraft"])?.arrayValue else {
            throw Failure(description: "no \"aircraft\" array")
        }
        guard var now = top["now"]?.doubleValue, now.isFinite else { throw Failure(description: "no \"now\" time") }
        if isV2 || now > 1e11 { now /= 1000 }
        var aircraft: [AircraftReport] = []
        aircraft.reserveCapacity(list.count)
        for entry in list {
            if let report = report(entry) { aircraft.append(report) }
        }
        return AircraftSnapshot(now: now, aircraft: aircraft)
    }

    /// One entry; nil when it has no address (an empty object, say).
    static func report(_ entry: JSONValue) -> AircraftReport? {
        guard let o = entry.objectValue, let hex = o["hex"]?.stringValue?.trimmed(), !hex.isEmpty else { return nil }
        var r = AircraftReport(hex: hex.lowercased())
        func number(_ key: String) -> Double? {
            guard let n = o[key]?.doubleValue, n.isFinite else { return nil }
            return n
        }
        r.callsign = o["flight"]?.stringValue?.trimmed().nonEmpty
        r.registration = o["r"]?.stringValue?.trimmed().nonEmpty
        r.typeCode = o["t"]?.stringValue?.trimmed().nonEmpty
        r.category = o["category"]?.stringValue
        // alt_baro is a number or "ground"; older forks say "altitude".
        let altitude = o["alt_baro"] ?? o["altitude"]
        if altitude?.stringValue == "ground" {
            r.onGround = true
        } else if let feet = altitude?.doubleValue, feet.isFinite, abs(feet) < 200_000 {
            r.altitudeFeet = Int(feet.rounded())
        }
        r.groundSpeedKnots = number("gs") ?? number("speed")
        r.trackDegrees = number("track") ?? number("calc_track")
        if let lat = number("lat"), let lon = number("lon"), abs(lat) <= 90, abs(lon) <= 180 {
            r.latitude = lat
            r.longitude = lon
            r.positionAge = number("seen_pos") ?? 0
        }
        r.age = number("seen")
        r.squawk = o["squawk"]?.stringValue
        return r
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
