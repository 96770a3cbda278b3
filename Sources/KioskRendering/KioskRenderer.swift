import AnimationCore
import KioskModel
#if canImport(Glibc)
import Glibc
#endif
import Raster
import Typography

/// Draws the scene's render list: the dial through DialPainter, the card, and
/// every text leaf with its content transition.
public final class KioskRenderer: TextMeasuring {
    public let fonts: FontSet
    public let text: TextRenderer
    private var dial = DialPainter()
    private var path = Path()
    private let transitions = ContentTransitionPainter()

    public static let background = Color(hex: 0x0B1016)
    /// The smallest text drawn, in px: legible on a 7-inch 800x480 panel at arm's length.
    public static let minimumTextSize: Float = 12
    static let cardFill = Color(hex: 0x121C26, alpha: 0.92)
    static let cardStroke = Color(hex: 0x2FA37A, alpha: 0.5)
    static let alertColor = Color(hex: 0xFFB347)

    /// The colour and face of each text style; the audit reads these too.
    public func textStyle(_ style: KioskStyle) -> (face: FontFace, color: Color, alignment: TextAlignment) {
        switch style {
        case .status: return (fonts.regular, Color(hex: 0x6CFFB5), .left)
        // Amber, not the status green: an alert reads as one across the room.
        case .alertStatus: return (fonts.bold, Self.alertColor, .left)
        case .callsign: return (fonts.regular, Color(hex: 0xE8F1F2), .left)
        case .route: return (fonts.regular, Color(hex: 0x9FB3BF), .left)
        case .rowLabel: return (fonts.regular, Color(hex: 0x9FB3BF), .left)
        // The proportional face: its digits are tabular (one width, not kerned), so
        // numbers stay right-aligned while they roll, and "36,000 ft" does not
        // give the comma and the space a digit's width as the mono face did.
        case .rowValue: return (fonts.regular, Color(hex: 0xE8F1F2), .right)
        case .note: return (fonts.regular, Color(hex: 0xF2C46C), .left)
        case .dial, .marker, .card, .alertCard: return (fonts.regular, Color(hex: 0xE8F1F2), .left)
        }
    }

    /// The advance of `string` as `drawText` would draw it.
    public func width(of string: String, style: KioskStyle, size: Double) -> Double {
        let font = Font(face: textStyle(style).face, approximateSize: Float(size))
        return Double(text.shaper.shape(string, font: font).advance)
    }

    public init(fonts: FontSet, text: TextRenderer = TextRenderer()) {
        self.fonts = fonts
        self.text = text
    }

    /// Draws a whole frame: background, then the render list in paint order.
    /// `minimumTextSize` is the screen's smallest legible text (the layout's):
    /// the dial's labels never go below it.
    public func draw(_ items: [RenderItem], sweepBearing: Double, minimumTextSize: Float, into canvas: Canvas) {
        canvas.resetDamage()
        drawnDial = nil
        canvas.opacity = 1
        canvas.clear(Self.background)
        for var item in items where item.opacity > 0.001 && item.scale > 0.01 {
            guard let style = KioskStyle(item.style) else { continue }
            // A scale transition scales the leaf about its centre: its frame, and with it the text's size.
            if item.scale != 1 { item.frame = item.frame.scaled(by: item.scale) }
            canvas.opacity = Float(min(item.opacity, 1))
            switch style {
            case .dial: drawDial(item, sweepBearing: sweepBearing, minimumTextSize: minimumTextSize, in: canvas)
            case .marker: drawMarker(item, in: canvas)
            case .card: drawCard(item, stroke: Self.cardStroke, width: 1, in: canvas)
            case .alertCard: drawCard(item, stroke: Self.alertColor, width: 3, in: canvas)
            default: drawText(item, style: style, in: canvas)
            }
        }
        canvas.opacity = 1
    }

    /// The sizes of the dial's compass (N, E, S, W) and range (5, 10, 15)
    /// labels: the design's, scaled with the dial, never below the screen's minimum.
    public func dialLabelSizes(_ item: RenderItem, minimumTextSize: Float) -> (compass: Float, range: Float) {
        let s = Float(item.frame.width / 2) / (0.42 * 1080)
        let minimum = max(minimumTextSize, Self.minimumTextSize)
        return (max(24 * s, minimum), max(16 * s, minimum))
    }

    private func drawDial(_ item: RenderItem, sweepBearing: Double, minimumTextSize: Float, in canvas: Canvas) {
        let f = item.frame
        let radius = Float(f.width / 2)
        let s = radius / (0.42 * 1080)
        let labels = dialLabelSizes(item, minimumTextSize: minimumTextSize)
        let channels = DialChannels(item.custom)
        drawnDial = (Point(Float(f.midX), Float(f.midY)), radius, s)
        dial.draw(DialPainter.Parameters(center: Point(Float(f.midX), Float(f.midY)), radius: radius, scale: s,
                                         sweepBearing: Float(sweepBearing), sweepOpacity: Float(1 - channels.stillness), showsBlips: false,
                                         marker: nil, rangeLabels: ("5", "10", "15")),
                  labelFont: Font(face: fonts.regular, approximateSize: labels.compass),
                  rangeFont: Font(face: fonts.regular, approximateSize: labels.range), text: text, in: canvas)
    }

    /// The dial drawn last in this frame: its markers are placed on it.
    private var drawnDial: (center: Point, radius: Float, scale: Float)?

    /// An aircraft's marker: its leaf's frame is the blip's place; the line runs from the dial's centre through it.
    private func drawMarker(_ item: RenderItem, in canvas: Canvas) {
        guard let (c, radius, s) = drawnDial, radius > 0 else { return }
        let dx = Float(item.frame.x) - c.x, dy = Float(item.frame.y) - c.y
        let bearing = atan2f(dx, -dy) * 180 / .pi
        dial.drawMarker(center: c, radius: radius, scale: s, bearing: bearing, range: min((dx * dx + dy * dy).squareRoot() / radius, 1),
                        opacity: 1, in: canvas)
    }

    private func drawCard(_ item: RenderItem, stroke: Color, width: Float, in canvas: Canvas) {
        let f = item.frame
        let s = Float(f.height / 648)
        path.removeAll()
        path.addRoundedRect(Rect(x: Float(f.x), y: Float(f.y), width: Float(f.width), height: Float(f.height)), cornerRadius: 24 * s)
        canvas.fill(path, with: .solid(Self.cardFill))
        canvas.stroke(path, style: StrokeStyle(width: max(width * s, width)), with: .solid(stroke))
    }

    private func drawText(_ item: RenderItem, style: KioskStyle, in canvas: Canvas) {
        guard case let .text(string) = item.content, !string.isEmpty || item.contentTransition != nil else { return }
        let look = textStyle(style)
        let font = Font(face: look.face, approximateSize: Float(item.frame.height))
        // A text leaf's frame: x is its anchor, the baseline is at its bottom.
        let anchor = Point(Float(item.frame.x), Float(item.frame.maxY))
        if let change = item.contentTransition {
            let from = change.fromFrame
            transitions.draw(change, font: font, anchor: anchor, fromAnchor: Point(Float(from.x), Float(from.maxY)),
                             alignment: look.alignment, color: look.color, opacity: 1, text: text, in: canvas)
        } else {
            text.draw(string, font: font, at: anchor, alignment: look.alignment, color: look.color, in: canvas)
        }
    }
}

extension AnimatableRect {
    /// The rectangle scaled by `factor` about its centre.
    func scaled(by factor: Double) -> AnimatableRect {
        AnimatableRect(x: midX - width * factor / 2, y: midY - height * factor / 2, width: width * factor, height: height * factor)
    }
}
