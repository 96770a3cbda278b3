#if canImport(Glibc)
import Glibc
#endif
import Raster
import Typography

/// Draws the radar dial: disc, rings, crosshair, ticks, the sweep, blips, an
/// aircraft marker and the labels. The reference frame and the kiosk both draw
/// through it, so the benchmark times the dial the kiosk shows.
public struct DialPainter {

    /// What to draw, in device pixels and compass degrees.
    public struct Parameters {
        public var center: Point
        public var radius: Float
        /// Length scale (1 at the reference's 1080p dial).
        public var scale: Float
        public var sweepBearing: Float
        /// 1 while sweeping, 0 when the still face has replaced the sweep.
        public var sweepOpacity: Float
        public var showsBlips: Bool
        /// The aircraft on the still face: bearing, fraction of the range, opacity.
        public var marker: (bearing: Float, range: Float, opacity: Float)?
        public var rangeLabels: (String, String, String)

        public init(center: Point, radius: Float, scale: Float, sweepBearing: Float, sweepOpacity: Float, showsBlips: Bool,
                    marker: (bearing: Float, range: Float, opacity: Float)?, rangeLabels: (String, String, String)) {
            self.center = center
            self.radius = radius
            self.scale = scale
            self.sweepBearing = sweepBearing
            self.sweepOpacity = sweepOpacity
            self.showsBlips = showsBlips
            self.marker = marker
            self.rangeLabels = rangeLabels
        }
    }

    static let green = Color(hex: 0x2FA37A)
    static let bright = Color(hex: 0x6CFFB5)
    private var path = Path()

    public init() {}

    /// An aircraft on the dial: a line from the centre to the rim along its
    /// bearing, and a bright blip at its range (0...1 of the radius).
    public mutating func drawMarker(center c: Point, radius R: Float, scale s: Float, bearing: Float, range: Float, opacity: Float,
                                    in canvas: Canvas) {
        let saved = canvas.opacity
        canvas.opacity = saved * opacity
        path.removeAll()
        path.move(to: c)
        path.line(to: Self.polar(c, bearing, R))
        canvas.stroke(path, style: StrokeStyle(width: 1.5 * s), with: .solid(Self.bright.withAlpha(0.45)))
        drawBlip(at: Self.polar(c, bearing, R * range), scale: s * 1.6, in: canvas)
        canvas.opacity = saved
    }

    /// A point at compass bearing `b` degrees (0 = north, clockwise) and distance `d` from `c`.
    @inline(__always)
    public static func polar(_ c: Point, _ b: Float, _ d: Float) -> Point {
        let r = b * .pi / 180
        return Point(c.x + d * sinf(r), c.y - d * cosf(r))
    }

    /// Raster's angle (radians from +x, clockwise) for a compass bearing in degrees.
    @inline(__always)
    public static func angle(bearing b: Float) -> Float { (b - 90) * .pi / 180 }

    public mutating func draw(_ p: Parameters, labelFont: Font, rangeFont: Font, text: TextRenderer, in canvas: Canvas) {
        let c = p.center, R = p.radius, s = p.scale
        let green = Self.green, bright = Self.bright

        path.removeAll()
        path.addCircle(center: c, radius: R)
        canvas.fill(path, with: .gradient(.radial(center: c, radius: R, stops: GradientStops(
            GradientStop(0, Color(hex: 0x15303A)), GradientStop(1, Color(hex: 0x0B1620))))))

        path.removeAll()
        for i in 1...4 { path.addCircle(center: c, radius: R * 0.25 * Float(i)) }
        canvas.stroke(path, style: StrokeStyle(width: 1.5 * s), with: .solid(green.withAlpha(0.35)))

        path.removeAll()
        path.move(to: Point(c.x, c.y - R)); path.line(to: Point(c.x, c.y + R))
        path.move(to: Point(c.x - R, c.y)); path.line(to: Point(c.x + R, c.y))
        canvas.stroke(path, style: StrokeStyle(width: 1 * s), with: .solid(green.withAlpha(0.25)))

        for major in 0...1 {
            path.removeAll()
            let L = (major == 1 ? 0.08 : 0.04) * R
            for i in 0..<72 where (i % 6 == 0) == (major == 1) {
                let b = Float(i) * 5
                path.move(to: Self.polar(c, b, R - L))
                path.line(to: Self.polar(c, b, R))
            }
            canvas.stroke(path, style: StrokeStyle(width: (major == 1 ? 2 : 1) * s), with: .solid(green.withAlpha(0.6)))
        }

        if p.sweepOpacity > 0 {
            let theta = p.sweepBearing
            let saved = canvas.opacity
            canvas.opacity = saved * p.sweepOpacity
            // Conic ramp: transparent at theta - 60, a 0.55 at theta, held a little
            // past it for the edge's antialiased pixels.
            path.removeAll()
            path.addPie(center: c, radius: R, startAngle: Self.angle(bearing: theta - 60), endAngle: Self.angle(bearing: theta))
            canvas.fill(path, with: .gradient(.conic(center: c, startAngle: Self.angle(bearing: theta - 60), stops: GradientStops(
                GradientStop(0, bright.withAlpha(0)), GradientStop(1.0 / 6, bright.withAlpha(0.55)),
                GradientStop(0.5, bright.withAlpha(0.55)), GradientStop(0.5, bright.withAlpha(0))))))
            path.removeAll()
            path.move(to: c)
            path.line(to: Self.polar(c, theta, R))
            canvas.stroke(path, style: StrokeStyle(width: 2 * s), with: .solid(bright))
            canvas.opacity = saved
        }

        if p.showsBlips {
            for k in 0..<12 {
                let fk = 0.618034 * Float(k)
                drawBlip(at: Self.polar(c, 137.5 * Float(k), R * (0.2 + 0.7 * (fk - floorf(fk)))), scale: s, in: canvas)
            }
        }

        if let marker = p.marker, marker.opacity > 0 {
            drawMarker(center: c, radius: R, scale: s, bearing: marker.bearing, range: marker.range, opacity: marker.opacity, in: canvas)
        }

        let labelColor = Color(hex: 0x8FD9B6)
        for (i, label) in ["N", "E", "S", "W"].enumerated() {
            let q = Self.polar(c, 90 * Float(i), R + 22 * s)
            text.draw(label, font: labelFont, at: Point(q.x, q.y + labelFont.capHeight / 2), alignment: .center,
                      color: labelColor, in: canvas)
        }
        let rangeColor = Color(hex: 0x5E9C86)
        for i in 0..<3 {
            let label = i == 0 ? p.rangeLabels.0 : i == 1 ? p.rangeLabels.1 : p.rangeLabels.2
            let q = Self.polar(c, 45, R * 0.25 * Float(i + 1))
            text.draw(label, font: rangeFont, at: Point(q.x, q.y - 4 * s), color: rangeColor, in: canvas)
        }
    }

    /// A glow (radial ramp to transparent) and a solid dot.
    private mutating func drawBlip(at q: Point, scale s: Float, in canvas: Canvas) {
        path.removeAll()
        path.addCircle(center: q, radius: 14 * s)
        canvas.fill(path, with: .gradient(.radial(center: q, radius: 14 * s, stops: GradientStops(
            GradientStop(0, Self.bright.withAlpha(0.4)), GradientStop(1, Self.bright.withAlpha(0))))))
        path.removeAll()
        path.addCircle(center: q, radius: 4 * s)
        canvas.fill(path, with: .solid(Self.bright))
    }
}
