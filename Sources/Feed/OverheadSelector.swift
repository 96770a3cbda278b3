/// Decides which aircraft, if any, is overhead: fresh position, within the
/// radius, below the ceiling, airborne unless ground traffic is wanted, not
/// ignored; the closest wins. Entering and leaving use different radii and a
/// hold time, so an aircraft at the edge does not flap the layout.
public struct OverheadSelector: Sendable {
    public struct Settings: Equatable, Sendable {
        public var station: GeoPoint
        public var radiusNM: Double = 3
        /// The aircraft shown stays until it is beyond this radius.
        public var exitRadiusNM: Double = 3.5
        public var ceilingFeet: Int = 10_000
        public var maximumPositionAge: Double = 60
        public var includeGround = false
        /// After the shown aircraft stops qualifying, keep it this long.
        public var holdSeconds: Double = 8
        /// Hex addresses or callsigns never shown (case-insensitive).
        public var ignore: Set<String> = []

        public init(station: GeoPoint) { self.station = station }
    }

    /// The aircraft chosen, with where it is from the station.
    public struct Choice: Equatable, Sendable {
        public var report: AircraftReport
        public var distanceNM: Double
        public var bearingDegrees: Double
    }

    public var settings: Settings
    private var current: Choice?
    private var lostAt: Double?

    /// When the held aircraft's hold runs out, if one is being held: the caller
    /// re-evaluates then even if no new snapshot has come.
    public var holdExpires: Double? { lostAt.map { $0 + settings.holdSeconds } }

    public init(settings: Settings) { self.settings = settings }

    /// Aircraft that qualify at `radius`, closest first.
    public func candidates(in snapshot: AircraftSnapshot, radius: Double) -> [Choice] {
        snapshot.aircraft.compactMap { r -> Choice? in
            guard let lat = r.latitude, let lon = r.longitude, (r.positionAge ?? 0) <= settings.maximumPositionAge else { return nil }
            if settings.ignore.contains(r.hex.lowercased()) || r.callsign.map({ settings.ignore.contains($0.lowercased()) }) == true { return nil }
            if r.onGround {
                guard settings.includeGround else { return nil }
            } else {
                guard let alt = r.altitudeFeet, alt <= settings.ceilingFeet else { return nil }
            }
            let p = GeoPoint(latitude: lat, longitude: lon)
            let d = settings.station.distanceNM(to: p)
            guard d <= radius else { return nil }
            return Choice(report: r, distanceNM: d, bearingDegrees: settings.station.bearing(to: p))
        }.sorted { $0.distanceNM < $1.distanceNM }
    }

    /// The aircraft to show after `snapshot` arrived at `time` (seconds, any clock).
    public mutating func update(_ snapshot: AircraftSnapshot, at time: Double) -> Choice? {
        // The one already shown keeps its place while within the exit radius.
        if let shown = current,
           let still = candidates(in: snapshot, radius: settings.exitRadiusNM).first(where: { $0.report.hex == shown.report.hex }) {
            current = still
            lostAt = nil
            // A clearly closer aircraft inside the entry radius takes over.
            if let closest = candidates(in: snapshot, radius: settings.radiusNM).first,
               closest.report.hex != still.report.hex, closest.distanceNM < still.distanceNM * 0.8 {
                current = closest
            }
            return current
        }
        if let next = candidates(in: snapshot, radius: settings.radiusNM).first {
            current = next
            lostAt = nil
            return current
        }
        if current != nil {
            let since = lostAt ?? time
            lostAt = since
            if time - since < settings.holdSeconds { return current }
        }
        current = nil
        lostAt = nil
        return nil
    }
}
