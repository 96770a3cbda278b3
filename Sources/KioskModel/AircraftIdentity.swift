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

    /// What the card says of an aircraft beside its numbers, all optional: nothing is invented.
    public struct Description {
        public var type: String?, route: String?, airline: String?, model: String?, journey: Journey?
        /// Its registration, and the country its address block belongs to (name and ISO code).
        public var registration: String?, country: String?, countryCode: String?
    }

    /// The card's identity lines for a report.
    public func describe(_ r: AircraftReport) -> Description {
        let record = standingData?.aircraft(address: r.hex)
        let block = standingData?.addressBlock(address: r.hex)
        // The feed's own database first (readsb), then the receiver's installed
        // one (PiAware), then the standing data's sparse table.
        let type = r.typeCode ?? skyAware?.record(forAddress: r.hex)?.typeDesignator ?? record?.typeDesignator
        let model = type.flatMap { standingData?.aircraftType(designator: $0)?.name } ?? r.typeDescription
            ?? r.category.flatMap(Self.categoryName)
        var airline = r.owner
        if let callsign = r.callsign, let code = Self.airlineCode(callsign), let name = standingData?.airlineName(code: code) {
            airline = name
        }
        let route = route(for: r)
        let registration = (r.registration ?? skyAware?.record(forAddress: r.hex)?.registration ?? record?.registration)
            .flatMap { ShownText.problem($0, maximumLength: Aircraft.registrationLength) == nil ? $0 : nil }
        let country = block?.countryName.flatMap { ShownText.problem($0, maximumLength: Aircraft.nameLength) == nil ? $0 : nil }
        return Description(type: type, route: route?.text, airline: airline.map { String($0.prefix(Aircraft.nameLength)) },
                           model: model.map { String($0.prefix(Aircraft.nameLength)) }, journey: route?.journey,
                           registration: registration, country: country, countryCode: block?.countryCode)
    }

    /// The route the card shows: the user's, else the standing data's leg that
    /// fits where the aircraft is and where it is heading; nil when doubtful.
    /// A leg from the standing data comes with the journey along it (the
    /// user's routes name no airports the kiosk can place).
    func route(for r: AircraftReport) -> (text: String, journey: Journey?)? {
        guard let callsign = r.callsign else { return nil }
        if let mine = routes[callsign] { return (mine, nil) }
        guard let data = standingData, let route = data.route(forCallsign: callsign),
              let lat = r.latitude, let lon = r.longitude else { return nil }
        let position = GeoPoint(latitude: lat, longitude: lon)
        guard let leg = RouteCheck.plausibleLeg(of: route, position: position, trackDegrees: r.trackDegrees,
                                                groundSpeedKnots: r.groundSpeedKnots) else { return nil }
        let from = route.airports[leg], to = route.airports[leg + 1]
        var journey: Journey?
        if let place = RouteCheck.place(of: position, from: GeoPoint(latitude: from.position.latitude, longitude: from.position.longitude),
                                        to: GeoPoint(latitude: to.position.latitude, longitude: to.position.longitude)),
           Journey.distanceRange.contains(place.length) {
            let flown = min(max(place.alongTrack, 0), place.length)
            // The city is the data's text: shown only when it is what a card may draw.
            let city = to.city.flatMap { ShownText.problem($0, maximumLength: Journey.cityLength) == nil ? $0 : nil }
            journey = Journey(flownNM: flown, toGoNM: place.length - flown, destinationCity: city)
        }
        return ("\(from.shortName) → \(to.shortName)", journey)
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
