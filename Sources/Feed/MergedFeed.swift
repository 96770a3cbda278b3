import SystemIO

/// Several live sources as one: a 1090 MHz and a 978 MHz receiver, or a
/// receiver with a blind side and an aggregator to fill it. Each source keeps
/// its own connection, timing and failures; their aircraft are merged by
/// address (`merge`). A source that fails is one line and its aircraft leave
/// the picture while the others carry on; only when every source is failing
/// does the kiosk hear of a failure.
public final class MergedFeed: FeedSource {
    /// One source and what the merge knows of it.
    public struct Member {
        public let source: any FeedSource
        /// Whether its positions arrive late (an aggregator): a local
        /// receiver's position of the same aircraft is preferred.
        public let isDelayed: Bool

        public init(_ source: any FeedSource, isDelayed: Bool) {
            self.source = source
            self.isDelayed = isDelayed
        }
    }

    public let members: [Member]
    public let name: String
    private var latest: [Part?]
    private var failing: [String?]

    /// A source's last snapshot and when (loop time) it came.
    public struct Part {
        public var snapshot: AircraftSnapshot
        public var receivedAt: Double
        public var isDelayed: Bool

        public init(snapshot: AircraftSnapshot, receivedAt: Double, isDelayed: Bool) {
            self.snapshot = snapshot
            self.receivedAt = receivedAt
            self.isDelayed = isDelayed
        }
    }

    /// How much older than it says a delayed source's position is taken to
    /// be: aggregators answer with positions some seconds old and are asked
    /// every few seconds.
    public static let delayPenalty = 5.0

    public init(_ members: [Member]) {
        self.members = members
        name = members.map(\.source.name).joined(separator: ", ")
        latest = Array(repeating: nil, count: members.count)
        failing = Array(repeating: nil, count: members.count)
    }

    /// Which sources are working now (a snapshot and no failure since).
    public var liveSources: [String] {
        statuses.filter(\.isLive).map(\.name)
    }

    /// Each source and whether it is working now.
    public var statuses: [FeedSourceStatus] {
        members.indices.map { FeedSourceStatus(name: members[$0].source.name, isLive: latest[$0] != nil && failing[$0] == nil) }
    }

    public func forEachDescriptor(_ body: (Int32) -> Void) {
        for member in members { member.source.forEachDescriptor(body) }
    }

    public func forEachWritableDescriptor(_ body: (Int32) -> Void) {
        for member in members { member.source.forEachWritableDescriptor(body) }
    }

    public var nextWake: Double? {
        members.compactMap(\.source.nextWake).min()
    }

    /// Services every source (each reads without blocking, so one that has
    /// nothing ready returns nothing) and merges what they hand out.
    public func service(now: Double) -> [FeedEvent] {
        var changed = false
        var failures: [String] = []
        for (i, member) in members.enumerated() {
            for event in member.source.service(now: now) {
                switch event {
                case let .snapshot(snapshot):
                    if failing[i] != nil { Log.line("radar-kiosk: feed \(member.source.name) is back") }
                    failing[i] = nil
                    latest[i] = Part(snapshot: snapshot, receivedAt: now, isDelayed: member.isDelayed)
                    changed = true
                case let .failed(message):
                    failing[i] = message
                    if latest[i] != nil { latest[i] = nil; changed = true }
                    failures.append(message)
                }
            }
        }
        // Every source failing: the kiosk's own handling (last picture, then STANDBY).
        if failing.allSatisfy({ $0 != nil }) { return failures.map { .failed($0) } }
        for message in failures { Log.line("radar-kiosk: feed \(message); the other feeds carry on") }
        guard changed else { return [] }
        return [.snapshot(Self.merge(latest.compactMap { $0 }, at: now))]
    }

    /// The aircraft of every part, one per address: the freshest position
    /// wins (a delayed source's counted `delayPenalty` older), and what the
    /// winner lacks (callsign, type, registration, speed, …) comes from any
    /// other. Ages are as of `now`, counting how long ago each part came.
    /// The snapshot's receiver time is the latest any part gave, so it stands
    /// still only when every source does.
    public static func merge(_ parts: [Part], at now: Double) -> AircraftSnapshot {
        var order: [String] = []
        var candidates: [String: [(report: AircraftReport, rank: Double)]] = [:]
        for part in parts {
            let waited = max(0, now - part.receivedAt)
            for var report in part.snapshot.aircraft {
                report.positionAge = report.positionAge.map { $0 + waited }
                report.age = report.age.map { $0 + waited }
                let rank = (report.positionAge ?? .infinity) + (part.isDelayed ? delayPenalty : 0)
                if candidates[report.hex] == nil { order.append(report.hex) }
                candidates[report.hex, default: []].append((report, rank))
            }
        }
        let aircraft = order.map { hex -> AircraftReport in
            let ranked = candidates[hex]!.sorted { $0.rank < $1.rank }
            var best = ranked[0].report
            for other in ranked.dropFirst() { best.fillGaps(from: other.report) }
            return best
        }
        return AircraftSnapshot(now: parts.map(\.snapshot.now).max() ?? 0, aircraft: aircraft)
    }
}

extension AircraftReport {
    /// Takes what this report does not say from `other` (never its position).
    mutating func fillGaps(from other: AircraftReport) {
        callsign = callsign ?? other.callsign
        registration = registration ?? other.registration
        typeCode = typeCode ?? other.typeCode
        category = category ?? other.category
        typeDescription = typeDescription ?? other.typeDescription
        owner = owner ?? other.owner
        databaseFlags = databaseFlags ?? other.databaseFlags
        squawk = squawk ?? other.squawk
        emergency = emergency ?? other.emergency
        groundSpeedKnots = groundSpeedKnots ?? other.groundSpeedKnots
        trackDegrees = trackDegrees ?? other.trackDegrees
        verticalRateFeetPerMinute = verticalRateFeetPerMinute ?? other.verticalRateFeetPerMinute
        if altitudeFeet == nil && !onGround {
            altitudeFeet = other.altitudeFeet
            onGround = other.onGround
        }
    }
}
