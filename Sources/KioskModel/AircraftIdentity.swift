import Feed
import StandingData

/// What the card says about who and what an aircraft is: its route, airline,
/// type and model, from the feed's own database fields, the user's routes file
/// and the standing data, on every feed (aircraft.json with or without
/// readsb's database, SBS-1).
public struct AircraftIdentity {
    /// Callsign → route, from the user's routes file: it wins over the standing data.
    public var routes: [String: String] = [:]
    /// The shipped routes, airlines and types; nil when not installed.
    public var standingData: StandingData?
    /// PiAware's own aircraft database, where dump1090-fa installed it.
    public var skyAware: SkyAwareDatabase?

    public init(routes: [String: String] = [:], standingData: StandingData? = nil) {
        self.routes = routes
        self.standingData = standingData
    }

    /// The card's identity lines for a report, all optional: nothing is invented.
    public func describe(_ r: AircraftReport) -> (type: String?, route: String?, airline: String?, model: String?) {
        let record = standingData?.aircraft(address: r.hex)
        // The feed's own database first (readsb), then the receiver's installed
        // one (PiAware), then the standing data's sparse table.
        let type = r.typeCode ?? skyAware?.record(forAddress: r.hex)?.typeDesignator ?? record?.typeDesignator
        let model = type.flatMap { standingData?.aircraftType(designator: $0)?.name } ?? r.typeDescription
            ?? r.category.flatMap(Self.categoryName)
        var airline = r.owner
        if let callsign = r.callsign, let code = Self.airlineCode(callsign), let name = standingData?.airlineName(code: code) {
            airline = name
        }
        return (type, route(for: r), airline.map { String($0.prefix(Aircraft.nameLength)) }, model.map { String($0.prefix(Aircraft.nameLength)) })
    }

    /// The route the card shows: the user's, else the standing data's leg that
    /// fits where the aircraft is and where it is heading; nil when doubtful.
    func route(for r: AircraftReport) -> String? {
        guard let callsign = r.callsign else { return nil }
        if let mine = routes[callsign] { return mine }
        guard let data = standingData, let route = data.route(forCallsign: callsign),
              let lat = r.latitude, let lon = r.longitude,
              let leg = RouteCheck.plausibleLeg(of: route, position: GeoPoint(latitude: lat, longitude: lon),
                                                trackDegrees: r.trackDegrees, groundSpeedKnots: r.groundSpeedKnots) else { return nil }
        return "\(route.airports[leg].shortName) → \(route.airports[leg + 1].shortName)"
    }

    /// The ICAO airline code a callsign starts with ("BAW" of "BAW283"), if it has that shape.
    static func airlineCode(_ callsign: String) -> String? {
        let u = Array(callsign.utf8)
        guard u.count >= 4, u[0...2].allSatisfy({ $0 >= 65 && $0 <= 90 }), u[3] >= 48 && u[3] <= 57 else { return nil }
        return String(decoding: u[0...2], as: UTF8.self)
    }

    /// What the ADS-B emitter category says it is, when nothing else is known.
    static func categoryName(_ category: String) -> String? {
        switch category {
        case "A1": return "Light aircraft"
        case "A2": return "Small aircraft"
        case "A3", "A4": return "Large aircraft"
        case "A5": return "Heavy aircraft"
        case "A6": return "High-performance aircraft"
        case "A7": return "Helicopter"
        case "B1": return "Glider"
        case "B2": return "Balloon or airship"
        case "B3": return "Parachutist"
        case "B4": return "Ultralight"
        case "B6": return "Drone"
        case "B7": return "Spacecraft"
        case "C1", "C2": return "Ground vehicle"
        default: return nil
        }
    }
}
