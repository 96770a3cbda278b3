/// One colour stop of a gradient, `offset` in 0...1.
public struct GradientStop: Sendable, Equatable {
    public var offset: Float
    public var color: Color

    public init(_ offset: Float, _ color: Color) {
        self.offset = offset
        self.color = color
    }
}

/// Up to eight gradient stops stored inline, so that building a gradient every
/// frame does not touch the heap (an array of stops would).
public struct GradientStops: Sendable, Equatable {
    public static let capacity = 8
    private var storage: (GradientStop, GradientStop, GradientStop, GradientStop,
                          GradientStop, GradientStop, GradientStop, GradientStop)
    public private(set) var count = 0

    public init() {
        let s = GradientStop(0, .clear)
        storage = (s, s, s, s, s, s, s, s)
    }

    public init(_ a: GradientStop, _ b: GradientStop) {
        self.init()
        append(a); append(b)
    }

    public init(_ a: GradientStop, _ b: GradientStop, _ c: GradientStop) {
        self.init(a, b)
        append(c)
    }

    public init(_ a: GradientStop, _ b: GradientStop, _ c: GradientStop, _ d: GradientStop) {
        self.init(a, b, c)
        append(d)
    }

    /// Adds a stop; stops must come in non-decreasing offset order.
    public mutating func append(_ stop: GradientStop) {
        precondition(count < Self.capacity, "a gradient has at most \(Self.capacity) stops")
        withUnsafeMutableBytes(of: &storage) { raw in
            raw.bindMemory(to: GradientStop.self)[count] = stop
        }
        count += 1
    }

    public subscript(i: Int) -> GradientStop {
        precondition(i >= 0 && i < count)
        return withUnsafeBytes(of: storage) { $0.bindMemory(to: GradientStop.self)[i] }
    }

    public static func == (l: GradientStops, r: GradientStops) -> Bool {
        l.count == r.count && (0..<l.count).allSatisfy { l[$0] == r[$0] }
    }
}

/// What happens outside a gradient's 0...1 range.
public enum GradientSpread: Sendable {
    /// The end colours extend.
    case pad
    /// The ramp starts over.
    case `repeat`
}

/// A colour ramp over a geometry: along a line, out from a centre, or around one.
public struct Gradient: Sendable, Equatable {
    public enum Geometry: Sendable, Equatable {
        case linear(start: Point, end: Point)
        case radial(center: Point, radius: Float)
        /// Offset 0 at `startAngle` (radians, clockwise from +x), growing clockwise to 1 after a full turn.
        case conic(center: Point, startAngle: Float)
    }

    public var geometry: Geometry
    public var stops: GradientStops
    public var spread: GradientSpread

    public init(_ geometry: Geometry, stops: GradientStops, spread: GradientSpread = .pad) {
        self.geometry = geometry
        self.stops = stops
        self.spread = spread
    }

    public static func linear(from start: Point, to end: Point, stops: GradientStops, spread: GradientSpread = .pad) -> Gradient {
        Gradient(.linear(start: start, end: end), stops: stops, spread: spread)
    }

    public static func radial(center: Point, radius: Float, stops: GradientStops, spread: GradientSpread = .pad) -> Gradient {
        Gradient(.radial(center: center, radius: radius), stops: stops, spread: spread)
    }

    public static func conic(center: Point, startAngle: Float, stops: GradientStops) -> Gradient {
        Gradient(.conic(center: center, startAngle: startAngle), stops: stops, spread: .repeat)
    }
}

/// What a shape is filled with.
public enum Paint: Sendable, Equatable {
    case solid(Color)
    case gradient(Gradient)
}

/// A gradient's colours sampled into a table of premultiplied pixels; the
/// painters index it instead of interpolating stops per pixel.
///
/// Colours are interpolated premultiplied, so a ramp to transparent never
/// darkens on the way (the choice of Blend2D and pixman).
public final class GradientTable {
    public static let maximumSize = 1024
    public let entries: UnsafeMutablePointer<UInt32>
    public private(set) var size = 256
    public private(set) var isOpaque = true
    /// The largest difference of any channel between neighbouring entries, in
    /// 8-bit levels: how fast the ramp changes per entry at its steepest.
    /// Worked out when first asked for after a build (only radial fills ask).
    public var steepestStep: UInt32 {
        if let known = knownSteepestStep { return known }
        var steepest: UInt32 = 0
        for i in 1..<size {
            let a = entries[i - 1], b = entries[i]
            for shift in stride(from: UInt32(0), to: 32, by: 8) {
                let x = (a >> shift) & 0xFF, y = (b >> shift) & 0xFF
                steepest = max(steepest, x > y ? x - y : y - x)
            }
        }
        knownSteepestStep = steepest
        return steepest
    }
    private var knownSteepestStep: UInt32?
    /// What the entries were last built from.
    private var builtFrom: (stops: GradientStops, size: Int, opacity: Float)?

    public init() {
        entries = .allocate(capacity: Self.maximumSize)
        entries.initialize(repeating: 0, count: Self.maximumSize)
    }

    deinit { entries.deallocate() }

    /// Whether the entries are `stops` sampled at `size` offsets, times `opacity`.
    public func holds(_ stops: GradientStops, size: Int, opacity: Float) -> Bool {
        guard let last = builtFrom else { return false }
        return last.size == size && last.opacity == opacity && last.stops == stops
    }

    /// Samples `stops` at `size` evenly spaced offsets 0...1, times `opacity`.
    public func build(_ stops: GradientStops, size: Int, opacity: Float) {
        precondition(size >= 2 && size <= Self.maximumSize)
        if holds(stops, size: size, opacity: opacity) { return }
        builtFrom = (stops, size, opacity)
        self.size = size
        let n = stops.count
        if n == 0 {
            entries.update(repeating: 0, count: size)
            isOpaque = false
            knownSteepestStep = 0
            return
        }
        var segment = 0
        var opaque = true
        let last = Float(size - 1)
        for i in 0..<size {
            let t = Float(i) / last
            while segment < n - 1 && stops[segment + 1].offset < t { segment += 1 }
            let color: SIMD4<Float>
            if t <= stops[0].offset {
                color = premultiplied(stops[0].color)
            } else if segment >= n - 1 {
                color = premultiplied(stops[n - 1].color)
            } else {
                let a = stops[segment], b = stops[segment + 1]
                let span = b.offset - a.offset
                let u = span > 0 ? min(max((t - a.offset) / span, 0), 1) : 1
                color = premultiplied(a.color) + (premultiplied(b.color) - premultiplied(a.color)) * u
            }
            let c = color * (opacity * 255) + 0.5
            let alpha = UInt32(min(max(c.w, 0), 255))
            func channel(_ v: Float) -> UInt32 { min(UInt32(min(max(v, 0), 255)), alpha) }
            entries[i] = (alpha << 24) | (channel(c.x) << 16) | (channel(c.y) << 8) | channel(c.z)
            if alpha != 255 { opaque = false }
        }
        isOpaque = opaque
        knownSteepestStep = nil
    }

    private func premultiplied(_ c: Color) -> SIMD4<Float> {
        SIMD4(c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha, c.alpha)
    }
}
