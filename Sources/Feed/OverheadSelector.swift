/// Decides which aircraft, if any, is overhead: fresh position, within the
/// radius, below the ceiling, airborne unless ground traffic is wanted, not
/// ignored; the closest is shown first. Entering and leaving use different
/// radii and a hold time, so an aircraft at the edge does not flap the
/// layout. With several overhead at once, each is shown in turn for
/// `cycleSeconds`, in the order they came (`place` says which of how many).
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
        /// With several overhead, each is shown this long before the next
        /// (0: the closest stays, and a clearly closer one takes over).
        public var cycleSeconds: Double = 8

        public init(station: GeoPoint) { self.station = station }
    }

    /// The aircraft chosen, with where it is from the station.
    public struct Choice: Equatable, Sendable {
        public var report: AircraftReport
        public var distanceNM: Double
        public var bearingDegrees: Double
    }

    /// Which of the aircraft overhead is shown: the `index`th (from 1) of `count`, in the order they came.
    public struct Place: Equatable, Sendable {
        public var index: Int
        public var count: Int
        public init(index: Int, count: Int) {
            self.index = index
            self.count = count
        }
    }

    public var settings: Settings
    private var current: Choice?
    private var lostAt: Double?
    /// The addresses of the aircraft overhead, in the order they came.
    private var overhead: [String] = []
    /// When the shown aircraft's turn began.
    private var shownSince = 0.0

    /// When the held aircraft's hold runs out, if one is being held: the caller
    /// re-evaluates then even if no new snapshot has come.
    public var holdExpires: Double? { lostAt.map { $0 + settings.holdSeconds } }

    /// When the shown aircraft stopped qualifying, while it is held.
    public var heldSince: Double? { lostAt }

    /// When the next aircraft overhead takes its turn, while several are.
    public var turnEnds: Double? {
        guard settings.cycleSeconds > 0, overhead.count > 1, current != nil, lostAt == nil else { return nil }
        return shownSince + settings.cycleSeconds
    }

    /// The shown aircraft's place among several overhead; nil with one or none.
    public var place: Place? {
        guard overhead.count > 1, let hex = current?.report.hex, let i = overhead.firstIndex(of: hex) else { return nil }
        return Place(index: i + 1, count: overhead.count)
    }

    /// Gives the next aircraft overhead its turn now (a tap on the card);
    /// false with fewer than two overhead. The next `update` shows it.
    public mutating func advance(at time: Double) -> Bool {
        guard overhead.count > 1, let hex = current?.report.hex, let i = overhead.firstIndex(of: hex) else { return false }
        pendingTurn = overhead[(i + 1) % overhead.count]
        shownSince = time
        return true
    }
    /// The address `advance` chose, shown by the next `update`.
    private var pendingTurn: String?

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
        // Overhead: those within the entry radius, and those already overhead
        // still within the exit radius; newcomers join the end of the round.
        // Sets, not scans: a hostile or very busy feed can put thousands inside the radius.
        let inner = candidates(in: snapshot, radius: settings.radiusNM)
        let innerAddresses = Set(inner.map(\.report.hex)), wasOverhead = Set(overhead)
        let members = candidates(in: snapshot, radius: settings.exitRadiusNM).filter { c in
            wasOverhead.contains(c.report.hex) || innerAddresses.contains(c.report.hex)
        }
        let memberAddresses = Set(members.map(\.report.hex))
        overhead = overhead.filter { memberAddresses.contains($0) } + members.map(\.report.hex).filter { !wasOverhead.contains($0) }
        defer { pendingTurn = nil }
        if let hex = pendingTurn, let next = members.first(where: { $0.report.hex == hex }) {
            current = next
            lostAt = nil
            return current
        }
        // The one already shown keeps its place while within the exit radius.
        if let shown = current, let still = members.first(where: { $0.report.hex == shown.report.hex }) {
            current = still
            lostAt = nil
            if settings.cycleSeconds > 0 {
                // Its turn over, the next overhead has one.
                if overhead.count > 1, time - shownSince >= settings.cycleSeconds, let i = overhead.firstIndex(of: still.report.hex),
                   let next = members.first(where: { $0.report.hex == overhead[(i + 1) % overhead.count] }) {
                    current = next
                    shownSince = time
                }
            } else if let closest = inner.first, closest.report.hex != still.report.hex, closest.distanceNM < still.distanceNM * 0.8 {
                // A clearly closer aircraft inside the entry radius takes over.
                current = closest
            }
            return current
        }
        if let next = members.first {
            current = next
            lostAt = nil
            shownSince = time
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
