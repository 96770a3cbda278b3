import Raster
import SystemIO

/// Where a frame's rows are cut into bands, one per thread: evenly at first,
/// then, after every frame, moved towards the cuts that would have given each
/// thread the same work, judged from the CPU time each band took.
///
/// A frame's work is not spread evenly down it (the card's text, the sweep's
/// wedge), and the frame is done when its slowest band is. Which rows a band
/// holds never changes a pixel (every band draws the same render list through
/// a clip), so the cuts may move freely from frame to frame.
///
/// Bands may also pair rows about the dial's centre (`band(_:width:mirrorSum:)`):
/// the disc's rows below its centre are copied from their mirror rows above,
/// and a band that held the lower rows without the upper ones would work
/// them all out again (a sixth of the reference frame, on a second thread).
/// Cut by distance from the centre instead, each band holds both rows of
/// every pair it has: the outermost band the top and bottom of the frame, the
/// innermost the rows about the centre, each between as two parts with the
/// next band's rows between them.
public final class BandSplit {
    /// How many bands.
    public let count: Int
    /// The height the cuts are for; another height starts again from even cuts.
    public private(set) var height: Int
    /// `ends[i]`: the first position past band `i`, positions counted from
    /// the frame's outermost rows in (the last band's end is the height).
    private(set) var ends: [Int]
    /// The cuts of the frame just measured, while the new ones are worked out.
    private var previousEnds: [Int]
    /// Each band's CPU time in the last frame, a slot per band written by the
    /// band's own thread (raw memory: no array is shared between threads).
    private let seconds: UnsafeMutablePointer<Double>

    public init(count: Int, height: Int) {
        precondition(count >= 1, "at least one band")
        self.count = count
        self.height = height
        ends = (0..<count).map { Self.even($0, of: count, width: 0, height: height).maxY }
        previousEnds = ends
        seconds = .allocate(capacity: count)
        seconds.initialize(repeating: 0, count: count)
    }

    deinit { seconds.deallocate() }

    /// Band `index` of `count` with the frame's height shared out evenly, top to bottom.
    static func even(_ index: Int, of count: Int, width: Int, height: Int) -> IntRect {
        let top = height * index / count, bottom = height * (index + 1) / count
        return IntRect(x: 0, y: top, width: width, height: bottom - top)
    }

    /// Band `index` as the cuts stand, positions counted from the frame's
    /// outermost rows in: the rows from the outermost of its part above the
    /// centre to the outermost of its part below (`rows`), less the inner
    /// bands' rows between (`skipped`). Rows r and `mirrorSum` - r are one
    /// band's (the disc's mirror rows, `GradientPainter`).
    public func band(_ index: Int, width: Int, mirrorSum: Int) -> (rows: IntRect, skipped: Range<Int>) {
        // The mirror between the frame's first and last rows, so that every distance is a row's.
        let m = min(max(mirrorSum, 0), 2 * height - 2)
        let outer = index == 0 ? Int.max : Self.distance(holdingOutermost: ends[index - 1], mirrorSum: m, height: height)
        let inner = index == count - 1 ? 0 : Self.distance(holdingOutermost: ends[index], mirrorSum: m, height: height)
        let rows = Self.rows(within: outer, mirrorSum: m, height: height)
        let skipped = Self.rows(within: inner, mirrorSum: m, height: height)
        return (IntRect(x: 0, y: rows.lowerBound, width: width, height: rows.count), skipped)
    }

    /// The rows r with |2r - m| < `distance`, within the frame.
    static func rows(within distance: Int, mirrorSum m: Int, height: Int) -> Range<Int> {
        guard distance > 0 else { return 0..<0 }
        if distance == .max { return 0..<height }
        // m - d < 2r < m + d, m and d ≥ 0: from ⌈(m - d + 1) / 2⌉ (or 0) to ⌊(m + d - 1) / 2⌋.
        let first = min(max(m - distance + 2, 0) / 2, height)
        return first..<min(max((m + distance + 1) / 2, first), height)
    }

    /// The distance d (in half rows, |2r - m|) such that the rows at d or
    /// more from the mirror are the `outermost` count, or as near as whole
    /// pairs allow.
    static func distance(holdingOutermost outermost: Int, mirrorSum m: Int, height: Int) -> Int {
        // Rows at `d` or more: the frame less those within d. Fewer as d grows: search it.
        var low = 1, high = 2 * height + 2
        while low < high {
            let d = (low + high) / 2
            if height - rows(within: d, mirrorSum: m, height: height).count <= outermost { high = d } else { low = d + 1 }
        }
        return low
    }

    /// Even cuts for frames of `height` rows, if the cuts were for another height.
    public func fit(height: Int) {
        guard height != self.height else { return }
        self.height = height
        for i in 0..<count { ends[i] = Self.even(i, of: count, width: 0, height: height).maxY }
    }

    /// Draws band `index` with `body` on the calling thread (the band's own)
    /// and notes the CPU time it took.
    public func measure(_ index: Int, _ body: () -> Void) {
        let start = MonotonicClock.threadCPUTime()
        body()
        note(index, seconds: MonotonicClock.threadCPUTime() - start)
    }

    /// Notes that band `index` took `value` seconds of CPU time.
    func note(_ index: Int, seconds value: Double) {
        seconds[index] = value
    }

    /// Moves the cuts after a frame whose every band was measured (on the
    /// loop's thread, once the bands are done).
    public func rebalance() {
        for i in 0..<count { previousEnds[i] = ends[i] }
        Self.balance(&ends, from: previousEnds, seconds: UnsafeBufferPointer(start: seconds, count: count), height: height)
    }

    /// The cuts `ends` moved halfway from `previous` towards the ones that
    /// share out `seconds` evenly, each band's time taken as spread evenly
    /// over its rows. Halfway, so that one frame measured badly (the thread
    /// preempted, a page fault) cannot swing them; every band keeps at least
    /// a quarter of its even share of rows. Times that are not finite and
    /// positive leave the cuts as they are. Allocates nothing.
    static func balance(_ ends: inout [Int], from previous: [Int], seconds: UnsafeBufferPointer<Double>, height: Int) {
        let count = previous.count
        guard count >= 2, seconds.count == count else { return }
        var total = 0.0
        for t in seconds {
            guard t.isFinite, t >= 0 else { return }
            total += t
        }
        guard total > 0, total.isFinite else { return }
        for cut in 1..<count {
            let target = total * Double(cut) / Double(count)
            // The row where the frame's time so far reaches `target`.
            var sum = 0.0, row = Double(previous[cut - 1])
            for band in 0..<count {
                let t = seconds[band]
                let top = band == 0 ? 0 : previous[band - 1]
                if sum + t >= target {
                    row = Double(top) + (t > 0 ? (target - sum) / t : 0) * Double(previous[band] - top)
                    break
                }
                sum += t
            }
            ends[cut - 1] = Int(((Double(previous[cut - 1]) + row) / 2).rounded())
        }
        ends[count - 1] = height
        let least = max(1, height / (4 * count))
        for cut in 0..<(count - 1) {
            ends[cut] = max(ends[cut], (cut == 0 ? 0 : ends[cut - 1]) + least)
        }
        for cut in stride(from: count - 2, through: 0, by: -1) {
            ends[cut] = min(ends[cut], ends[cut + 1] - least)
        }
    }
}
