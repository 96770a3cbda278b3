
/// Per-frame costs gathered by a benchmark, reduced to the figures the
/// anchors print (nearest-rank percentiles, like bench/common/benchutil.py).
public struct FrameTimings {
    public private(set) var milliseconds: [Double] = []

    public init(capacity: Int) { milliseconds.reserveCapacity(capacity) }

    public mutating func append(_ ms: Double) { milliseconds.append(ms) }

    public var count: Int { milliseconds.count }

    public func percentile(_ p: Double) -> Double {
        let sorted = milliseconds.sorted()
        guard !sorted.isEmpty else { return 0 }
        let rank = max(1, Int((p / 100 * Double(sorted.count)).rounded(.up)))
        return sorted[min(rank, sorted.count) - 1]
    }

    public var median: Double {
        let sorted = milliseconds.sorted()
        guard !sorted.isEmpty else { return 0 }
        let n = sorted.count
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }

    public var mean: Double { milliseconds.isEmpty ? 0 : milliseconds.reduce(0, +) / Double(milliseconds.count) }
    public var minimum: Double { milliseconds.min() ?? 0 }
    public var maximum: Double { milliseconds.max() ?? 0 }

    /// `RESULT name WxH median_ms=… p90_ms=… max_ms=… min_ms=… mean_ms=… frames=N cpu=ARCH-CPU`
    public func resultLine(name: String, width: Int, height: Int) -> String {
        "RESULT \(name) \(width)x\(height) median_ms=\(format(median)) p90_ms=\(format(percentile(90))) "
            + "max_ms=\(format(maximum)) min_ms=\(format(minimum)) mean_ms=\(format(mean)) frames=\(count)" + BuildTarget.resultField
    }

    func format(_ v: Double) -> String {
        let scaled = (v * 10000).rounded() / 10000
        return String(scaled)
    }
}
