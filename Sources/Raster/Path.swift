#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A vector outline: sub-paths of lines, quadratic and cubic Béziers.
///
/// Angles are in radians measured from the +x axis and growing clockwise on
/// screen (y points down), the convention of every raster library. A path keeps
/// its storage when cleared, so one scratch path can be rebuilt every frame
/// without touching the heap.
public struct Path {
    public enum Verb: UInt8, Sendable {
        case move, line, quadratic, cubic, close
    }

    public private(set) var verbs: [Verb] = []
    public private(set) var points: [Point] = []

    public init() {}

    public var isEmpty: Bool { verbs.isEmpty }

    public mutating func removeAll() {
        verbs.removeAll(keepingCapacity: true)
        points.removeAll(keepingCapacity: true)
    }

    public mutating func move(to p: Point) {
        verbs.append(.move)
        points.append(p)
    }

    public mutating func line(to p: Point) {
        if verbs.isEmpty { move(to: p); return }
        verbs.append(.line)
        points.append(p)
    }

    public mutating func quadCurve(to p: Point, control c: Point) {
        if verbs.isEmpty { move(to: c) }
        verbs.append(.quadratic)
        points.append(c)
        points.append(p)
    }

    public mutating func curve(to p: Point, control1 c1: Point, control2 c2: Point) {
        if verbs.isEmpty { move(to: c1) }
        verbs.append(.cubic)
        points.append(c1)
        points.append(c2)
        points.append(p)
    }

    public mutating func close() {
        if let last = verbs.last, last != .close { verbs.append(.close) }
    }

    /// The last point added, if any.
    public var currentPoint: Point? { points.last }

    /// Appends an arc of a circle, as cubic Béziers of at most 90° each. Starts
    /// with a line from the current point, or a move if the path is empty or closed.
    public mutating func addArc(center: Point, radius: Float, startAngle: Float, endAngle: Float) {
        let sweep = endAngle - startAngle
        let start = center + radius * Point(cosf(startAngle), sinf(startAngle))
        if verbs.isEmpty || verbs.last == .close { move(to: start) } else { line(to: start) }
        if sweep == 0 || radius <= 0 { return }
        let pieces = max(1, Int(ceilf(fabsf(sweep) / (Float.pi / 2) - 1e-4)))
        let step = sweep / Float(pieces)
        let k = 4 / 3 * tanf(step / 4)
        var a0 = startAngle
        for _ in 0..<pieces {
            let a1 = a0 + step
            let p0 = Point(cosf(a0), sinf(a0)), p1 = Point(cosf(a1), sinf(a1))
            let c1 = p0 + k * Point(-p0.y, p0.x)
            let c2 = p1 - k * Point(-p1.y, p1.x)
            curve(to: center + radius * p1, control1: center + radius * c1, control2: center + radius * c2)
            a0 = a1
        }
    }

    public mutating func addCircle(center: Point, radius: Float) {
        addEllipse(in: Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
    }

    /// A closed ellipse inscribed in `rect`, drawn clockwise from its rightmost point.
    public mutating func addEllipse(in rect: Rect) {
        let c = rect.center, rx = rect.width / 2, ry = rect.height / 2
        let k: Float = 0.5522847498
        move(to: Point(c.x + rx, c.y))
        curve(to: Point(c.x, c.y + ry), control1: Point(c.x + rx, c.y + k * ry), control2: Point(c.x + k * rx, c.y + ry))
        curve(to: Point(c.x - rx, c.y), control1: Point(c.x - k * rx, c.y + ry), control2: Point(c.x - rx, c.y + k * ry))
        curve(to: Point(c.x, c.y - ry), control1: Point(c.x - rx, c.y - k * ry), control2: Point(c.x - k * rx, c.y - ry))
        curve(to: Point(c.x + rx, c.y), control1: Point(c.x + k * rx, c.y - ry), control2: Point(c.x + rx, c.y - k * ry))
        close()
    }

    public mutating func addRect(_ r: Rect) {
        move(to: Point(r.x, r.y))
        line(to: Point(r.maxX, r.y))
        line(to: Point(r.maxX, r.maxY))
        line(to: Point(r.x, r.maxY))
        close()
    }

    /// A rectangle with circular corners; the radius is limited to half the shorter side.
    public mutating func addRoundedRect(_ r: Rect, cornerRadius: Float) {
        let rad = min(max(cornerRadius, 0), min(r.width, r.height) / 2)
        if rad <= 0 { addRect(r); return }
        let k: Float = 0.5522847498 * rad
        move(to: Point(r.x + rad, r.y))
        line(to: Point(r.maxX - rad, r.y))
        curve(to: Point(r.maxX, r.y + rad), control1: Point(r.maxX - rad + k, r.y), control2: Point(r.maxX, r.y + rad - k))
        line(to: Point(r.maxX, r.maxY - rad))
        curve(to: Point(r.maxX - rad, r.maxY), control1: Point(r.maxX, r.maxY - rad + k), control2: Point(r.maxX - rad + k, r.maxY))
        line(to: Point(r.x + rad, r.maxY))
        curve(to: Point(r.x, r.maxY - rad), control1: Point(r.x + rad - k, r.maxY), control2: Point(r.x, r.maxY - rad + k))
        line(to: Point(r.x, r.y + rad))
        curve(to: Point(r.x + rad, r.y), control1: Point(r.x, r.y + rad - k), control2: Point(r.x + rad - k, r.y))
        close()
    }

    /// A pie slice: centre, the arc from `startAngle` to `endAngle`, back to the centre.
    public mutating func addPie(center: Point, radius: Float, startAngle: Float, endAngle: Float) {
        move(to: center)
        addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle)
        close()
    }

    /// The bounding box of all points, control points included.
    public var controlBounds: Rect? {
        guard var lo = points.first else { return nil }
        var hi = lo
        for p in points {
            lo = pointwiseMin(lo, p)
            hi = pointwiseMax(hi, p)
        }
        return Rect(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)
    }
}
