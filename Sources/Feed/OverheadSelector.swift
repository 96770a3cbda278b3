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
        /// Positions older than this are not believed. At 250 kt an aircraft
        /// moves 1 NM in 15 s; the position is also carried forward along its
        /// track for its age, so what is left is the error of that guess.
        public var maximumPositionAge: Double = 15
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
        aircraft(in: snapshot, radius: radius, ceilingFeet: settings.ceilingFeet)
    }

    /// Aircraft with a fresh position within `radius` at any height (the
    /// traffic on the dial), closest first; ignored ones and, unless
    /// included, those on the ground are left out.
    public func around(in snapshot: AircraftSnapshot, radius: Double) -> [Choice] {
        aircraft(in: snapshot, radius: radius, ceilingFeet: nil)
    }

    private func aircraft(in snapshot: AircraftSnapshot, radius: Double, ceilingFeet: Int?) -> [Choice] {
        snapshot.aircraft.compactMap { r -> Choice? in
            guard let lat = r.latitude, let lon = r.longitude, (r.positionAge ?? 0) <= settings.maximumPositionAge else { return nil }
            if settings.ignore.contains(r.hex.lowercased()) || r.callsign.map({ settings.ignore.contains($0.lowercased()) }) == true { return nil }
            if r.onGround {
                guard settings.includeGround else { return nil }
            } else if let ceilingFeet {
                guard let alt = r.altitudeFeet, alt <= ceilingFeet else { return nil }
            }
            let choice = seen(r, latitude: lat, longitude: lon)
            return choice.distanceNM <= radius ? choice : nil
        }.sorted { $0.distanceNM < $1.distanceNM }
    }

    /// The report as seen from the station, its position carried forward
    /// along its track for the position's age (readsb's seen_pos): a
    /// position 10 s old at 250 kt is 0.7 NM behind the aircraft.
    func seen(_ r: AircraftReport, latitude: Double, longitude: Double) -> Choice {
        var p = GeoPoint(latitude: latitude, longitude: longitude)
        if !r.onGround, let age = r.positionAge, age > 0, let speed = r.groundSpeedKnots, let track = r.trackDegrees {
            p = p.moved(bearing: track, distanceNM: speed * min(age, settings.maximumPositionAge) / 3600)
        }
        return Choice(report: r, distanceNM: settings.station.distanceNM(to: p), bearingDegrees: settings.station.bearing(to: p))
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
        // The hold is for flapping at the edge of the radius, and follows the
        // aircraft's live data meanwhile. An aircraft that has landed (when
        // ground traffic is not shown), lost its position or left the feed
        // goes at once.
        if let shown = current, let live = snapshot.aircraft.first(where: { $0.hex == shown.report.hex }),
           let lat = live.latitude, let lon = live.longitude, (live.positionAge ?? 0) <= settings.maximumPositionAge,
           !(live.onGround && !settings.includeGround) {
            let since = lostAt ?? time
            lostAt = since
            if time - since < settings.holdSeconds {
                current = seen(live, latitude: lat, longitude: lon)
                return current
            }
        }
        current = nil
        lostAt = nil
        return nil
    }
}
