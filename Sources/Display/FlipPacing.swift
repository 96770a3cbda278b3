/// What the kernel's page-flip stamps say about a display: whether its driver
/// waits for a vblank, the rate frames reached the screen, and the interval
/// they are paced at.
///
/// Two vblanks are always a period apart, so flips stamped closer together
/// than that did not wait for one; three in a row mean the driver has no
/// vblank (virtio-gpu, stock bochs, some USB displays) and the loop must pace
/// itself by timer. Comparing a stamp with its request instead misfires when
/// drawing takes most of a period: each request then lands just before the
/// next vblank, every time.
public struct FlipPacing: Sendable {
    public let refreshRate: Double
    public private(set) var flips = 0
    /// Set once flips keep completing in well under a refresh period.
    public private(set) var completesImmediately = false
    private var fastFlips = 0
    private var first: Double?
    private var last = -Double.infinity
    /// The last 256 intervals between stamps: a ring, allocated once.
    private var intervals = [Double](repeating: 0, count: 256)
    private var intervalCount = 0

    public init(refreshRate: Double) { self.refreshRate = refreshRate }

    /// Takes the stamp (seconds) of a completed flip.
    public mutating func record(_ stamp: Double) {
        flips += 1
        if stamp - last < 0.75 / refreshRate { fastFlips += 1 } else { fastFlips = 0 }
        if fastFlips >= 3 { completesImmediately = true }
        if first != nil {
            intervals[intervalCount % intervals.count] = stamp - last
            intervalCount += 1
        }
        if first == nil { first = stamp }
        last = stamp
    }

    /// Flips per second from the first stamp to the last: the rate frames
    /// reached the screen, without the start-up before the first flip.
    public var rate: Double? {
        guard let first, flips >= 2, last > first else { return nil }
        return Double(flips - 1) / (last - first)
    }

    /// The median of the last 256 intervals: the refresh frames are paced at,
    /// which a frame drawn too slowly to make its vblank does not move, unlike `rate`.
    public var medianInterval: Double? {
        let n = min(intervalCount, intervals.count)
        guard n > 0 else { return nil }
        let sorted = intervals[0..<n].sorted()
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }

    /// The share of the last 256 intervals within a tenth of a period of a
    /// whole number of periods: flips on vblanks, with some missed by a frame
    /// drawn too slowly (which an emulated CPU under load does), not off the grid.
    public var shareOnVblankGrid: Double? {
        let n = min(intervalCount, intervals.count)
        guard n > 0 else { return nil }
        let period = 1 / refreshRate
        let on = intervals[0..<n].filter { interval in
            let periods = (interval / period).rounded()
            return periods >= 1 && abs(interval - periods * period) <= 0.1 * period
        }.count
        return Double(on) / Double(n)
    }

    /// The 99th percentile of the last 256 intervals: how long the worst
    /// stalls were (a frame missed under a flood of input is two periods).
    public var percentile99Interval: Double? {
        let n = min(intervalCount, intervals.count)
        guard n > 0 else { return nil }
        let sorted = intervals[0..<n].sorted()
        return sorted[min(n - 1, Int((Double(n) * 0.99).rounded(.up)) - 1)]
    }

    /// The shortest of the last 256 intervals: never much under a period when flips wait for vblank.
    public var shortestInterval: Double? {
        let n = min(intervalCount, intervals.count)
        return n > 0 ? intervals[0..<n].min() : nil
    }
}
