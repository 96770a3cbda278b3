import JSON

/// Reads aircraft.json as readsb, dump1090-fa, older dump1090 forks and the
/// readsb API v2 shape write it (design/adsb-and-devices.md §1.3–1.4).
public enum AircraftJSON {
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// At most this many aircraft are kept from one file (a receiver hears a
    /// few hundred): a file of millions costs time on the parsing thread, not memory.
    public static let maximumAircraft = 20_000

    /// Parses a whole file, streaming its aircraft array: each entry becomes a
    /// report as it is read, so memory holds reports, never a tree of the file.
    public static func parse(_ bytes: [UInt8]) throws -> AircraftSnapshot {
        var aircraft: [AircraftReport] = []
        let top: [String: JSONValue]
        do {
            top = try JSONParser.parseObject(bytes, streaming: ["aircraft", "ac"]) { _, entry in
                if aircraft.count < maximumAircraft, let r = report(entry) { aircraft.append(r) }
            }
        } catch let e as JSONError {
            throw Failure(description: "malformed JSON at \(e)")
        }
        return try snapshot(top, aircraft: aircraft)
    }

    public static func parse(_ json: JSONValue) throws -> AircraftSnapshot {
        guard let top = json.objectValue else { throw Failure(description: "expected a JSON object with \"aircraft\"") }
        let list = (top["aircraft"] ?? top["ac"])?.arrayValue ?? []
        return try snapshot(top, aircraft: list.prefix(maximumAircraft).compactMap(report))
    }

    private static func snapshot(_ top: [String: JSONValue], aircraft: [AircraftReport]) throws -> AircraftSnapshot {
        // readsb's API v2 shape: "ac" instead of "aircraft", "now" in milliseconds.
        let isV2 = top["aircraft"] == nil && top["ac"] != nil
        guard (isV2 ? top["ac"] : top["aircraft"])?.arrayValue != nil else {
            throw Failure(description: "no \"aircraft\" array")
        }
        guard var now = top["now"]?.doubleValue, now.isFinite, now >= 0, now < 1e14 else { throw Failure(description: "no \"now\" time") }
        if isV2 || now > 1e11 { now /= 1000 }
        return AircraftSnapshot(now: now, aircraft: aircraft)
    }

    /// One entry; nil when it has no address (an empty object, say).
    static func report(_ entry: JSONValue) -> AircraftReport? {
        guard let o = entry.objectValue, let hex = o["hex"]?.stringValue?.trimmed().lowercased(),
              (6...7).contains(hex.count), hex.allSatisfy({ $0.isHexDigit || $0 == "~" }) else { return nil }
        var r = AircraftReport(hex: hex)
        func number(_ key: String, _ range: ClosedRange<Double>) -> Double? { Plausible.number(o[key]?.doubleValue, in: range) }
        r.callsign = Plausible.identifier(o["flight"]?.stringValue, length: 8)
        r.registration = Plausible.identifier(o["r"]?.stringValue)
        r.typeCode = Plausible.identifier(o["t"]?.stringValue, length: 4)
        r.category = Plausible.identifier(o["category"]?.stringValue, length: 2)
        r.typeDescription = Plausible.name(o["desc"]?.stringValue)
        r.owner = Plausible.name(o["ownOp"]?.stringValue)
        r.databaseFlags = number("dbFlags", 0...255).map { Int($0) }
        // alt_baro is a number or "ground"; older forks say "altitude".
        let altitude = o["alt_baro"] ?? o["altitude"]
        if altitude?.stringValue == "ground" {
            r.onGround = true
        } else {
            r.altitudeFeet = Plausible.altitude(altitude?.doubleValue)
        }
        r.groundSpeedKnots = number("gs", Plausible.groundSpeedKnots) ?? number("speed", Plausible.groundSpeedKnots)
        r.trackDegrees = number("track", Plausible.trackDegrees) ?? number("calc_track", Plausible.trackDegrees)
        r.verticalRateFeetPerMinute = number("baro_rate", Plausible.verticalRate) ?? number("geom_rate", Plausible.verticalRate)
            ?? number("vert_rate", Plausible.verticalRate)
        if let e = Plausible.identifier(o["emergency"]?.stringValue, length: 12), e != "NONE" { r.emergency = e.lowercased() }
        if let lat = number("lat", -90...90), let lon = number("lon", -180...180) {
            r.latitude = lat
            r.longitude = lon
            r.positionAge = number("seen_pos", Plausible.ageSeconds) ?? 0
        }
        r.age = number("seen", Plausible.ageSeconds)
        r.squawk = Plausible.squawk(o["squawk"]?.stringValue)
        return r
    }
}
