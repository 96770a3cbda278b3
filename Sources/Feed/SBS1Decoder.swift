import JSON
/// Rebuilds aircraft from SBS-1 BaseStation lines (TCP port 30003) in the
/// dialects seen in the wild: dump1090/readsb (all ids and times), Kinetic/VRS
/// style (constant ids), and early antirez dump1090 (no ids, no times).
/// Messages are timed by when they arrive, since the line's own times are
/// local time in some writers and UTC in others.
public struct SBS1Decoder {
    private var aircraft: [String: (report: AircraftReport, lastMessage: Double, lastPosition: Double?)] = [:]
    /// Aircraft silent for this long are dropped.
    public var expiry: Double = 300
    /// At most this many aircraft are kept (a receiver hears a few hundred);
    /// past it the ones heard from longest ago go, so a flood of made-up
    /// addresses cannot grow the table without bound.
    public var capacity = 4096
    public private(set) var linesAccepted = 0
    public private(set) var linesRejected = 0

    public init() {}

    /// Feeds one line received at `time` (monotonic seconds). Returns false for a
    /// line that is not an SBS message (it changes nothing).
    @discardableResult
    public mutating func feed(_ line: Substring, at time: Double) -> Bool {
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count >= 11, fields[0] == "MSG", let kind = Int(fields[1]), (1...8).contains(kind) else {
            linesRejected += 1
            return false
        }
        let hex = fields[4].trimmed().lowercased()
        guard hex.count >= 6, hex.count <= 7, hex.allSatisfy({ $0.isHexDigit || $0 == "~" }) else {
            linesRejected += 1
            return false
        }
        func field(_ i: Int) -> String? {
            guard i < fields.count else { return nil }
            let f = fields[i].trimmed()
            return f.isEmpty ? nil : f
        }
        if aircraft[hex] == nil && aircraft.count >= capacity { forgetOldest() }
        var entry = aircraft[hex] ?? (AircraftReport(hex: hex), time, nil)
        // "XXX" placeholders in some early writers are not callsigns.
        if let callsign = Plausible.identifier(field(10), length: 8), callsign != "XXX" { entry.report.callsign = callsign }
        func number(_ i: Int, _ range: ClosedRange<Double>) -> Double? { Plausible.number(field(i).flatMap(PlainNumber.parse), in: range) }
        if let feet = Plausible.altitude(field(11).flatMap(PlainNumber.parse)) { entry.report.altitudeFeet = feet }
        if let gs = number(12, Plausible.groundSpeedKnots) { entry.report.groundSpeedKnots = gs }
        if let track = number(13, Plausible.trackDegrees) { entry.report.trackDegrees = track }
        if let lat = number(14, -90...90), let lon = number(15, -180...180) {
            entry.report.latitude = lat
            entry.report.longitude = lon
            entry.lastPosition = time
        }
        if let rate = number(16, Plausible.verticalRate) { entry.report.verticalRateFeetPerMinute = rate }
        if let squawk = Plausible.squawk(field(17)) { entry.report.squawk = squawk }
        // Field 20 (index 19): the emergency flag, -1 (or 1) when set, on the messages that carry a squawk.
        if let flag = field(19) { entry.report.emergency = flag == "-1" || flag == "1" ? "emergency" : nil }
        if let ground = field(21) { entry.report.onGround = ground == "-1" || ground == "1" }
        entry.lastMessage = time
        aircraft[hex] = entry
        linesAccepted += 1
        return true
    }

    /// Drops the tenth of the table heard from longest ago.
    private mutating func forgetOldest() {
        let cut = aircraft.values.map(\.lastMessage).sorted()[max(aircraft.count / 10, 1) - 1]
        aircraft = aircraft.filter { $0.value.lastMessage > cut }
    }

    /// How many aircraft the table holds.
    public var count: Int { aircraft.count }

    /// The aircraft as a snapshot at `time`, ages filled in; stale ones dropped.
    public mutating func snapshot(at time: Double) -> AircraftSnapshot {
        aircraft = aircraft.filter { time - $0.value.lastMessage <= expiry }
        let reports = aircraft.values.map { entry -> AircraftReport in
            var r = entry.report
            r.age = time - entry.lastMessage
            r.positionAge = entry.lastPosition.map { time - $0 }
            if r.onGround { r.altitudeFeet = nil }
            return r
        }.sorted { $0.hex < $1.hex }
        return AircraftSnapshot(now: time, aircraft: reports)
    }
}


