/// A unit cubic Bézier timing curve from (0, 0) to (1, 1) (§3.1).
public struct UnitCurve: Hashable, Sendable {
    public let p1x: Double, p1y: Double, p2x: Double, p2y: Double
    private let ax: Double, bx: Double, cx: Double
    private let ay: Double, by: Double, cy: Double

    public init(_ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double) {
        self.p1x = p1x; self.p1y = p1y; self.p2x = p2x; self.p2y = p2y
        cx = 3 * p1x; bx = 3 * (p2x - p1x) - cx; ax = 1 - cx - bx
        cy = 3 * p1y; by = 3 * (p2y - p1y) - cy; ay = 1 - cy - by
    }

    public static let linear = UnitCurve(0, 0, 1, 1)
    public static let easeIn = UnitCurve(0.42, 0, 1, 1)
    public static let easeOut = UnitCurve(0, 0, 0.58, 1)
    public static let easeInOut = UnitCurve(0.42, 0, 0.58, 1)

    public static func == (l: UnitCurve, r: UnitCurve) -> Bool {
        l.p1x == r.p1x && l.p1y == r.p1y && l.p2x == r.p2x && l.p2y == r.p2y
    }
    public func hash(into h: inout Hasher) { h.combine(p1x); h.combine(p1y); h.combine(p2x); h.combine(p2y) }

    private func x(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
    private func y(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }
    private func dx(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }
    private func dy(_ s: Double) -> Double { (3 * ay * s + 2 * by) * s + cy }

    /// The curve parameter s with X(s) = p: Newton's method, then bisection, to 2⁻²⁰... and beyond.
    private func solve(_ p: Double) -> Double {
        var s = p
        for _ in 0..<8 {
            let err = x(s) - p
            if abs(err) < 1e-12 { return s }
            let d = dx(s)
            if abs(d) < 1e-9 { break }
            s -= err / d
        }
        var lo = 0.0, hi = 1.0
        s = p
        for _ in 0..<60 {
            let v = x(s)
            if abs(v - p) < 1e-12 { return s }
            if v < p { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return s
    }

    /// Progress of the value for progress of time `p` in 0...1.
    public func value(at p: Double) -> Double {
        let q = min(max(p, 0), 1)
        if self == .linear { return q }
        return y(solve(q))
    }

    /// dY/dX at progress `p`, in units of Δ per unit of progress.
    public func velocity(at p: Double) -> Double {
        let s = solve(min(max(p, 0), 1))
        let d = dx(s)
        return d == 0 ? 0 : dy(s) / d
    }
}
