import Feed

/// Where someone at the kiosk looks to see the aircraft on the card: which
/// way (a compass point, or ahead, left, right, behind you when the kiosk
/// knows which way its window faces) and how far above the horizon
/// ("NE · 34° up"). There is nothing to say of an aircraft below the
/// horizon, on the ground, or without a height and a bearing.
public struct WhereToLook: Equatable, Sendable {
    /// Which way to turn: "NE", or "ahead", "right", "behind you" against the facing.
    public var direction: String
    /// Degrees above the horizon, the Earth's curve counted.
    public var elevationDegrees: Double

    /// Where `aircraft` is seen from a station `stationElevationFeet` above
    /// sea level, its window facing `facing` (nil: say compass points).
    public init?(_ aircraft: Aircraft, facing: Double?, stationElevationFeet: Double) {
        guard !aircraft.onGround, let bearing = aircraft.bearingDegrees, let distance = aircraft.distanceNM,
              let altitude = aircraft.altitudeFeet,
              let elevation = GeoPoint.elevationAngle(distanceNM: distance, altitudeFeet: Double(altitude), observerFeet: stationElevationFeet)
        else { return nil }
        elevationDegrees = elevation
        direction = facing.map { Self.relativeWords[CompassPoint.eighth(of: bearing - $0)] } ?? CompassPoint.eightPointName(for: bearing)
    }

    /// The eight ways to turn from the window's view, clockwise from straight out.
    static let relativeWords = ["ahead", "ahead right", "right", "behind right", "behind you", "behind left", "left", "ahead left"]

    /// As the card says it: "NE · 34° up", "overhead" when nearly straight
    /// up, "on the horizon" under half a degree.
    public var text: String {
        let degrees = Int(elevationDegrees.rounded())
        return degrees >= 80 ? "overhead" : degrees == 0 ? "\(direction) · on the horizon" : "\(direction) · \(degrees)° up"
    }
}
