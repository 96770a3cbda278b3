import Raster
import Testing
@testable import KioskRendering

/// The cuts between a frame's bands follow the work: moved halfway towards
/// equal times each frame, never past a band's least rows, left alone by
/// times that mean nothing.
@Suite struct BandSplitTests {
    /// The split's cuts after `seconds` were measured for the frame just drawn.
    static func rebalanced(_ split: BandSplit, _ seconds: [Double]) -> [Int] {
        for (i, t) in seconds.enumerated() { split.note(i, seconds: t) }
        split.rebalance()
        return split.ends
    }

    @Test func theCutsMoveHalfwayTowardsEqualTimes() {
        let split = BandSplit(count: 2, height: 1080)
        #expect(split.ends == [540, 1080])
        // The top band took three times as long: a time per row three times the
        // bottom's, so equal times cut at row 360; halfway there is 450.
        #expect(Self.rebalanced(split, [0.003, 0.001]) == [450, 1080])
        #expect(split.rows(0, width: 1920) == IntRect(x: 0, y: 0, width: 1920, height: 450))
        #expect(split.rows(1, width: 1920) == IntRect(x: 0, y: 450, width: 1920, height: 630))
        // Equal times: the cuts stay.
        #expect(Self.rebalanced(split, [0.002, 0.002]) == [450, 1080])
    }

    /// Work spread unevenly down a frame (a heavy block where a card's text
    /// is): within sixteen frames the bands' times come within 5 % of each other.
    @Test func unevenWorkIsSharedOutEvenlyWithinAFewFrames() {
        let height = 1080
        func cost(_ row: Int) -> Double { (200..<420).contains(row) ? 5 : 1 }
        for count in [2, 3, 4] {
            let split = BandSplit(count: count, height: height)
            var times: [Double] = []
            for _ in 0..<16 {
                times = (0..<count).map { band in
                    let rows = split.rows(band, width: 1)
                    return (rows.y..<rows.maxY).reduce(0) { $0 + cost($1) } / 1e6
                }
                _ = Self.rebalanced(split, times)
            }
            let slowest = times.max()!, mean = times.reduce(0, +) / Double(count)
            #expect(slowest / mean < 1.05, "\(count) bands: times \(times)")
            #expect(split.ends.last == height)
        }
    }

    @Test func aBandKeepsAQuarterOfItsEvenShare() {
        let split = BandSplit(count: 2, height: 1080)
        for _ in 0..<20 { _ = Self.rebalanced(split, [0.010, 0]) }
        #expect(split.ends == [135, 1080], "1080 / 8 rows at least")
        for _ in 0..<20 { _ = Self.rebalanced(split, [0, 0.010]) }
        #expect(split.ends == [945, 1080])
    }

    @Test func timesThatMeanNothingLeaveTheCuts() {
        let split = BandSplit(count: 3, height: 480)
        for seconds in [[0, 0, 0], [.nan, 0.001, 0.001], [-0.001, 0.002, 0.001], [.infinity, 0.001, 0.001]] {
            #expect(Self.rebalanced(split, seconds) == [160, 320, 480], "\(seconds)")
        }
    }

    @Test func anotherHeightStartsFromEvenCuts() {
        let split = BandSplit(count: 2, height: 1080)
        _ = Self.rebalanced(split, [0.003, 0.001])
        split.fit(height: 1080)
        #expect(split.ends == [450, 1080], "the same height: kept")
        split.fit(height: 480)
        #expect(split.ends == [240, 480])
        #expect(BandSplit.even(2, of: 3, width: 800, height: 480) == IntRect(x: 0, y: 320, width: 800, height: 160))
    }
}
