#if canImport(Glibc)
import Glibc
#endif
import Raster
import Typography

/// The fixed benchmark frame of the reference scene (design/reference-scene.md):
/// the radar dial and the aircraft card, drawn from scratch every frame with no
/// caching of layers, so it times the same work as cairo, Skia and Blend2D.
public final class ReferenceFrame {
    public let width: Int
    public let height: Int
    public let buffer: PixelBuffer
    let canvas: Canvas
    let text: TextRenderer
    private var path = Path()
    private let fonts: (label: Font, range: Font, f28: Font, f72: Font, f32: Font, f40: Font)

    public init(width: Int, height: Int, fonts fontSet: FontSet, text: TextRenderer? = nil) throws {
        self.width = width
        self.height = height
        buffer = PixelBuffer(width: width, height: height)
        canvas = Canvas(target: buffer)
        self.text = text ?? TextRenderer()
        let s = Float(height) / 1080
        let face = fontSet.regular
        fonts = (try Font(face: face, size: 24 * s), try Font(face: face, size: 16 * s),
                 try Font(face: face, size: 28 * s), try Font(face: face, size: 72 * s),
                 try Font(face: face, size: 32 * s), try Font(face: face, size: 40 * s))
    }

    /// A point at compass bearing `b` degrees (0 = north, clockwise) and distance `d` from `c`.
    @inline(__always)
    static func polar(_ c: Point, _ b: Float, _ d: Float) -> Point {
        let r = b * .pi / 180
        return Point(c.x + d * sinf(r), c.y - d * cosf(r))
    }

    /// Raster's angle (radians from +x, clockwise) for a compass bearing in degrees.
    @inline(__always)
    static func angle(bearing b: Float) -> Float { (b - 90) * .pi / 180 }

    public func draw(frame n: Int) {
        let W = Float(width), H = Float(height)
        let s = H / 1080
        let c = Point(0.30 * W, 0.50 * H)
        let R = 0.42 * H
        let theta = Float((n * 6) % 360)
        let green = Color(hex: 0x2FA37A)
        let bright = Color(hex: 0x6CFFB5)
        canvas.resetDamage()

        canvas.clear(Color(hex: 0x0B1016))

        // Disc.
        path.removeAll()
        path.addCircle(center: c, radius: R)
        canvas.fill(path, with: .gradient(.radial(center: c, radius: R, stops: GradientStops(
            GradientStop(0, Color(hex: 0x15303A)), GradientStop(1, Color(hex: 0x0B1620))))))

        // Rings, one path.
        path.removeAll()
        for i in 1...4 { path.addCircle(center: c, radius: R * 0.25 * Float(i)) }
        canvas.stroke(path, style: StrokeStyle(width: 1.5 * s), with: .solid(green.withAlpha(0.35)))

        // Crosshair.
        path.removeAll()
        path.move(to: Point(c.x, c.y - R)); path.line(to: Point(c.x, c.y + R))
        path.move(to: Point(c.x - R, c.y)); path.line(to: Point(c.x + R, c.y))
        canvas.stroke(path, style: StrokeStyle(width: 1 * s), with: .solid(green.withAlpha(0.25)))

        // Ticks: minor, then major.
        for major in [false, true] {
            path.removeAll()
            let L = (major ? 0.08 : 0.04) * R
            for i in 0..<72 where (i % 6 == 0) == major {
                let b = Float(i) * 5
                path.move(to: Self.polar(c, b, R - L))
                path.line(to: Self.polar(c, b, R))
            }
            canvas.stroke(path, style: StrokeStyle(width: (major ? 2 : 1) * s), with: .solid(green.withAlpha(0.6)))
        }

        // Sweep wedge with a conic ramp: transparent at theta - 60, a 0.55 at theta,
        // held a little past it for the edge's antialiased pixels.
        path.removeAll()
        path.addPie(center: c, radius: R, startAngle: Self.angle(bearing: theta - 60), endAngle: Self.angle(bearing: theta))
        canvas.fill(path, with: .gradient(.conic(center: c, startAngle: Self.angle(bearing: theta - 60), stops: GradientStops(
            GradientStop(0, bright.withAlpha(0)), GradientStop(1.0 / 6, bright.withAlpha(0.55)),
            GradientStop(0.5, bright.withAlpha(0.55)), GradientStop(0.5, bright.withAlpha(0))))))

        // Sweep line.
        path.removeAll()
        path.move(to: c)
        path.line(to: Self.polar(c, theta, R))
        canvas.stroke(path, style: StrokeStyle(width: 2 * s), with: .solid(bright))

        // Blips.
        for k in 0..<12 {
            let fk = 0.618034 * Float(k)
            let p = Self.polar(c, 137.5 * Float(k), R * (0.2 + 0.7 * (fk - floorf(fk))))
            path.removeAll()
            path.addCircle(center: p, radius: 14 * s)
            canvas.fill(path, with: .gradient(.radial(center: p, radius: 14 * s, stops: GradientStops(
                GradientStop(0, bright.withAlpha(0.4)), GradientStop(1, bright.withAlpha(0))))))
            path.removeAll()
            path.addCircle(center: p, radius: 4 * s)
            canvas.fill(path, with: .solid(bright))
        }

        // Compass labels: centred by advance, and vertically by cap height.
        let labelColor = Color(hex: 0x8FD9B6)
        for (i, label) in ["N", "E", "S", "W"].enumerated() {
            let p = Self.polar(c, 90 * Float(i), R + 22 * s)
            text.draw(label, font: fonts.label, at: Point(p.x, p.y + fonts.label.capHeight / 2),
                      alignment: .center, color: labelColor, in: canvas)
        }
        let rangeColor = Color(hex: 0x5E9C86)
        for (i, label) in ["5", "10", "15"].enumerated() {
            let p = Self.polar(c, 45, R * 0.25 * Float(i + 1))
            text.draw(label, font: fonts.range, at: Point(p.x, p.y - 4 * s), color: rangeColor, in: canvas)
        }

        // Card.
        let card = Rect(x: 0.58 * W, y: 0.20 * H, width: 0.36 * W, height: 0.60 * H)
        path.removeAll()
        path.addRoundedRect(card, cornerRadius: 24 * s)
        canvas.fill(path, with: .solid(Color(hex: 0x121C26, alpha: 0.92)))
        canvas.stroke(path, style: StrokeStyle(width: 1 * s), with: .solid(green.withAlpha(0.5)))
        let x = card.x + 40 * s
        let white = Color(hex: 0xE8F1F2)
        text.draw("OVERFLIGHT", font: fonts.f28, at: Point(x, card.y + 60 * s), color: bright, in: canvas)
        text.draw("BAW283", font: fonts.f72, at: Point(x, card.y + 150 * s), color: white, in: canvas)
        text.draw("B789 · LHR → LAX", font: fonts.f32, at: Point(x, card.y + 200 * s), color: Color(hex: 0x9FB3BF), in: canvas)
        text.draw("ALT 36,000 ft", font: fonts.f40, at: Point(x, card.y + 280 * s), color: white, in: canvas)
        text.draw("GS 487 kt", font: fonts.f40, at: Point(x, card.y + 340 * s), color: white, in: canvas)
        text.draw("DIST 3.2 NM", font: fonts.f40, at: Point(x, card.y + 400 * s), color: white, in: canvas)
        text.draw("BRG 274°", font: fonts.f40, at: Point(x, card.y + 460 * s), color: white, in: canvas)
    }
}
