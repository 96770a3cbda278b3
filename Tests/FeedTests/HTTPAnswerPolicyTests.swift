import Testing
import Feed
import HTTPClient

/// What a web server's answer means for a feed: data only when it is data,
/// and the waits that keep an aggregator from banning the kiosk.
@Suite struct HTTPAnswerPolicyTests {
    func answer(_ status: Int, _ type: String? = "application/json", retryAfter: Double? = nil, _ body: String = "{}") -> HTTPTransfer.Answer {
        HTTPTransfer.Answer(status: status, contentType: type, retryAfter: retryAfter, body: Array(body.utf8))
    }

    @Test func aircraftJSONIsDataAndAWebPageIsNot() {
        #expect(HTTPAnswerPolicy.verdict(on: answer(200)) == .data)
        #expect(HTTPAnswerPolicy.verdict(on: answer(200, nil)) == .data, "a server that names no type")
        #expect(HTTPAnswerPolicy.verdict(on: answer(200, "text/plain")) == .data, "a receiver's web server without a JSON type")
        let page = HTTPAnswerPolicy.Verdict.refused("answered with a web page, not aircraft.json", wait: nil)
        #expect(HTTPAnswerPolicy.verdict(on: answer(200, "text/html", "<html>login</html>")) == page)
        #expect(HTTPAnswerPolicy.verdict(on: answer(200, "application/json", "\r\n  <!DOCTYPE html>")) == page, "a portal that says JSON")
        #expect(HTTPAnswerPolicy.verdict(on: answer(200, "application/xhtml+xml")) == page)
    }

    @Test func refusalsAreWaitedOut() {
        #expect(HTTPAnswerPolicy.verdict(on: answer(429, retryAfter: 7)) == .refused("HTTP 429: the server asks for fewer requests", wait: 7))
        #expect(HTTPAnswerPolicy.verdict(on: answer(429)) == .refused("HTTP 429: the server asks for fewer requests", wait: nil))
        #expect(HTTPAnswerPolicy.verdict(on: answer(429, retryAfter: 86_400)) == .refused("HTTP 429: the server asks for fewer requests", wait: 3600))
        #expect(HTTPAnswerPolicy.verdict(on: answer(403)) == .refused("HTTP 403: access refused; next try in 10 minutes", wait: 600))
        #expect(HTTPAnswerPolicy.verdict(on: answer(401)) == .refused("HTTP 401: access refused; next try in 10 minutes", wait: 600))
        #expect(HTTPAnswerPolicy.verdict(on: answer(404)) == .refused("HTTP 404", wait: nil))
        #expect(HTTPAnswerPolicy.verdict(on: answer(503)) == .refused("HTTP 503", wait: nil))
    }

    @Test func failuresBackOffToAMinute() {
        let waits = (1...9).map { HTTPAnswerPolicy.backoff(interval: 1, failuresInARow: $0) }
        #expect(waits == [2, 4, 8, 16, 32, 60, 60, 60, 60])
        #expect(HTTPAnswerPolicy.backoff(interval: 5, failuresInARow: 1) == 5)
        #expect(HTTPAnswerPolicy.backoff(interval: 120, failuresInARow: 3) == 120, "never faster than the interval asked for")
        #expect(HTTPAnswerPolicy.backoff(interval: 1, failuresInARow: 10_000) == 60)
    }

    @Test func aClockStillIn1970IsNotSet() {
        #expect(!HTTPAnswerPolicy.clockIsSet(0))
        #expect(!HTTPAnswerPolicy.clockIsSet(1_600_000_000), "2020: a board's last saved time from an old image")
        #expect(HTTPAnswerPolicy.clockIsSet(1_796_300_000), "late 2026")
    }
}
