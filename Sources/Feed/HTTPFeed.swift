import HTTPClient
import SystemIO

/// aircraft.json over HTTP or HTTPS (tar1090's .../data/aircraft.json,
/// SkyAware's /skyaware/data/aircraft.json, a receiver behind TLS), fetched
/// every `interval` seconds through `HTTPTransfer` (libcurl, driven by the
/// loop's poll; never blocking it), one request at a time, the body parsed on
/// a thread of its own. What a server's answer means, and how long to wait
/// after one that is not data, is `HTTPAnswerPolicy`'s.
public final class HTTPFeed: FeedSource {
    public let url: String
    /// What the log calls it: the URL, or a service's name (a query's URL
    /// carrying the station's coordinates says less than "adsb.lol").
    public let name: String
    public var interval = 1.0 {
        didSet {
            let policy = HTTPAnswerPolicy.backoff(interval: interval)
            (retry.first, retry.longest) = (policy.first, policy.longest)
        }
    }
    public var timeout: Double {
        get { transfer.timeout }
        set { transfer.timeout = newValue }
    }
    public var readBudget: Int {
        get { transfer.readBudget }
        set { transfer.readBudget = newValue }
    }
    public var maximumAnswer: Int {
        get { transfer.maximumAnswer }
        set { transfer.maximumAnswer = newValue }
    }
    /// The calendar, asked before each HTTPS request (a test sets its own).
    public var wallClock: () -> Double = WallClock.now
    private let transfer: HTTPTransfer
    private let isSecure: Bool
    private var stage = Stage.idle
    private var startedAt = 0.0
    private var retry = HTTPAnswerPolicy.backoff(interval: 1)
    private let parsing = BackgroundWork<Result<AircraftSnapshot, FeedError>>()
    private var failures = FailureReport()

    private enum Stage { case idle, fetching, parsing }

    /// The identifying User-Agent every request carries (services ask for one).
    public static let userAgent = "radar-kiosk/\(RadarKioskVersion.string) (overhead aircraft display)"

    /// How long a clock that is not set is waited on between looks (it is set
    /// by NTP at any moment; a look costs one clock_gettime). The setting
    /// itself wakes the feed at once (`clockChanges`); the look is for a
    /// kernel without timerfd's cancel-on-set.
    static let clockCheckInterval = 1.0
    /// While the feed waits for the clock: readable the moment it is set.
    private var clockChanges: WallClockChanges?

    /// A feed from `url` (http:// or https://), called `name` in the log;
    /// `caFile` is trusted instead of the system's certificate authorities.
    public init(url: String, name: String? = nil, caFile: String? = nil) {
        self.url = url
        self.name = name ?? url
        isSecure = url.hasPrefix("https://")
        transfer = HTTPTransfer(url: url, userAgent: Self.userAgent, caFile: caFile)
    }

    public func forEachDescriptor(_ body: (Int32) -> Void) {
        switch stage {
        case .idle: if let clockChanges { body(clockChanges.descriptor.rawValue) }
        case .fetching: transfer.forEachDescriptor(body)
        case .parsing: body(parsing.descriptor)
        }
    }

    public func forEachWritableDescriptor(_ body: (Int32) -> Void) {
        if stage == .fetching { transfer.forEachWritableDescriptor(body) }
    }

    public var nextWake: Double? {
        switch stage {
        case .idle: return retry.due
        // curl's own timer, and the whole exchange's limit in case curl forgets.
        case .fetching: return min(transfer.nextWake ?? .infinity, startedAt + timeout + 1)
        case .parsing: return startedAt + timeout + 10
        }
    }

    public func service(now: Double) -> [FeedEvent] {
        switch stage {
        case .idle:
            // The clock was just set: look again now, not at the next second.
            if let clockChanges, clockChanges.consume() { retry.due = now }
            guard retry.isDue(at: now) else { return [] }
            if isSecure && !HTTPAnswerPolicy.clockIsSet(wallClock()) {
                if clockChanges == nil { clockChanges = WallClockChanges() }
                retry.due = now + Self.clockCheckInterval
                let message = "\(name): clock not set; waiting for time sync before HTTPS"
                return failures.isNew(message) ? [.failed(message)] : []
            }
            clockChanges = nil
            startedAt = now
            stage = .fetching
            transfer.start(at: now)
            return fetched(transfer.service(now: now), now: now)
        case .fetching:
            if now > startedAt + timeout + 1 {
                transfer.cancel()
                return fail(now, "no answer within \(Int(timeout.rounded())) s", wait: nil)
            }
            return fetched(transfer.service(now: now), now: now)
        case .parsing:
            if let result = parsing.take() {
                stage = .idle
                retry.due = startedAt + interval
                switch result {
                case let .success(snapshot):
                    failures.clear()
                    retry.succeeded()
                    return [.snapshot(snapshot)]
                case let .failure(error):
                    return fail(now, error.description, wait: nil)
                }
            }
            if now - startedAt > timeout + 10 {
                parsing.abandon()
                return fail(now, "not parsed within \(Int(timeout + 10)) s", wait: nil)
            }
            return []
        }
    }

    private func fetched(_ outcome: HTTPTransfer.Outcome?, now: Double) -> [FeedEvent] {
        switch outcome {
        case nil:
            return []
        case let .failed(message):
            return fail(now, message, wait: nil)
        case let .answered(answer):
            switch HTTPAnswerPolicy.verdict(on: answer) {
            case let .refused(message, wait):
                return fail(now, message, wait: wait)
            case .data:
                let body = answer.body
                stage = .parsing
                parsing.start(at: now) {
                    do { return .success(try AircraftJSON.parse(body)) } catch { return .failure(FeedError("\(error)")) }
                }
                return []
            }
        }
    }

    /// One line per kind of failure, and the next try after `wait` (the
    /// server's word) or the policy's backoff.
    private func fail(_ now: Double, _ message: String, wait: Double?) -> [FeedEvent] {
        stage = .idle
        retry.failed(at: now, wait: wait)
        let line = "\(name): \(message)"
        return failures.isNew(line) ? [.failed(line)] : []
    }
}
