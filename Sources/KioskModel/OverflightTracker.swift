import JSON

/// One overflight as the log keeps it: who, when, and how close and how high.
public struct Overflight: Equatable, Sendable {
    public var start: Double
    public var end: Double
    public var callsign: String
    public var type: String?
    public var route: String?
    public var airline: String?
    public var alert: String?
    public var closestNM: Double?
    public var lowestFeet: Int?
    public var highestFeet: Int?
    /// How long it was overhead, when it left the zone before its card went.
    public var overheadSeconds: Double?

    /// One JSON object on one line (the log's format).
    public var jsonLine: String {
        var o: [String: JSONValue] = ["start": .number(start.rounded()), "end": .number(end.rounded()), "callsign": .string(callsign)]
        if let type { o["type"] = .string(type) }
        if let route { o["route"] = .string(route) }
        if let airline { o["airline"] = .string(airline) }
        if let alert { o["alert"] = .string(alert) }
        if let closestNM { o["closest_nm"] = .number(closestNM) }
        if let lowestFeet { o["lowest_ft"] = .number(Double(lowestFeet)) }
        if let highestFeet { o["highest_ft"] = .number(Double(highestFeet)) }
        if let overheadSeconds { o["overhead_s"] = .number(overheadSeconds.rounded()) }
        return JSONValue.object(o).serialized
    }

    /// A line of the log; nil for one that is not ours (a torn last line, say).
    public init?(jsonLine: String) {
        guard let o = (try? JSONParser.parse(jsonLine))?.objectValue, let start = o["start"]?.doubleValue, start.isFinite,
              let end = o["end"]?.doubleValue, end.isFinite, let callsign = o["callsign"]?.stringValue else { return nil }
        self.init(start: start, end: end, callsign: callsign)
        type = o["type"]?.stringValue
        route = o["route"]?.stringValue
        airline = o["airline"]?.stringValue
        alert = o["alert"]?.stringValue
        closestNM = o["closest_nm"]?.doubleValue
        lowestFeet = o["lowest_ft"]?.doubleValue.map { Int($0) }
        highestFeet = o["highest_ft"]?.doubleValue.map { Int($0) }
        overheadSeconds = o["overhead_s"]?.doubleValue.flatMap { $0.isFinite ? $0 : nil }
    }

    public init(start: Double, end: Double, callsign: String) {
        self.start = start
        self.end = end
        self.callsign = callsign
    }
}

/// Follows the states the kiosk shows and cuts them into overflights: one
/// starts when an aircraft's card comes up and ends when another's does or
/// the kiosk returns to STANDBY. An overflight with no aircraft known (a key,
/// a GPIO line) is not logged: there is nothing to say about it.
public struct OverflightTracker: Sendable {
    private var current: Overflight?

    public init() {}

    /// Takes the state shown at wall-clock `time`; returns the overflight it ended, if any.
    public mutating func observe(_ state: KioskState, at time: Double) -> Overflight? {
        let aircraft = state.mode == .overflight ? state.aircraft : nil
        var finished: Overflight?
        if let shown = current, shown.callsign != aircraft?.callsign {
            finished = shown
            finished?.end = time
            current = nil
        }
        guard let a = aircraft else { return finished }
        var o = current ?? Overflight(start: time, end: time, callsign: a.callsign)
        o.end = time
        o.type = a.type ?? o.type
        o.route = a.route ?? o.route
        o.airline = a.airline ?? o.airline
        o.alert = a.alert ?? o.alert
        if let d = a.distanceNM { o.closestNM = min(o.closestNM ?? d, d) }
        if let passage = a.passage { o.overheadSeconds = passage.overheadSeconds }
        if let alt = a.altitudeFeet, !a.onGround {
            o.lowestFeet = min(o.lowestFeet ?? alt, alt)
            o.highestFeet = max(o.highestFeet ?? alt, alt)
        }
        current = o
        return finished
    }
}
