import Feed

/// Turns a live source's events into kiosk states: the overhead choice
/// becomes OVERFLIGHT with its card; none becomes STANDBY; a source that went
/// away becomes STANDBY with a small note while it retries. It reads no
/// descriptor itself: the app's feed source hands it the events.
public final class FeedInterpreter {
    public var selector: OverheadSelector
    /// Callsign → route, from an optional local file.
    public var routes: [String: String] = [:]
    /// The source's name, for log lines.
    public let sourceName: String
    public private(set) var note: String?
    private var lastSnapshot: AircraftSnapshot?

    public init(sourceName: String, selector: OverheadSelector) {
        self.sourceName = sourceName
        self.selector = selector
    }

    /// When the state must be worked out again though no snapshot came (a hold running out).
    public var deadline: Double? { note == nil ? selector.holdExpires : nil }

    /// Re-applies the last snapshot at `now` (a hold may have run out).
    public func reevaluate(now: Double, log: (String) -> Void) -> KioskState? {
        guard let snapshot = lastSnapshot, note == nil else { return nil }
        return state(after: [.snapshot(snapshot)], now: now, log: log)
    }

    /// The state after `events`, or nil when they change nothing for the kiosk.
    public func state(after events: [FeedEvent], now: Double, log: (String) -> Void) -> KioskState? {
        var result: KioskState?
        for event in events {
            switch event {
            case let .failed(message):
                log("radar-kiosk: feed \(message); showing STANDBY and retrying")
                note = "Receiver unavailable — retrying"
                result = KioskState(mode: .standby, note: note)
            case let .snapshot(snapshot):
                lastSnapshot = snapshot
                if note != nil { log("radar-kiosk: feed \(sourceName) is back") }
                note = nil
                if let choice = selector.update(snapshot, at: now) {
                    result = KioskState(mode: .overflight, aircraft: Self.aircraft(choice, routes: routes))
                } else {
                    result = .standby
                }
            }
        }
        return result
    }

    /// Aircraft the dial could show now (fresh positions within its range), nearest first.
    public func aircraftInRange(_ rangeNM: Double) -> [Aircraft] {
        guard let snapshot = lastSnapshot else { return [] }
        return selector.candidates(in: snapshot, radius: rangeNM).map { Self.aircraft($0, routes: routes) }
    }

    /// The card for a choice. Every number is checked on the way in: whatever
    /// a feed sent, what reaches the card is finite and in range, or unknown.
    static func aircraft(_ choice: OverheadSelector.Choice, routes: [String: String]) -> Aircraft {
        let r = choice.report
        return Aircraft(callsign: String(r.displayName.prefix(12)), type: r.typeCode, route: r.callsign.flatMap { routes[$0] },
                        altitudeFeet: r.onGround ? nil : r.altitudeFeet.flatMap { Double($0).wholeNumber(in: Aircraft.altitudeRange) },
                        onGround: r.onGround,
                        groundSpeedKnots: r.groundSpeedKnots.flatMap { $0.wholeNumber(in: Aircraft.groundSpeedRange) },
                        distanceNM: choice.distanceNM.rounded(toTenthsIn: Aircraft.distanceRange),
                        bearingDegrees: choice.bearingDegrees.wholeNumber(in: 0...360).map { Double($0 % 360) })
    }
}

extension Double {
    /// The nearest whole number when finite and in `range`, else nil (never traps).
    func wholeNumber(in range: ClosedRange<Double>) -> Int? {
        guard isFinite, range.contains(self) else { return nil }
        return Int(rounded())
    }

    /// Rounded to tenths when finite and in `range`, else nil.
    func rounded(toTenthsIn range: ClosedRange<Double>) -> Double? {
        guard isFinite, range.contains(self) else { return nil }
        return (self * 10).rounded() / 10
    }
}
