import Feed

/// Turns a live source's events into kiosk states: the overhead choice
/// becomes OVERFLIGHT with its card; none becomes STANDBY. A failed read or a
/// torn file keeps the last good picture; only when the data is really stale
/// (no good snapshot for `staleAfter` seconds, or the receiver's own clock
/// in its snapshots standing still that long) does it become STANDBY with a
/// note, which the kiosk shows as NO DATA on a still dial, while the source retries. It reads no descriptor itself: the
/// app's feed source hands it the events.
public final class FeedInterpreter {
    public var selector: OverheadSelector
    /// Routes, airlines and types for the card.
    public var identity = AircraftIdentity()
    /// Emergencies, military and watched aircraft: shown first, from further away.
    public var alerts: AlertRules?
    /// The source's name, for log lines.
    public let sourceName: String
    public private(set) var note: String?
    private var lastSnapshot: AircraftSnapshot?
    /// Snapshots taken so far: the traffic is updated when it grows.
    public private(set) var snapshotCount = 0
    /// How long the last good picture stands when the feed fails or freezes.
    public var staleAfter = 15.0
    /// When a snapshot last brought news (its receiver time moved on).
    private var lastNews: Double?
    /// The failure being held, until the data goes stale.
    private var heldFailure: String?

    /// The passes of the aircraft shown lately, by address: when each card
    /// came up, how close it has come, and when it was last shown (entries
    /// not shown for `passMemory` seconds are dropped).
    private var passes: [String: (since: Double, closestNM: Double, lastShown: Double)] = [:]
    static let passMemory = 120.0

    /// Each source's status, when the source is several (a merged feed's own).
    public var memberStatuses: (() -> [FeedSourceStatus])?

    /// Whether good data is coming in: a snapshot taken, no failure held, not stale.
    public var isLive: Bool { note == nil && heldFailure == nil && snapshotCount > 0 }

    /// Each source and whether it is live, for `get` and MQTT.
    public var sourceStatuses: [FeedSourceStatus] {
        let statuses = memberStatuses?() ?? [FeedSourceStatus(name: sourceName, isLive: true)]
        // Gone to STANDBY: none is live, whatever a member last heard.
        return isLive ? statuses : statuses.map { FeedSourceStatus(name: $0.name, isLive: false) }
    }

    /// The note shown while the receiver is unavailable.
    public static let unavailableNote = "Receiver unavailable — retrying"

    public init(sourceName: String, selector: OverheadSelector) {
        self.sourceName = sourceName
        self.selector = selector
    }

    /// When the state must be worked out again though nothing came: a hold
    /// running out, the next aircraft overhead's turn, or the last good data going stale.
    public var deadline: Double? {
        guard note == nil else { return nil }
        return [selector.holdExpires, selector.turnEnds, lastNews.map { $0 + staleAfter }].compactMap { $0 }.min()
    }

    /// The next aircraft overhead's card at once (a tap on the card), nil
    /// unless several are overhead.
    public func advanceOverhead(now: Double) -> KioskState? {
        guard note == nil, let snapshot = lastSnapshot, selector.advance(at: now) else { return nil }
        return choose(snapshot, at: now)
    }

    /// Works the state out again at `now` (a hold may have run out, the data gone stale).
    public func reevaluate(now: Double, log: (String) -> Void) -> KioskState? {
        guard note == nil else { return nil }
        if let news = lastNews, now - news >= staleAfter { return unavailable(heldFailure ?? "\(sourceName): no new data for \(Int(staleAfter)) s", log: log) }
        guard let snapshot = lastSnapshot else { return nil }
        return choose(snapshot, at: now)
    }

    private func unavailable(_ message: String, log: (String) -> Void) -> KioskState {
        log("radar-kiosk: feed \(message); showing NO DATA and retrying")
        note = Self.unavailableNote
        heldFailure = nil
        return KioskState(mode: .standby, note: note)
    }

    /// The state after `events`, or nil when they change nothing for the kiosk.
    public func state(after events: [FeedEvent], now: Double, log: (String) -> Void) -> KioskState? {
        var result: KioskState?
        for event in events {
            switch event {
            case let .failed(message):
                if let news = lastNews, note == nil, now - news < staleAfter {
                    // One bad read: the last good picture stands until the data is stale.
                    log("radar-kiosk: feed \(message); keeping the last picture for up to \(Int(staleAfter)) s")
                    heldFailure = message
                } else if note == nil {
                    result = unavailable(message, log: log)
                } else {
                    log("radar-kiosk: feed \(message); still retrying")
                }
            case let .snapshot(snapshot):
                // A receiver whose snapshots stop moving on (readsb stopped, its file
                // left behind) is not news: ages that never grow would show the last
                // aircraft for ever.
                if snapshot.now != lastSnapshot?.now || lastNews == nil { lastNews = now }
                lastSnapshot = snapshot
                snapshotCount += 1
                if let news = lastNews, now - news >= staleAfter {
                    if note == nil { result = unavailable("\(sourceName): the receiver's data stopped changing", log: log) }
                    continue
                }
                if note != nil || heldFailure != nil { log("radar-kiosk: feed \(sourceName) is back") }
                note = nil
                heldFailure = nil
                result = choose(snapshot, at: now)
            }
        }
        return result
    }

    /// The state for a snapshot: the nearest alert within the alert radius and
    /// ceiling if there is one, else the overhead choice, else STANDBY.
    func choose(_ snapshot: AircraftSnapshot, at now: Double) -> KioskState {
        let choice = selector.update(snapshot, at: now)
        if let rules = alerts {
            var wide = selector
            wide.settings.ceilingFeet = max(rules.ceilingFeet, selector.settings.ceilingFeet)
            for candidate in wide.candidates(in: snapshot, radius: max(rules.radiusNM, selector.settings.radiusNM)) {
                let r = candidate.report
                let inMilitaryBlock = rules.military && r.databaseFlags == nil && identity.standingData?.isMilitary(address: r.hex) == true
                guard let label = rules.alert(for: r, inMilitaryBlock: inMilitaryBlock) else { continue }
                var aircraft = Self.aircraft(candidate, identity: identity)
                aircraft.alert = label
                return KioskState(mode: .overflight, aircraft: aircraft)
            }
        }
        guard let choice else { return .standby }
        var aircraft = Self.aircraft(choice, identity: identity)
        aircraft.passage = passage(of: choice, at: now)
        return KioskState(mode: .overflight, aircraft: aircraft, place: selector.place)
    }

    /// Follows the shown aircraft's pass; once it has left the zone (its card
    /// held), how long it was overhead and how close it came.
    private func passage(of choice: OverheadSelector.Choice, at now: Double) -> Passage? {
        passes = passes.filter { now - $0.value.lastShown <= Self.passMemory }
        let hex = choice.report.hex
        var pass = passes[hex] ?? (since: now, closestNM: choice.distanceNM, lastShown: now)
        if let held = selector.heldSince {
            passes[hex] = pass
            return Passage(overheadSeconds: min(max(held - pass.since, 0), Passage.durationRange.upperBound), closestNM: pass.closestNM)
        }
        pass.closestNM = min(pass.closestNM, choice.distanceNM)
        pass.lastShown = now
        passes[hex] = pass
        return nil
    }

    /// The traffic within `radius` at any height (fresh positions), nearest first.
    public func around(_ radius: Double) -> [OverheadSelector.Choice] {
        guard let snapshot = lastSnapshot else { return [] }
        return selector.around(in: snapshot, radius: radius)
    }

    /// The card for the aircraft with ICAO address `address` (a blip tapped on the dial), if its position is fresh.
    public func aircraft(address: String, within rangeNM: Double) -> Aircraft? {
        guard let snapshot = lastSnapshot else { return nil }
        return selector.around(in: snapshot, radius: rangeNM).first { $0.report.hex == address }.map { Self.aircraft($0, identity: identity) }
    }

    /// Aircraft the dial could show now (fresh positions within its range), nearest first.
    public func aircraftInRange(_ rangeNM: Double) -> [Aircraft] {
        guard let snapshot = lastSnapshot else { return [] }
        return selector.candidates(in: snapshot, radius: rangeNM).map { Self.aircraft($0, identity: identity) }
    }

    /// The card for a choice. Every number is checked on the way in: whatever
    /// a feed sent, what reaches the card is finite and in range, or unknown.
    static func aircraft(_ choice: OverheadSelector.Choice, identity: AircraftIdentity) -> Aircraft {
        let r = choice.report
        let known = identity.describe(r)
        var aircraft = Aircraft(callsign: String(r.displayName.prefix(12)), type: known.type, route: known.route, airline: known.airline,
                        model: known.model, journey: known.journey,
                        altitudeFeet: r.onGround ? nil : r.altitudeFeet.flatMap { Double($0).wholeNumber(in: Aircraft.altitudeRange) },
                        onGround: r.onGround,
                        groundSpeedKnots: r.groundSpeedKnots.flatMap { $0.wholeNumber(in: Aircraft.groundSpeedRange) },
                        distanceNM: choice.distanceNM.rounded(toTenthsIn: Aircraft.distanceRange),
                        bearingDegrees: choice.bearingDegrees.wholeNumber(in: 0...360).map { Double($0 % 360) },
                        verticalRateFeetPerMinute: r.verticalRateFeetPerMinute.flatMap { $0.wholeNumber(in: Aircraft.verticalRateRange) },
                        trackDegrees: r.onGround ? nil : r.trackDegrees.flatMap { $0.wholeNumber(in: 0...360) }.map { Double($0 % 360) })
        aircraft.registration = known.registration
        aircraft.country = known.country
        aircraft.countryCode = known.countryCode
        aircraft.squawk = r.squawk.flatMap(Aircraft.checkedSquawk)
        return aircraft
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
