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
        // The outer 450 rows (225 above the centre, 225 below) and the inner 630.
        let outer = split.band(0, width: 1920, mirrorSum: 1079), inner = split.band(1, width: 1920, mirrorSum: 1079)
        #expect(outer.rows == IntRect(x: 0, y: 0, width: 1920, height: 1080) && outer.skipped == 225..<855)
        #expect(inner.rows == IntRect(x: 0, y: 225, width: 1920, height: 630) && inner.skipped.isEmpty)
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
                    let rows = split.band(band, width: 1, mirrorSum: 700)
                    return (rows.rows.y..<rows.rows.maxY).reduce(0) { $0 + (rows.skipped.contains($1) ? 0 : cost($1)) } / 1e6
                }
                _ = Self.rebalanced(split, times)
            }
            let slowest = times.max()!, mean = times.reduce(0, +) / Double(count)
            #expect(slowest / mean < 1.05, "\(count) bands: times \(times)")
            #expect(split.ends.last == height)
        }
    }

    /// Cut by distance from the mirror: every row in one band exactly, and
    /// each row with its mirror row, wherever the mirror and the cuts are.
    @Test func eachRowIsOneBandsAndItsMirrorRowTheSameBands() {
        for count in [2, 3, 4] { for mirror in [-5, 0, 1, 301, 1079, 1080, 1500, 2157, 2158, 4000] {
            let split = BandSplit(count: count, height: 1080)
            for frame in 0..<3 {
                var owner = [Int](repeating: -1, count: 1080), twice: [Int] = []
                for band in 0..<count {
                    let (rows, skipped) = split.band(band, width: 8, mirrorSum: mirror)
                    #expect(rows.x == 0 && rows.width == 8)
                    #expect(skipped.isEmpty || (skipped.lowerBound >= rows.y && skipped.upperBound <= rows.maxY))
                    for y in rows.y..<rows.maxY where !skipped.contains(y) {
                        if owner[y] >= 0 { twice.append(y) }
                        owner[y] = band
                    }
                }
                #expect(twice.isEmpty && !owner.contains(-1), "\(count) bands about \(mirror): rows twice \(twice.prefix(4)), none \(owner.firstIndex(of: -1) ?? -1)")
                let m = min(max(mirror, 0), 2 * 1080 - 2)
                let apart = (0..<1080).filter { (y: Int) -> Bool in
                    let partner = m - y
                    return partner >= 0 && partner < 1080 && owner[y] != owner[partner]
                }
                #expect(apart.isEmpty, "\(count) bands about \(mirror): rows apart from their mirrors \(apart.prefix(4))")
                _ = Self.rebalanced(split, (0..<count).map { 0.001 * Double($0 + frame + 1) })
            }
        } }
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
