#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A path turned into polylines in device space: the common input of the fill
/// rasterizer and the stroker. Curves are split into line segments whose
/// distance from the true curve stays under `tolerance` pixels (Wang's bound).
///
/// Chords of a convex curve all lie on its inner side, so plain flattening
/// shrinks every curved shape by ⅔ of the chord error on average. Each interior
/// vertex is therefore moved outward by a twelfth of its second difference
/// (≈ ⅔ of the local sagitta): the chords then straddle the curve, and a disc's
/// coverage equals its area without paying for a tiny tolerance.
/// It is a scratch object: `flatten` reuses its storage.
public struct FlattenedPath {
    /// Every polyline's points, one after another.
    public private(set) var points: [Point] = []
    /// For each polyline: where its points start, how many, and whether it was closed.
    public private(set) var polylines: [(start: Int, count: Int, closed: Bool)] = []

    public init() {}

    /// The smallest box holding every point, or nil when there are none.
    public var bounds: (lower: Point, upper: Point)? {
        guard var lower = points.first else { return nil }
        var upper = lower
        for point in points {
            lower = pointwiseMin(lower, point)
            upper = pointwiseMax(upper, point)
        }
        return (lower, upper)
    }

    public mutating func removeAll() {
        points.removeAll(keepingCapacity: true)
        polylines.removeAll(keepingCapacity: true)
    }

    public mutating func flatten(_ path: Path, transform: AffineTransform, tolerance: Float = 0.05) {
        removeAll()
        var pi = 0
        var start = 0
        var current = Point.zero
        // After a close, a drawing verb without a move starts again at the closing point.
        var needsStart = false
        func finish(closed: Bool) {
            let n = points.count - start
            if n >= 2 || (n == 1 && !closed) { polylines.append((start, n, closed)) } else { points.removeLast(n) }
            start = points.count
        }
        func beginIfNeeded() {
            if needsStart { points.append(current); needsStart = false }
        }
        let pathPoints = path.points
        for verb in path.verbs {
            switch verb {
            case .move:
                if points.count > start { finish(closed: false) }
                current = transform.apply(pathPoints[pi]); pi += 1
                points.append(current)
                needsStart = false
            case .line:
                let p = transform.apply(pathPoints[pi]); pi += 1
                beginIfNeeded()
                if p != current { points.append(p) }
                current = p
            case .quadratic:
                let c = transform.apply(pathPoints[pi]), p = transform.apply(pathPoints[pi + 1]); pi += 2
                beginIfNeeded()
                let dd = current - 2 * c + p
                let n = max(1, Int(ceilf(sqrtf(0.25 * length(dd) / tolerance))))
                let step = 1 / Float(n)
                let firstNew = points.count
                for i in 1...n {
                    let t = Float(i) * step, u = 1 - t
                    points.append(u * u * current + 2 * u * t * c + t * t * p)
                }
                straddle(from: firstNew, count: n, start: current)
                current = p
            case .cubic:
                let c1 = transform.apply(pathPoints[pi]), c2 = transform.apply(pathPoints[pi + 1])
                let p = transform.apply(pathPoints[pi + 2]); pi += 3
                beginIfNeeded()
                let dd = max(length(current - 2 * c1 + c2), length(c1 - 2 * c2 + p))
                let n = max(1, Int(ceilf(sqrtf(0.75 * dd / tolerance))))
                let step = 1 / Float(n)
                let firstNew = points.count
                for i in 1...n {
                    let t = Float(i) * step, u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
                    points.append(a * current + b * c1 + c * c2 + d * p)
                }
                straddle(from: firstNew, count: n, start: current)
                current = p
            case .close:
                // A closed polyline does not repeat its first point.
                if points.count - start >= 2 && points[points.count - 1] == points[start] { points.removeLast() }
                if points.count > start {
                    current = points[start]
                    finish(closed: true)
                    needsStart = true
                }
            }
        }
        if points.count > start { finish(closed: false) }
    }
}

extension FlattenedPath {
    /// Moves the interior points of one flattened curve (the `count` points from
    /// `first`, the last being the curve's end) outward: p' = p − Δ²p / 12.
    fileprivate mutating func straddle(from first: Int, count: Int, start: Point) {
        if count < 2 { return }
        var previous = start
        for i in first..<(first + count - 1) {
            let here = points[i], next = points[i + 1]
            points[i] = here - (previous - 2 * here + next) * (1.0 / 12)
            previous = here
        }
    }
}

@inline(__always) func length(_ v: Point) -> Float { (v * v).sum().squareRoot() }
