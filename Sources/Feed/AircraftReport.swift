/// One aircraft as a receiver reports it. Every field but the address may be
/// missing; the parsers never fail on a missing or unknown key.
public struct AircraftReport: Equatable, Sendable {
    /// 24-bit ICAO address, lowercase hex; a leading "~" marks a non-ICAO address.
    public var hex: String
    /// Callsign with its padding trimmed; nil when blank.
    public var callsign: String?
    public var registration: String?
    /// ICAO type code (readsb's database `t`), when the receiver knows it.
    public var typeCode: String?
    public var category: String?
    /// The type's description from the receiver's database (readsb's `desc`).
    public var typeDescription: String?
    /// The owner or operator from the receiver's database (readsb's `ownOp`).
    public var owner: String?
    /// Pressure altitude in feet; nil when unknown or on the ground.
    public var altitudeFeet: Int?
    public var onGround: Bool
    public var groundSpeedKnots: Double?
    public var trackDegrees: Double?
    /// Climb (positive) or descent rate in feet per minute, barometric when known.
    public var verticalRateFeetPerMinute: Double?
    /// The emergency the aircraft declares (readsb's `emergency`, SBS's flag), nil for none.
    public var emergency: String?
    /// readsb's database flags: 1 military, 2 interesting, 4 PIA, 8 LADD.
    public var databaseFlags: Int?

    /// Whether readsb's database marks it military.
    public var isMilitary: Bool { (databaseFlags ?? 0) & 1 != 0 }
    public var latitude: Double?
    public var longitude: Double?
    /// Seconds before the snapshot's time that the position was updated.
    public var positionAge: Double?
    /// Seconds before the snapshot's time of the last message of any kind.
    public var age: Double?
    public var squawk: String?

    public init(hex: String) {
        self.hex = hex
        onGround = false
    }

    public var hasPosition: Bool { latitude != nil && longitude != nil }

    /// What the card calls it: callsign, else registration, else the address.
    public var displayName: String { callsign ?? registration ?? hex.uppercased() }
}

/// One aircraft.json file: the receiver's time and its aircraft.
public struct AircraftSnapshot: Equatable, Sendable {
    /// Seconds since the epoch when the receiver wrote the file (ages are relative to it).
    public var now: Double
    public var aircraft: [AircraftReport]

    public init(now: Double, aircraft: [AircraftReport]) {
        self.now = now
        self.aircraft = aircraft
    }
}
