import AnimationCore
import KioskModel
#if canImport(Glibc)
import Glibc
#endif
import Raster
import SystemIO
import Typography

/// Draws the scene's render list: the dial through DialPainter, the card, and
/// every text leaf with its content transition.
public final class KioskRenderer: TextMeasuring {
    public let fonts: FontSet
    public let text: TextRenderer
    private var dial = DialPainter()
    private let sweepCache = SweepCache()
    /// The sweep's pixel directions while the dial stays put (`sweepAngles`).
    let sweepDirections = ConicAngleMap()
    /// Where the dial's centre was when it was last drawn.
    private var lastDialCenter: Point?
    private var path = Path()
    private let transitions = ContentTransitionPainter()
    private let sprites = BlipSprites()
    /// The traffic of the frame being drawn.
    private var traffic: TrafficPicture?
    /// How the traffic's blips were drawn last frame, and this frame.
    private var blipMarks: [BlipMark] = []
    private var nextBlipMarks: [BlipMark] = []
    /// The boxes a sweep frame redraws.
    private var redrawBoxes: [IntRect] = []

    public static let background = Color(hex: 0x0B1016)
    /// The smallest text drawn, in px: legible on a 7-inch 800x480 panel at arm's length.
    public static let minimumTextSize: Float = 12
    static let cardFill = Color(hex: 0x121C26, alpha: 0.92)
    static let cardStroke = Color(hex: 0x2FA37A, alpha: 0.5)
    static let alertColor = Color(hex: 0xFFB347)
    /// Distress (7500, 7700): red, 5.5:1 on the card.
    static let distressColor = Color(hex: 0xFF5A5F)
    /// Interest (military, watched): a calm blue, no alarm.
    static let interestColor = Color(hex: 0x7CC4FF)

    /// The colour of an alert style's level.
    static func alertColor(_ style: KioskStyle) -> Color? {
        switch style {
        case .alertCard, .alertStatus, .alertMarker: return alertColor
        case .distressCard, .distressStatus, .distressMarker: return distressColor
        case .interestCard, .interestStatus, .interestMarker: return interestColor
        default: return nil
        }
    }

    /// The colour and face of each text style as drawn now; the audit reads these too.
    public func textStyle(_ style: KioskStyle) -> (face: FontFace, color: Color, alignment: TextAlignment) {
        var look = designedTextStyle(style)
        if !dimmedColors.isEmpty { look.color = dimmedColors[style.rawValue] }
        return look
    }

    /// The screen's brightness, 0...1: a backlight lowered at night, or the
    /// picture dimmed in linear light. Below full, text that would read
    /// below 4.5:1 at it (WCAG's contrast, glare counted) is drawn lighter,
    /// in linear light toward white, as little as that takes. Set it before
    /// a whole frame (the card's text changes with it).
    public var screenBrightness = 1.0 {
        didSet {
            guard screenBrightness != oldValue else { return }
            dimmedColors = screenBrightness >= 1 ? [] : KioskStyle.allCases.map {
                Self.readable(designedTextStyle($0).color, at: screenBrightness)
            }
            dialLabelColors = Self.lightenedDialLabels(at: screenBrightness)
        }
    }
    /// Each style's text colour at `screenBrightness`, by raw value; empty at full brightness.
    private var dimmedColors: [Color] = []

    /// The colours the dial's labels are drawn in at `screenBrightness`: the
    /// rings' (and the airports') and the compass's, lightened as the card's
    /// text is, on the brightest ground each stands on.
    public private(set) var dialLabelColors = lightenedDialLabels(at: 1)

    static func lightenedDialLabels(at brightness: Double) -> (range: Color, compass: Color) {
        guard brightness < 1 else { return (DialPainter.rangeLabelColor, DialPainter.compassLabelColor) }
        // The rings' labels: on the disc's centre, and on their plates under the sweep.
        let rangeGrounds = [DialPainter.discCentre.premultipliedPixel] + (0..<3).map { DialPainter.rangeLabelGroundUnderSweep(ring: $0) }
        let range = rangeGrounds.reduce(DialPainter.rangeLabelColor) { readable($0, at: brightness, on: $1) }
        return (range, readable(DialPainter.compassLabelColor, at: brightness, on: background.premultipliedPixel))
    }

    /// The contrast text keeps at any brightness where it can: the audit's
    /// 4.5:1, and a little over it for the 8-bit rounding of the dimmed pixels.
    static let readableContrast = 4.6

    /// `color`, or the least lightening of it that reads at `readableContrast`
    /// on the card at `brightness` (white where nothing does).
    static func readable(_ color: Color, at brightness: Double) -> Color {
        // The card over the background, blended as the renderer blends: the
        // brightest ground text stands on.
        let a = cardFill.alpha
        let card = Color(red: cardFill.red * a + background.red * (1 - a), green: cardFill.green * a + background.green * (1 - a),
                         blue: cardFill.blue * a + background.blue * (1 - a))
        return readable(color, at: brightness, on: card.premultipliedPixel)
    }

    /// `color`, or the least lightening of it that reads at `readableContrast`
    /// on the opaque pixel `ground` at `brightness`.
    static func readable(_ color: Color, at brightness: Double, on ground: UInt32) -> Color {
        func light(_ c: Color) -> (Double, Double, Double) {
            (LinearDimming.decoded(Double(c.red)), LinearDimming.decoded(Double(c.green)), LinearDimming.decoded(Double(c.blue)))
        }
        func luminance(_ l: (Double, Double, Double)) -> Double { 0.2126 * l.0 + 0.7152 * l.1 + 0.0722 * l.2 }
        func channel(_ shift: UInt32) -> Double { LinearDimming.decoded(Double((ground >> shift) & 0xFF) / 255) }
        let b = min(max(brightness, 0.01), 1)
        let needed = (readableContrast * (luminance((channel(16), channel(8), channel(0))) * b + 0.05) - 0.05) / b
        let l = light(color), have = luminance(l)
        guard have < needed else { return color }
        let t = min((needed - have) / max(1 - have, 1e-6), 1)
        func lifted(_ v: Double) -> Float { Float(LinearDimming.encoded(v + t * (1 - v))) }
        return Color(red: lifted(l.0), green: lifted(l.1), blue: lifted(l.2), alpha: color.alpha)
    }

    /// The colour and face of each text style as designed, at full brightness.
    private func designedTextStyle(_ style: KioskStyle) -> (face: FontFace, color: Color, alignment: TextAlignment) {
        switch style {
        case .status: return (fonts.regular, Color(hex: 0x6CFFB5), .left)
        // Amber, not the status green: an alert reads as one across the room.
        case .alertStatus, .distressStatus, .interestStatus: return (fonts.bold, Self.alertColor(style) ?? Self.alertColor, .left)
        case .callsign: return (fonts.regular, Color(hex: 0xE8F1F2), .left)
        case .route: return (fonts.regular, Color(hex: 0x9FB3BF), .left)
        case .rowLabel: return (fonts.regular, Color(hex: 0x9FB3BF), .left)
        // The proportional face: its digits are tabular (one width, not kerned), so
        // numbers stay right-aligned while they roll, and "36,000 ft" does not
        // give the comma and the space a digit's width as the mono face did.
        case .rowValue: return (fonts.regular, Color(hex: 0xE8F1F2), .right)
        case .note, .noDataStatus: return (fonts.regular, Color(hex: 0xF2C46C), .left)
        case .credit, .place, .today, .journeyDestination, .registration: return (fonts.regular, Color(hex: 0x9FB3BF), .right)
        case .clock: return (fonts.regular, Color(hex: 0xE8F1F2), .right)
        case .dial, .marker, .card, .journey, .alertCard, .distressCard, .interestCard, .alertMarker, .distressMarker, .interestMarker:
            return (fonts.regular, Color(hex: 0xE8F1F2), .left)
        }
    }

    /// The advance of `string` as `drawText` would draw it.
    public func width(of string: String, style: KioskStyle, size: Double) -> Double {
        let font = Font(face: textStyle(style).face, approximateSize: Float(size))
        return Double(text.shaper.shape(string, font: font).advance)
    }

    /// How the dial sweeps (the controller's, set by the frame tick before each
    /// frame). The sweep cache holds the dial without its sweep, so a change
    /// needs no whole frame: the next sweep frame redraws the old sweep's box and the new.
    public var sweep = SweepSettings()
    /// The rings' labels without traffic (with it, the traffic's), in the card's unit: the controller's, set by the frame tick.
    public var ringLabels = ("5", "10", "15 NM")

    public init(fonts: FontSet, text: TextRenderer = TextRenderer()) {
        self.fonts = fonts
        self.text = text
        blipMarks.reserveCapacity(64)
        nextBlipMarks.reserveCapacity(64)
        redrawBoxes.reserveCapacity(1 + 4 * 128)
    }

    /// Draws a frame: background, then the render list in paint order.
    /// `minimumTextSize` is the screen's smallest legible text (the layout's):
    /// the dial's labels never go below it. `unchanged` says the render list
    /// is the one drawn last time into this canvas (only the sweep moved):
    /// then only the sweep's part of the dial is drawn again, with the same
    /// pixels as a whole frame, and the canvas's damage is that part.
    /// `traffic` puts the aircraft around on the sweeping dial.
    public func draw(_ items: [RenderItem], sweepBearing: Double, traffic: TrafficPicture? = nil, minimumTextSize: Float,
                     unchanged: Bool = false, into canvas: Canvas) {
        self.traffic = traffic
        if unchanged, redrawsInParts, redrawSweep(items, sweepBearing: sweepBearing, minimumTextSize: minimumTextSize, in: canvas) { return }
        // A frame that fills the sweep cache is drawn whole here: the cache is the loop renderer's.
        if !unchanged, let bands {
            bands.draw(items, sweepBearing: sweepBearing, traffic: traffic, minimumTextSize: minimumTextSize, into: canvas)
            return
        }
        drawWhole(items, sweepBearing: sweepBearing, minimumTextSize: minimumTextSize, keepingSweepCache: unchanged, into: canvas)
    }

    /// How many threads draw a whole frame (1: the caller's alone).
    public var threads: Int { bands?.count ?? 1 }

    /// Draws whole frames in `threads` bands on as many threads, the
    /// caller's one of them (1: on the caller's alone). The threads are made
    /// here and sleep between frames; where they cannot be (no memory for a
    /// thread, the fonts gone), that is logged and frames stay on one thread.
    public func drawWholeFrames(threads: Int) {
        guard threads != self.threads else { return }
        bands = nil
        guard threads > 1 else { return }
        do {
            bands = try FrameBands(count: threads, loop: self)
        } catch {
            Log.line("radar-kiosk: drawing on one thread: \(threads) could not be started (\(error))")
        }
    }
    private(set) var bands: FrameBands?

    /// Draws band `rows` of a whole frame into `canvas`, whose buffer other
    /// threads draw the other bands of (FrameBands).
    func drawBand(_ rows: IntRect, skipping skipped: Range<Int>, _ items: [RenderItem], sweepBearing: Double, traffic: TrafficPicture?,
                  minimumTextSize: Float, into canvas: Canvas) {
        self.traffic = traffic
        canvas.save()
        canvas.clip(to: Rect(x: Float(rows.x), y: Float(rows.y), width: Float(rows.width), height: Float(rows.height)))
        canvas.skippedRows = skipped
        drawWhole(items, sweepBearing: sweepBearing, minimumTextSize: minimumTextSize, keepingSweepCache: false, into: canvas)
        canvas.skippedRows = 0..<0
        canvas.restore()
    }

    /// Draws the whole frame: the background, then every leaf. With
    /// `keepingSweepCache`, the dial under its sweep is kept for the sweep
    /// frames that follow.
    private func drawWhole(_ items: [RenderItem], sweepBearing: Double, minimumTextSize: Float, keepingSweepCache: Bool, into canvas: Canvas) {
        blipMarks.removeAll(keepingCapacity: true)
        canvas.resetDamage()
        drawnDial = nil
        canvas.opacity = 1
        canvas.clear(Self.background)
        sweepCache.invalidate()
        keepsSweepCache = keepingSweepCache
        for (index, item) in items.enumerated() where item.opacity > 0.001 && item.scale > 0.01 {
            guard let style = KioskStyle(item.style) else { continue }
            let damageBefore = canvas.damage
            canvas.resetDamage()
            drawLeaf(item, style: style, sweepBearing: sweepBearing, minimumTextSize: minimumTextSize, in: canvas)
            // A leaf drawn over the dial after it (the aircraft's marker) is drawn again where a sweep frame copies the dial back.
            if style != .dial && drawnDial != nil && !canvas.damage.intersection(sweepCache.box).isEmpty {
                sweepCache.addOverlay(item: index, box: canvas.damage)
            }
            canvas.includeDamage(damageBefore)
        }
        canvas.opacity = 1
    }

    /// Draws one leaf of the render list, at its opacity and scale.
    private func drawLeaf(_ item: RenderItem, style: KioskStyle, sweepBearing: Double, minimumTextSize: Float, in canvas: Canvas) {
        var item = item
        // A scale transition scales the leaf about its centre: its frame, and with it the text's size.
        if item.scale != 1 { item.frame = item.frame.scaled(aboutCenterBy: item.scale) }
        canvas.opacity = Float(min(item.opacity, 1))
        switch style {
        case .dial: drawDial(item, sweepBearing: sweepBearing, minimumTextSize: minimumTextSize, in: canvas)
        case .marker, .alertMarker, .distressMarker, .interestMarker: drawMarker(item, color: Self.alertColor(style), in: canvas)
        case .card: drawCard(item, stroke: Self.cardStroke, width: 1, in: canvas)
        case .alertCard, .distressCard, .interestCard: drawCard(item, stroke: Self.alertColor(style) ?? Self.alertColor, width: 3, in: canvas)
        case .journey: drawJourney(item, in: canvas)
        default: drawText(item, style: style, in: canvas)
        }
    }

    /// Whether an unchanged frame may be redrawn in parts (tests turn it off
    /// to get the whole frame a sweep frame must equal).
    var redrawsInParts = true

    /// Whether a full frame keeps the dial under its sweep for the frames that follow.
    private var keepsSweepCache = false

    /// A frame in which only the sweep and the traffic moved: the box of
    /// the last sweep and this one, and the boxes of each blip that moved
    /// (where it was and where it is, outside the sweep's box), copied back
    /// from the cache and drawn again, each clipped to its box: the sweep
    /// (in its box alone), the blips, the labels. Most blips move less than a
    /// quarter pixel a frame and are left alone. False (nothing drawn) when
    /// the cache cannot give the same pixels as a whole frame.
    private func redrawSweep(_ items: [RenderItem], sweepBearing: Double, minimumTextSize: Float, in canvas: Canvas) -> Bool {
        guard let item = items.first(where: { KioskStyle($0.style) == .dial }), item.scale == 1, item.opacity > 0.001 else { return false }
        let parameters = dialParameters(item, sweepBearing: sweepBearing)
        let itemOpacity = Float(min(item.opacity, 1))
        let sweep = dial.sweepBounds(parameters)
        let sweepBox = sweep.union(sweepCache.lastSweep)
        blipMarks(parameters, opacity: itemOpacity, into: &nextBlipMarks)
        redrawBoxes.removeAll(keepingCapacity: true)
        if !sweepBox.isEmpty { redrawBoxes.append(sweepBox) }
        for (i, mark) in blipMarks.enumerated() where !BlipMark.kept(mark, at: i, in: nextBlipMarks) { addOutside(mark.box, sweepBox) }
        for (i, mark) in nextBlipMarks.enumerated() where !BlipMark.kept(mark, at: i, in: blipMarks) { addOutside(mark.box, sweepBox) }
        for box in redrawBoxes where !sweepCache.covers(box, in: canvas.target) { return false }
        canvas.resetDamage()
        let fonts = dialFonts(item, minimumTextSize: minimumTextSize)
        var damage = IntRect.empty
        for (index, box) in redrawBoxes.enumerated() {
            sweepCache.restore(box, into: canvas.target)
            canvas.opacity = itemOpacity
            // Unclipped, as a whole frame draws it: its box holds it.
            if index == 0 && !sweep.isEmpty {
                canvas.conicAngles = sweepAngles(parameters, scale: item.scale)
                dial.drawSweep(parameters, in: canvas)
                canvas.conicAngles = nil
            }
            canvas.save()
            canvas.clip(to: Rect(x: Float(box.x), y: Float(box.y), width: Float(box.width), height: Float(box.height)))
            drawTraffic(parameters, within: box, sprites: true, in: canvas)
            // In the order a whole frame draws them.
            for i in 0..<7 where !box.intersection(sweepCache.labels[i]).isEmpty {
                drawDialLabel(i, parameters, fonts: fonts, in: canvas)
            }
            for overlay in sweepCache.overlays where overlay.item < items.count && !box.intersection(overlay.box).isEmpty {
                let leaf = items[overlay.item]
                guard let style = KioskStyle(leaf.style) else { continue }
                drawLeaf(leaf, style: style, sweepBearing: sweepBearing, minimumTextSize: minimumTextSize, in: canvas)
            }
            canvas.restore()
            damage = damage.union(box)
        }
        canvas.opacity = 1
        canvas.resetDamage()
        canvas.includeDamage(damage)
        sweepCache.lastSweep = sweep
        swap(&blipMarks, &nextBlipMarks)
        return true
    }

    /// Adds the part of `box` outside `sweepBox` (up to four strips) to the
    /// boxes to redraw: inside it, the sweep's box redraws everything.
    private func addOutside(_ box: IntRect, _ sweepBox: IntRect) {
        let overlap = box.intersection(sweepBox)
        if overlap.isEmpty {
            redrawBoxes.append(box)
            return
        }
        if overlap == box { return }
        // Above, below, left, right of the overlap (one at a time: an array here would allocate).
        func add(_ strip: IntRect) { if !strip.isEmpty { redrawBoxes.append(strip) } }
        add(IntRect(x: box.x, y: box.y, width: box.width, height: overlap.y - box.y))
        add(IntRect(x: box.x, y: overlap.maxY, width: box.width, height: box.maxY - overlap.maxY))
        add(IntRect(x: box.x, y: overlap.y, width: overlap.x - box.x, height: overlap.height))
        add(IntRect(x: overlap.maxX, y: overlap.y, width: box.maxX - overlap.maxX, height: overlap.height))
    }

    /// How each blip of the traffic will be drawn on the dial of `p`.
    private func blipMarks(_ p: DialPainter.Parameters, opacity: Float, into marks: inout [BlipMark]) {
        marks.removeAll(keepingCapacity: true)
        guard let traffic, p.trafficOpacity > 0, !traffic.blips.isEmpty else { return }
        sprites.prepare(scale: p.scale)
        for blip in traffic.blips {
            let q = Point(p.center.x + Float(blip.x) * p.radius, p.center.y - Float(blip.y) * p.radius)
            let alpha = UInt8(min(max(Self.opacity(of: blip, p) * opacity, 0), 1) * 255 + 0.5)
            // Unseen in both frames, it changes nothing.
            if alpha == 0 { continue }
            if blip.highlighted {
                let reach = 14 * 1.6 * p.scale + 2
                marks.append(BlipMark(serial: blip.serial, box: Rect(x: q.x - reach, y: q.y - reach, width: 2 * reach, height: 2 * reach).enclosingPixels,
                                      sprite: -1, alpha: alpha))
            } else {
                let placed = sprites.placement(for: q)
                marks.append(BlipMark(serial: blip.serial, box: IntRect(x: placed.x, y: placed.y, width: sprites.side, height: sprites.side),
                                      sprite: placed.index, alpha: alpha))
            }
        }
    }

    /// A blip's opacity on the dial of `p`: the traffic's, dimmed on the
    /// still face, or for the card's aircraft its highlight's, gone there.
    private static func opacity(of blip: TrafficBlip, _ p: DialPainter.Parameters) -> Float {
        Float(blip.opacity) * (blip.highlighted ? p.highlightedTrafficOpacity : p.trafficOpacity)
    }

    /// The traffic's blips that reach `box` (all of them for a whole frame),
    /// dimmed on the still face: from the sprites on a still dial (the frames a
    /// sweep frame follows), else drawn as paths (a gliding dial changes
    /// its scale every frame: sprites for each would be drawn and dropped).
    private func drawTraffic(_ p: DialPainter.Parameters, within box: IntRect?, sprites useSprites: Bool, in canvas: Canvas) {
        guard let traffic, p.trafficOpacity > 0, !traffic.blips.isEmpty else { return }
        if useSprites { sprites.prepare(scale: p.scale) }
        let saved = canvas.opacity
        for blip in traffic.blips {
            let q = Point(p.center.x + Float(blip.x) * p.radius, p.center.y - Float(blip.y) * p.radius)
            let opacity = Self.opacity(of: blip, p)
            if opacity <= 0 { continue }
            if blip.highlighted || !useSprites {
                canvas.opacity = saved * opacity
                dial.drawTrafficBlip(at: q, scale: p.scale, highlighted: blip.highlighted, in: canvas)
                canvas.opacity = saved
                continue
            }
            let placed = sprites.placement(for: q)
            if let box, box.intersection(IntRect(x: placed.x, y: placed.y, width: sprites.side, height: sprites.side)).isEmpty {
                continue
            }
            canvas.draw(sprites[placed.index], x: placed.x, y: placed.y, opacity: opacity)
        }
    }

    /// The airports around the station: a small ring each and its code to
    /// its right, in the rings' labels' colour and size, faded with the
    /// traffic (dimmed on the still face of an overflight).
    private func drawAirports(_ p: DialPainter.Parameters, fonts: (compass: Font, range: Font), in canvas: Canvas) {
        guard let traffic, p.trafficOpacity > 0, !traffic.airportMarks.isEmpty else { return }
        let saved = canvas.opacity
        canvas.opacity = saved * p.trafficOpacity
        let ring = Self.airportRing(p), plates = rangeLabelPlates(p, font: fonts.range)
        for mark in traffic.airportMarks {
            let q = Point(p.center.x + Float(mark.x) * p.radius, p.center.y - Float(mark.y) * p.radius)
            path.removeAll()
            path.addCircle(center: q, radius: ring)
            canvas.stroke(path, style: StrokeStyle(width: max(1.5 * p.scale, 1)), with: .solid(p.rangeLabelColor))
            let label = traffic.airports[mark.index].label
            text.draw(label, font: fonts.range, at: airportLabelBox(label, at: q, p, font: fonts.range, clearOf: plates).origin, alignment: .left,
                      color: p.rangeLabelColor, in: canvas)
        }
        canvas.opacity = saved
    }

    /// An airport's mark's radius on the dial of `p`.
    private static func airportRing(_ p: DialPainter.Parameters) -> Float { max(4 * p.scale, 2.5) }

    /// Where an airport's code stands beside its mark at `q`: its capitals'
    /// box, and the start of its baseline. To the mark's right, or to its
    /// left where the right would run into a ring's label.
    private func airportLabelBox(_ label: String, at q: Point, _ p: DialPainter.Parameters, font: Font,
                                 clearOf plates: (Rect, Rect, Rect)) -> (box: Rect, origin: Point) {
        let gap = Self.airportRing(p) + 4 * p.scale + 2, advance = text.shaper.shape(label, font: font).advance
        let baseline = q.y + font.capHeight / 2
        let right = Rect(x: q.x + gap, y: baseline - font.capHeight, width: advance, height: font.capHeight)
        let crosses = plates.0.intersects(right) || plates.1.intersects(right) || plates.2.intersects(right)
        let x = crosses ? q.x - gap - advance : q.x + gap
        return (Rect(x: x, y: right.y, width: advance, height: font.capHeight), Point(x, baseline))
    }

    /// The plates of the rings' three labels on the dial of `p` (a tuple: a whole frame allocates nothing).
    private func rangeLabelPlates(_ p: DialPainter.Parameters, font: Font) -> (Rect, Rect, Rect) {
        (dial.rangeLabelPlace(0, p, font: font, text: text).plate, dial.rangeLabelPlace(1, p, font: font, text: text).plate,
         dial.rangeLabelPlace(2, p, font: font, text: text).plate)
    }

    /// The boxes of the airports' codes on the dial of `item` as drawn, and of
    /// the rings' labels' plates: the codes keep clear of the plates.
    public func airportAndRangeLabelBoxes(_ item: RenderItem, minimumTextSize: Float) -> (airports: [Rect], rings: [Rect]) {
        let p = dialParameters(item, sweepBearing: 0)
        let font = dialFonts(item, minimumTextSize: minimumTextSize).range, plates = rangeLabelPlates(p, font: font)
        let airports = traffic.map { traffic in
            traffic.airportMarks.map { mark in
                airportLabelBox(traffic.airports[mark.index].label, at: Point(p.center.x + Float(mark.x) * p.radius, p.center.y - Float(mark.y) * p.radius),
                                p, font: font, clearOf: plates).box
            }
        } ?? []
        return (airports, [plates.0, plates.1, plates.2])
    }

    /// The sizes of the dial's compass (N, E, S, W) and range (5, 10, 15)
    /// labels: the design's, scaled with the dial, never below the screen's minimum.
    public func dialLabelSizes(_ item: RenderItem, minimumTextSize: Float) -> (compass: Float, range: Float) {
        let s = Float(item.frame.width / 2) / (0.42 * 1080)
        let minimum = max(minimumTextSize, Self.minimumTextSize)
        return (max(24 * s, minimum), max(16 * s, minimum))
    }

    /// The boxes of the dial's compass labels as drawn (their capitals),
    /// wherever the facing turned them: the audit keeps them on the screen.
    public func compassLabelBoxes(_ item: RenderItem, minimumTextSize: Float) -> [(label: String, box: Rect)] {
        let p = dialParameters(item, sweepBearing: 0)
        let font = dialFonts(item, minimumTextSize: minimumTextSize).compass
        return DialPainter.compassLabels.indices.map { i in
            let label = DialPainter.compassLabels[i]
            let baseline = dial.compassLabelBaseline(i, p, font: font)
            let advance = text.shaper.shape(label, font: font).advance
            return (label, Rect(x: baseline.x - advance / 2, y: baseline.y - font.capHeight, width: advance, height: font.capHeight))
        }
    }

    private func dialParameters(_ item: RenderItem, sweepBearing: Double) -> DialPainter.Parameters {
        let f = item.frame
        let radius = Float(f.width / 2)
        var p = DialPainter.Parameters(center: Point(Float(f.midX), Float(f.midY)), radius: radius, scale: radius / (0.42 * 1080),
                                       sweepBearing: Float(sweepBearing), sweepOpacity: Float(1 - DialChannels(item.custom).stillness),
                                       showsBlips: false, marker: nil, rangeLabels: traffic?.rangeLabels ?? ringLabels)
        p.rangeLabelColor = dialLabelColors.range
        p.compassLabelColor = dialLabelColors.compass
        p.rangeLabelPlates = true
        p.trafficOpacity = Float(DialChannels(item.custom).trafficOpacity)
        p.highlightedTrafficOpacity = p.sweepOpacity
        p.facing = Float(DialChannels(item.custom).facingDegrees)
        p.sweepOpacity *= sweep.sweeps ? Float(sweep.opacity) : 0
        p.sweepEdgeOnly = sweep.style == .line
        return p
    }

    private func dialFonts(_ item: RenderItem, minimumTextSize: Float) -> (compass: Font, range: Font) {
        let labels = dialLabelSizes(item, minimumTextSize: minimumTextSize)
        return (Font(face: fonts.regular, approximateSize: labels.compass), Font(face: fonts.regular, approximateSize: labels.range))
    }

    private func drawDial(_ item: RenderItem, sweepBearing: Double, minimumTextSize: Float, in canvas: Canvas) {
        let p = dialParameters(item, sweepBearing: sweepBearing)
        let fonts = dialFonts(item, minimumTextSize: minimumTextSize)
        drawnDial = (p.center, p.radius, p.scale)
        dial.drawFace(p, in: canvas)
        // The airports are part of the still face: the sweep frames restore them from its cache.
        drawAirports(p, fonts: fonts, in: canvas)
        let box = Self.dialBox(p)
        if keepsSweepCache && item.scale == 1 {
            sweepCache.take(box, of: canvas.target)
            // Until the next whole frame, only the sweep is drawn: the disc's
            // cells (3.3 MB at 1080p) need not stay resident meanwhile.
            canvas.releaseUnusedMemory()
        }
        canvas.conicAngles = sweepAngles(p, scale: item.scale)
        dial.drawSweep(p, in: canvas)
        canvas.conicAngles = nil
        sweepCache.lastSweep = dial.sweepBounds(p)
        drawTraffic(p, within: nil, sprites: keepsSweepCache, in: canvas)
        if keepsSweepCache { blipMarks(p, opacity: canvas.opacity, into: &blipMarks) }
        dial.drawBlipsAndMarker(p, in: canvas)
        // Each label alone, so that a sweep frame knows which ones it reaches.
        var damage = canvas.damage
        for i in 0..<7 {
            canvas.resetDamage()
            drawDialLabel(i, p, fonts: fonts, in: canvas)
            sweepCache.labels[i] = canvas.damage
            damage = damage.union(canvas.damage)
        }
        canvas.resetDamage()
        canvas.includeDamage(damage)
    }

    /// The face's box, grown by the sweep edge's reach: the sweep never leaves it.
    private static func dialBox(_ p: DialPainter.Parameters) -> IntRect {
        let grow = Int(2 * p.scale) + 3
        return Rect(x: p.center.x - p.radius, y: p.center.y - p.radius, width: 2 * p.radius, height: 2 * p.radius)
            .enclosingPixels.outset(by: grow)
    }

    /// The map of the sweep's pixel directions, while the dial is where it
    /// was the last time it was drawn: the sweep then looks its angles up
    /// instead of working out an arc tangent per pixel, half its cost. A
    /// gliding dial works them out (its map would be new every frame). The
    /// map changes no pixel: with or without it, a conic ramp finds its
    /// entries from the same angles.
    private func sweepAngles(_ p: DialPainter.Parameters, scale: Double) -> ConicAngleMap? {
        defer { lastDialCenter = p.center }
        guard scale == 1, p.center == lastDialCenter else { return nil }
        sweepDirections.prepare(center: p.center, box: Self.dialBox(p))
        return sweepDirections
    }

    /// Label `i` of the dial's seven drawn over the sweep: N, E, S, W, then the three ranges.
    private func drawDialLabel(_ i: Int, _ p: DialPainter.Parameters, fonts: (compass: Font, range: Font), in canvas: Canvas) {
        if i < 4 {
            dial.drawCompassLabel(i, p, font: fonts.compass, text: text, in: canvas)
        } else {
            dial.drawRangeLabel(i - 4, p, font: fonts.range, text: text, in: canvas)
        }
    }

    /// The dial drawn last in this frame: its markers are placed on it.
    private var drawnDial: (center: Point, radius: Float, scale: Float)?

    /// An aircraft's marker: its leaf's frame is the blip's place; the line runs from the dial's centre through it.
    private func drawMarker(_ item: RenderItem, color: Color?, in canvas: Canvas) {
        guard let (c, radius, s) = drawnDial, radius > 0 else { return }
        let dx = Float(item.frame.x) - c.x, dy = Float(item.frame.y) - c.y
        let bearing = atan2f(dx, -dy) * 180 / .pi
        dial.drawMarker(center: c, radius: radius, scale: s, bearing: bearing, range: (dx * dx + dy * dy).squareRoot() / radius,
                        opacity: 1, color: color ?? DialPainter.bright, bearingLine: false,
                        heading: MarkerChannels(item.custom).screenDegrees.map(Float.init), in: canvas)
    }

    private func drawCard(_ item: RenderItem, stroke: Color, width: Float, in canvas: Canvas) {
        let f = item.frame
        let s = Float(f.height / 648)
        path.removeAll()
        path.addRoundedRect(Rect(x: Float(f.x), y: Float(f.y), width: Float(f.width), height: Float(f.height)), cornerRadius: 24 * s)
        canvas.fill(path, with: .solid(Self.cardFill))
        canvas.stroke(path, style: StrokeStyle(width: max(width * s, width)), with: .solid(stroke))
    }

    /// The part of the leg flown, in the dial's green; the part to go, fainter.
    static let journeyFlown = Color(hex: 0x2FA37A), journeyToGo = Color(hex: 0x3A4C58)

    /// The journey line across its leaf's frame: the origin's dot at the left,
    /// the destination's at the right, and the aircraft's mark (the dial's
    /// bright green, as its mark on the dial) at the leaf's fraction between
    /// them. The ends are inset by the mark's radius, so a mark at either end
    /// stays inside the frame.
    private func drawJourney(_ item: RenderItem, in canvas: Canvas) {
        let f = item.frame
        let s = Float(f.height / KioskScene.journeyLineHeight)
        let mark = max(7 * s, 4), end = max(3 * s, 2)
        let y = Float(f.midY), left = Float(f.x) + mark, right = Float(f.maxX) - mark
        guard right > left else { return }
        let fraction = Float(min(max(item.custom.x, 0), 1))
        let at = left + fraction * (right - left)
        let line = StrokeStyle(width: max(2 * s, 1.5))
        // From the mark to one end, with that end's airport dot.
        func leg(to x: Float, _ color: Color) {
            path.removeAll()
            path.move(to: Point(at, y))
            path.line(to: Point(x, y))
            canvas.stroke(path, style: line, with: .solid(color))
            path.removeAll()
            path.addCircle(center: Point(x, y), radius: end)
            canvas.fill(path, with: .solid(color))
        }
        leg(to: right, Self.journeyToGo)
        leg(to: left, Self.journeyFlown)
        path.removeAll()
        path.addCircle(center: Point(at, y), radius: mark)
        canvas.fill(path, with: .solid(DialPainter.bright))
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
