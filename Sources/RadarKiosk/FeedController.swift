import Feed

/// Turns a live source's snapshots into kiosk states: the overhead choice
/// becomes OVERFLIGHT with its card; none becomes STANDBY; a source that went
/// away becomes STANDBY with a small note, logged once, while it retries.
public final class FeedController {
    public let source: FeedSource
    public var selector: OverheadSelector
    /// Callsign → route, from an optional local file.
    public var routes: [String: String] = [:]
    public private(set) var note: String?
    private var lastSnapshot: AircraftSnapshot?

    /// When the loop must call `reevaluate` though no snapshot came (a hold running out).
    public var deadline: Double? { selector.holdExpires }

    /// Re-applies the last snapshot at `now` (a hold may have run out).
    public func reevaluate(now: Double, log: (String) -> Void) -> KioskState? {
        guard let snapshot = lastSnapshot, note == nil else { return nil }
        return state(after: [.snapshot(snapshot)], now: now, log: log)
    }

    public init(source: FeedSource, selector: OverheadSelector) {
        self.source = source
        self.selector = selector
    }

    /// The state after `events`, or nil when nothing changed for the kiosk.
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
                if note != nil { log("radar-kiosk: feed \(source.name) is back") }
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

    static func aircraft(_ choice: OverheadSelector.Choice, routes: [String: String]) -> Aircraft {
        let r = choice.report
        return Aircraft(callsign: String(r.displayName.prefix(12)), type: r.typeCode, route: r.callsign.flatMap { routes[$0] },
                        altitudeFeet: r.onGround ? nil : r.altitudeFeet, onGround: r.onGround,
                        groundSpeedKnots: r.groundSpeedKnots.map { Int($0.rounded()) },
                        distanceNM: (choice.distanceNM * 10).rounded() / 10, bearingDegrees: choice.bearingDegrees.rounded())
    }
}
