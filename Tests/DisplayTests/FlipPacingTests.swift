import XCTest
import Display

final class FlipPacingTests: XCTestCase {
    let period = 1 / 59.94

    /// A driver with a vblank, drawing that takes most of a period: every flip
    /// completes on the next vblank, just after its request. The rule that
    /// compared stamps with requests took this for a driver without vblank.
    func testFlipsOnEveryVblankAreVblankPaced() {
        var pacing = FlipPacing(refreshRate: 59.94)
        for k in 0..<300 { pacing.record(1000 + Double(k) * period) }
        XCTAssertFalse(pacing.completesImmediately)
        XCTAssertEqual(pacing.flips, 300)
        XCTAssertEqual(pacing.rate!, 59.94, accuracy: 0.01)
        XCTAssertEqual(pacing.medianInterval!, period, accuracy: 1e-6)
    }

    /// Now and then a frame is drawn too slowly and waits a vblank more: the
    /// rate drops, the pacing (the median interval) does not.
    func testMissedVblanksLowerTheRateButNotThePacing() {
        var pacing = FlipPacing(refreshRate: 59.94)
        var vblank = 0
        for k in 0..<300 {
            vblank += k % 10 == 9 ? 2 : 1
            pacing.record(1000 + Double(vblank) * period)
        }
        XCTAssertFalse(pacing.completesImmediately)
        XCTAssertEqual(pacing.medianInterval!, period, accuracy: 1e-6)
        XCTAssertEqual(pacing.rate!, 59.94 * 300 / 330, accuracy: 0.2)
        // Missed vblanks are still on the grid: every interval is one or two periods.
        XCTAssertEqual(pacing.shareOnVblankGrid!, 1, accuracy: 1e-9)
        XCTAssertEqual(pacing.shortestInterval!, period, accuracy: 1e-6)
        // One in ten of the last 256 is a missed vblank: the 99th percentile is two periods.
        XCTAssertEqual(pacing.percentile99Interval!, 2 * period, accuracy: 1e-6)
    }

    /// Two stalls in the last 256 intervals leave the 99th percentile at a
    /// period; four (over 1 %) bring it up to the stalls'.
    func testThe99thPercentileSeesStallsOverOnePercent() {
        for (stalls, expected) in [(2, period), (4, 5 * period)] {
            var pacing = FlipPacing(refreshRate: 59.94)
            var t = 1000.0
            for k in 0..<256 {
                t += k < stalls ? 5 * period : period
                pacing.record(t)
            }
            XCTAssertEqual(pacing.percentile99Interval!, expected, accuracy: 1e-6, "\(stalls) stalls")
        }
    }

    /// A timer at roughly the refresh is not vblank pacing: its intervals
    /// wander off the grid, which the share on the grid shows.
    func testIntervalsOffTheGridAreCounted() {
        var pacing = FlipPacing(refreshRate: 59.94)
        var t = 1000.0
        for k in 0..<200 {
            t += period * (k % 2 == 0 ? 1.5 : 1)
            pacing.record(t)
        }
        XCTAssertEqual(pacing.shareOnVblankGrid!, 0.5, accuracy: 0.01)
    }

    /// Without a vblank a flip completes as soon as it is asked for, so flips
    /// come as fast as frames are drawn: three in a row give it away.
    func testFlipsFasterThanTheRefreshMeanNoVblank() {
        var pacing = FlipPacing(refreshRate: 59.94)
        pacing.record(1000)
        pacing.record(1000.004)
        pacing.record(1000.008)
        XCTAssertFalse(pacing.completesImmediately, "two quick flips are not yet proof")
        pacing.record(1000.012)
        XCTAssertTrue(pacing.completesImmediately)
        // Then paced by the kiosk's timer at the refresh: still no vblank, paced at the period.
        for k in 1...100 { pacing.record(1000.012 + Double(k) * period) }
        XCTAssertTrue(pacing.completesImmediately)
        XCTAssertEqual(pacing.medianInterval!, period, accuracy: 1e-6)
    }

    /// A quick flip after an idle stretch, between slow ones, is not a pattern.
    func testQuickFlipsMustComeInARow() {
        var pacing = FlipPacing(refreshRate: 60)
        var t = 1000.0
        for _ in 0..<50 {
            t += 5            // idle: nothing moved
            pacing.record(t)
            t += 0.001        // one quick flip
            pacing.record(t)
            t += 1.0 / 60
            pacing.record(t)
        }
        XCTAssertFalse(pacing.completesImmediately)
    }

    func testNothingToSayBeforeTwoFlips() {
        var pacing = FlipPacing(refreshRate: 60)
        XCTAssertNil(pacing.rate)
        XCTAssertNil(pacing.medianInterval)
        pacing.record(5)
        XCTAssertNil(pacing.rate)
        XCTAssertNil(pacing.medianInterval)
    }
}
