import HTTPClient
import SystemIO

/// What a web server's answer means for a feed, and how long to leave it
/// alone after one that is not data: the politeness aggregators ask for
/// (adsb.fi bans clients that ignore 429s) and the patience a local receiver
/// that is restarting deserves. Pure, so every rule is tested without a server.
public enum HTTPAnswerPolicy {
    /// An answer is data to parse, or a refusal to wait out.
    public enum Verdict: Equatable, Sendable {
        case data
        /// One stable line; `wait` seconds before the next request (nil: the backoff).
        case refused(String, wait: Double?)
    }

    /// How long a 401 or 403 is taken to last: a key or a ban is not lifted
    /// in a second, and asking again at once is what gets a client banned.
    public static let refusedWait = 600.0
    /// The longest Retry-After obeyed (a server asking for days is taken as an hour).
    public static let longestRetryAfter = 3600.0
    /// The longest backoff after ordinary failures.
    public static let longestBackoff = 60.0

    public static func verdict(on answer: HTTPTransfer.Answer) -> Verdict {
        switch answer.status {
        case 200:
            // A captive portal, a router's login page or a proxy's error page
            // arrives as 200: it is a refusal, never aircraft.
            let firstByte = answer.body.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
            if answer.contentType?.contains("html") == true || firstByte == UInt8(ascii: "<") {
                return .refused("answered with a web page, not aircraft.json", wait: nil)
            }
            return .data
        case 429:
            return .refused("HTTP 429: the server asks for fewer requests", wait: answer.retryAfter.map { min($0, longestRetryAfter) })
        case 401, 403:
            return .refused("HTTP \(answer.status): access refused; next try in \(Int(refusedWait / 60)) minutes", wait: refusedWait)
        default:
            return .refused("HTTP \(answer.status)", wait: nil)
        }
    }

    /// Seconds before the next request after `failuresInARow` failures:
    /// the interval (at least 2 s) doubled for each failure after the first,
    /// up to a minute.
    public static func backoff(interval: Double, failuresInARow: Int) -> Double {
        let retry = backoff(interval: interval)
        return Backoff.delay(first: retry.first, longest: retry.longest, failuresInARow: failuresInARow)
    }

    /// The backoff for a feed polled every `interval` seconds.
    public static func backoff(interval: Double) -> Backoff {
        let first = max(interval, 2)
        return Backoff(first: first, longest: max(longestBackoff, first))
    }

    /// Whether the calendar can be trusted to check a certificate: a board
    /// without a real-time clock starts in 1970 (or at its last shutdown's
    /// time saved by fake-hwclock, which is after this), and every
    /// certificate would look not yet valid.
    public static func clockIsSet(_ secondsSinceEpoch: Double) -> Bool {
        secondsSinceEpoch >= 1_735_689_600 // 2025-01-01
    }
}
