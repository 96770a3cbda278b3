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
        /// 1 while sweeping, 0 when the still face has replaced the sweep (the kiosk's calmer sweep less).
        public var sweepOpacity: Float
        /// 1 while the face is live, dimmed on the still face: the traffic
        /// fades with the face, whatever the sweep's own brightness (or none).
        public var trafficOpacity: Float = 1
        /// The highlighted blip's (the aircraft the card shows): 0 on the still
        /// face, where its marker shows it.
        public var highlightedTrafficOpacity: Float = 1
        /// The sweep's bright edge alone, without the wedge fading behind it.
        public var sweepEdgeOnly = false
        public var showsBlips: Bool
        /// The aircraft on the still face: bearing, fraction of the range, opacity.
        public var marker: (bearing: Float, range: Float, opacity: Float)?
        public var rangeLabels: (String, String, String)
        /// The rings' labels' colour: the reference scene's, or the kiosk's brighter one.
        public var rangeLabelColor = DialPainter.referenceRangeLabelColor
        /// The colour of the compass's N, E, S, W.
        public var compassLabelColor = DialPainter.compassLabelColor
        /// Whether each ring's label stands on a plate of the disc's colour
        /// (the kiosk's): the sweep passes under it and the ring does not
        /// strike through it. The reference scene has none.
        public var rangeLabelPlates = false
        /// The compass bearing at the top (0: north up): the compass labels,
        /// the ticks and the crosshair turn by it; the sweep is the screen's.
        public var facing: Float = 0

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
    /// The disc's gradient, centre to rim, and the labels drawn on and around it.
    public static let discCentre = Color(hex: 0x15303A), discRim = Color(hex: 0x0B1620)
    public static let compassLabelColor = Color(hex: 0x8FD9B6)
    /// The reference scene's ring labels: 4.3:1 on the disc's centre, under
    /// the 4.5:1 the kiosk's text keeps.
    public static let referenceRangeLabelColor = Color(hex: 0x5E9C86)
    /// The kiosk's ring labels (the traffic's ranges): 5.3:1 on the disc's centre.
    public static let rangeLabelColor = Color(hex: 0x6AAE95)
    public static let bright = Color(hex: 0x6CFFB5)
    private var path = Path()

    public init() {}

    /// An aircraft on the dial: a line from the centre to the rim along its
    /// bearing, and a bright blip at its range (0...1 of the radius).
    /// `color` is the mark's: the sweep's green, or an alert's colour. The
    /// kiosk draws no line from the centre (it read as a heading) and, where
    /// the track is known, an aircraft symbol pointing along it (`heading`,
    /// degrees clockwise from the dial's top) over the blip's glow.
    public mutating func drawMarker(center c: Point, radius R: Float, scale s: Float, bearing: Float, range: Float, opacity: Float,
                                    color: Color = DialPainter.bright, bearingLine: Bool = true, heading: Float? = nil, in canvas: Canvas) {
        let saved = canvas.opacity
        canvas.opacity = saved * opacity
        if bearingLine {
            path.removeAll()
            path.move(to: c)
            path.line(to: Self.polar(c, bearing, R))
            canvas.stroke(path, style: StrokeStyle(width: 1.5 * s), with: .solid(color.withAlpha(0.45)))
        }
        if range <= 1, let heading {
            let q = Self.polar(c, bearing, R * range)
            path.removeAll()
            path.addCircle(center: q, radius: 22 * s)
            canvas.fill(path, with: .gradient(.radial(center: q, radius: 22 * s, stops: GradientStops(
                GradientStop(0, color.withAlpha(0.35)), GradientStop(1, color.withAlpha(0))))))
            // An arrowhead: its tip ahead along the track, its wings behind, a notch between them.
            let u = 1.7 * s
            path.removeAll()
            path.move(to: Self.polar(q, heading, 9 * u))
            path.line(to: Self.polar(q, heading + 140, 7 * u))
            path.line(to: Self.polar(q, heading + 180, 3 * u))
            path.line(to: Self.polar(q, heading - 140, 7 * u))
            path.close()
            canvas.fill(path, with: .solid(color))
        } else if range <= 1 {
            drawBlip(at: Self.polar(c, bearing, R * range), scale: s * 1.6, color: color, in: canvas)
        } else {
            // Beyond the range: an arrowhead on the rim pointing out, not a blip
            // pinned there as if the aircraft were at the dial's edge.
            let tip = Self.polar(c, bearing, R + 6 * s), base = R - 16 * s
            let spread = 9 * s / base * 180 / .pi   // half the base's width, as an angle seen from the centre
            path.removeAll()
            path.move(to: tip)
            path.line(to: Self.polar(c, bearing - spread, base))
            path.line(to: Self.polar(c, bearing + spread, base))
            path.close()
            canvas.fill(path, with: .solid(color))
        }
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

    /// The whole dial: its face, the sweep, blips and the marker, the labels.
    public mutating func draw(_ p: Parameters, labelFont: Font, rangeFont: Font, text: TextRenderer, in canvas: Canvas) {
        drawFace(p, in: canvas)
        drawSweep(p, in: canvas)
        drawBlipsAndMarker(p, in: canvas)
        drawCompassLabels(p, font: labelFont, text: text, in: canvas)
        drawRangeLabels(p, font: rangeFont, text: text, in: canvas)
    }

    /// What does not move while the dial sweeps: disc, rings, crosshair, ticks.
    public mutating func drawFace(_ p: Parameters, in canvas: Canvas) {
        let c = p.center, R = p.radius, s = p.scale
        let green = Self.green

        path.removeAll()
        path.addCircle(center: c, radius: R)
        canvas.fill(path, with: .gradient(.radial(center: c, radius: R, stops: GradientStops(
            GradientStop(0, Self.discCentre), GradientStop(1, Self.discRim)))))

        path.removeAll()
        for i in 1...4 { path.addCircle(center: c, radius: R * 0.25 * Float(i)) }
        canvas.stroke(path, style: StrokeStyle(width: 1.5 * s), with: .solid(green.withAlpha(0.35)))

        path.removeAll()
        if p.facing == 0 {
            path.move(to: Point(c.x, c.y - R)); path.line(to: Point(c.x, c.y + R))
            path.move(to: Point(c.x - R, c.y)); path.line(to: Point(c.x + R, c.y))
        } else {
            for b: Float in [0, 90] {
                path.move(to: Self.polar(c, b - p.facing, R)); path.line(to: Self.polar(c, b + 180 - p.facing, R))
            }
        }
        canvas.stroke(path, style: StrokeStyle(width: 1 * s), with: .solid(green.withAlpha(0.25)))

        for major in 0...1 {
            path.removeAll()
            let L = (major == 1 ? 0.08 : 0.04) * R
            for i in 0..<72 where (i % 6 == 0) == (major == 1) {
                let b = Float(i) * 5 - p.facing
                path.move(to: Self.polar(c, b, R - L))
                path.line(to: Self.polar(c, b, R))
            }
            canvas.stroke(path, style: StrokeStyle(width: (major == 1 ? 2 : 1) * s), with: .solid(green.withAlpha(0.6)))
        }
    }

    /// The sweep: a conic ramp over the 60° behind its bearing, and its bright edge.
    public mutating func drawSweep(_ p: Parameters, in canvas: Canvas) {
        guard p.sweepOpacity > 0 else { return }
        let c = p.center, R = p.radius, s = p.scale, bright = Self.bright
        let theta = p.sweepBearing
        let saved = canvas.opacity
        canvas.opacity = saved * p.sweepOpacity
        // Conic ramp: transparent at theta - 60, a 0.55 at theta, held a little
        // past it for the edge's antialiased pixels.
        if !p.sweepEdgeOnly {
            path.removeAll()
            path.addPie(center: c, radius: R, startAngle: Self.angle(bearing: theta - 60), endAngle: Self.angle(bearing: theta))
            canvas.fill(path, with: .gradient(.conic(center: c, startAngle: Self.angle(bearing: theta - 60), stops: GradientStops(
                GradientStop(0, bright.withAlpha(0)), GradientStop(1.0 / 6, bright.withAlpha(Self.sweepPeakAlpha)),
                GradientStop(0.5, bright.withAlpha(Self.sweepPeakAlpha)), GradientStop(0.5, bright.withAlpha(0))))))
        }
        path.removeAll()
        path.move(to: c)
        path.line(to: Self.polar(c, theta, R))
        canvas.stroke(path, style: StrokeStyle(width: 2 * s), with: .solid(bright))
        canvas.opacity = saved
    }

    /// The wedge's brightest, at full sweep opacity: the reference scene's 0.55.
    public static let sweepPeakAlpha: Float = 0.55

    /// Where `drawSweep` can put ink, in device pixels: the box of the pie
    /// (its centre, the two ends of its arc, and the compass points the arc
    /// passes), grown by the edge's width and the antialiasing.
    public func sweepBounds(_ p: Parameters) -> IntRect {
        guard p.sweepOpacity > 0 else { return .empty }
        let c = p.center, R = p.radius
        var lower = c, upper = c
        func include(_ q: Point) { lower = pointwiseMin(lower, q); upper = pointwiseMax(upper, q) }
        let start = p.sweepBearing - 60, end = p.sweepBearing
        include(Self.polar(c, start, R))
        include(Self.polar(c, end, R))
        // The compass points inside (start, end): the arc's extremes.
        var b = (floorf(start / 90) + 1) * 90
        while b < end {
            include(Self.polar(c, b, R))
            b += 90
        }
        let grow = 2 * p.scale + 2
        return Rect(x: lower.x - grow, y: lower.y - grow, width: upper.x - lower.x + 2 * grow,
                    height: upper.y - lower.y + 2 * grow).enclosingPixels
    }

    /// The reference scene's twelve blips and, on the still face, the aircraft's marker.
    public mutating func drawBlipsAndMarker(_ p: Parameters, in canvas: Canvas) {
        let c = p.center, R = p.radius, s = p.scale
        if p.showsBlips {
            for k in 0..<12 {
                let fk = 0.618034 * Float(k)
                drawBlip(at: Self.polar(c, 137.5 * Float(k), R * (0.2 + 0.7 * (fk - floorf(fk)))), scale: s, in: canvas)
            }
        }
        if let marker = p.marker, marker.opacity > 0 {
            drawMarker(center: c, radius: R, scale: s, bearing: marker.bearing, range: marker.range, opacity: marker.opacity, in: canvas)
        }
    }

    /// N, E, S and W outside the rim.
    public func drawCompassLabels(_ p: Parameters, font: Font, text: TextRenderer, in canvas: Canvas) {
        for i in 0..<4 { drawCompassLabel(i, p, font: font, text: text, in: canvas) }
    }

    /// One of N, E, S, W (0...3), upright wherever the facing puts it.
    public func drawCompassLabel(_ i: Int, _ p: Parameters, font: Font, text: TextRenderer, in canvas: Canvas) {
        text.draw(Self.compassLabels[i], font: font, at: compassLabelBaseline(i, p, font: font),
                  alignment: .center, color: p.compassLabelColor, in: canvas)
    }

    public static let compassLabels = ["N", "E", "S", "W"]

    /// Where compass label `i` is drawn: centred on its bearing outside the
    /// rim, the baseline half a capital below that point.
    public func compassLabelBaseline(_ i: Int, _ p: Parameters, font: Font) -> Point {
        let q = Self.polar(p.center, 90 * Float(i) - p.facing, p.radius + 22 * p.scale)
        return Point(q.x, q.y + font.capHeight / 2)
    }

    /// The three rings' ranges, along the north-east diagonal.
    public mutating func drawRangeLabels(_ p: Parameters, font: Font, text: TextRenderer, in canvas: Canvas) {
        for i in 0..<3 { drawRangeLabel(i, p, font: font, text: text, in: canvas) }
    }

    /// The range of ring `i + 1` (0...2), on its plate where the kiosk wants one.
    public mutating func drawRangeLabel(_ i: Int, _ p: Parameters, font: Font, text: TextRenderer, in canvas: Canvas) {
        let label = i == 0 ? p.rangeLabels.0 : i == 1 ? p.rangeLabels.1 : p.rangeLabels.2
        let (baseline, plate) = rangeLabelPlace(i, p, font: font, text: text)
        if p.rangeLabelPlates {
            path.removeAll()
            path.addRoundedRect(plate, cornerRadius: Self.rangeLabelPad(p))
            canvas.fill(path, with: .solid(Self.rangeLabelPlate))
        }
        text.draw(label, font: font, at: baseline, color: p.rangeLabelColor, in: canvas)
    }

    /// Where ring `i`'s label stands: its baseline's start, and the plate
    /// around its capitals (what other marks keep clear of).
    public func rangeLabelPlace(_ i: Int, _ p: Parameters, font: Font, text: TextRenderer) -> (baseline: Point, plate: Rect) {
        let label = i == 0 ? p.rangeLabels.0 : i == 1 ? p.rangeLabels.1 : p.rangeLabels.2
        let q = Self.polar(p.center, 45, p.radius * 0.25 * Float(i + 1))
        let baseline = Point(q.x, q.y - 4 * p.scale)
        let pad = Self.rangeLabelPad(p)
        return (baseline, Rect(x: baseline.x - pad, y: baseline.y - font.capHeight - pad,
                               width: text.measure(label, font: font).advance + 2 * pad, height: font.capHeight + 2 * pad))
    }

    private static func rangeLabelPad(_ p: Parameters) -> Float { 3 * p.scale + 1 }

    /// The plate under each ring's label: the disc's darkest colour (its
    /// rim's), nearly opaque: a faint backing on the still disc, and under
    /// the sweep what keeps the label at 4.5:1.
    public static let rangeLabelPlate = discRim.withAlpha(0.9)

    /// What is behind ring `ring`'s (0...2) label on its plate with the
    /// sweep at its brightest over it (the wedge's peak at full opacity).
    public static func rangeLabelGroundUnderSweep(ring: Int) -> UInt32 {
        let disc = discCentre.interpolated(to: discRim, amount: 0.25 * Float(ring + 1)).premultipliedPixel
        let swept = PixelMath.sourceOver(bright.withAlpha(sweepPeakAlpha).premultipliedPixel, disc)
        return PixelMath.sourceOver(rangeLabelPlate.premultipliedPixel, swept)
    }

    /// An aircraft of the traffic: a smaller glow and dot than the reference's
    /// blips, so fifty of them leave the dial readable; the one the card shows
    /// is drawn as the marker's blip.
    public mutating func drawTrafficBlip(at q: Point, scale s: Float, highlighted: Bool, in canvas: Canvas) {
        if highlighted {
            drawBlip(at: q, scale: s * 1.6, in: canvas)
        } else {
            drawGlowAndDot(at: q, glow: Self.trafficGlowRadius * s, glowAlpha: 0.35, dot: 2.5 * s, in: canvas)
        }
    }

    /// How far a traffic blip's glow reaches, at scale 1.
    public static let trafficGlowRadius: Float = 8

    /// A glow (radial ramp to transparent) and a solid dot.
    private mutating func drawBlip(at q: Point, scale s: Float, color: Color = DialPainter.bright, in canvas: Canvas) {
        drawGlowAndDot(at: q, glow: 14 * s, glowAlpha: 0.4, dot: 4 * s, color: color, in: canvas)
    }

    /// A blip of any size: a radial ramp from `glowAlpha` to transparent, and a solid dot.
    private mutating func drawGlowAndDot(at q: Point, glow: Float, glowAlpha: Float, dot: Float, color: Color = DialPainter.bright,
                                         in canvas: Canvas) {
        path.removeAll()
        path.addCircle(center: q, radius: glow)
        canvas.fill(path, with: .gradient(.radial(center: q, radius: glow, stops: GradientStops(
            GradientStop(0, color.withAlpha(glowAlpha)), GradientStop(1, color.withAlpha(0))))))
        path.removeAll()
        path.addCircle(center: q, radius: dot)
        canvas.fill(path, with: .solid(color))
    }
}
