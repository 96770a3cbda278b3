#if canImport(Glibc)
import Glibc
#endif
import AnimationCore
import KioskModel
import KioskRendering
import Raster

/// `radar-kiosk audit`: every visible text has a contrast of at least 4.5:1
/// against what is drawn behind it, no text is smaller than the minimum for the
/// resolution, and every invisible leaf is tagged decorative (the seed's
/// accessibility lesson: hidden placeholders must not pose as content).
public enum Audit {
    /// Wide, tall, 4:3, 5:4 and square panels.
    public static let sizes = ["800x480", "1024x600", "1280x720", "1920x1080", "480x800", "1080x1920", "800x600", "1024x768", "720x720", "1280x1024"]
    /// The longest the card may wait for the dial to clear it: longer reads as a stall.
    public static let longestRevealDelay = 0.5
    public static let minimumContrast = 4.5

    /// WCAG 2 relative luminance of an sRGB pixel.
    static func luminance(_ p: UInt32) -> Double {
        func linear(_ c: UInt32) -> Double { LinearDimming.decoded(Double(c) / 255) }
        return 0.2126 * linear((p >> 16) & 0xFF) + 0.7152 * linear((p >> 8) & 0xFF) + 0.0722 * linear(p & 0xFF)
    }

    static func contrast(_ a: UInt32, _ b: UInt32) -> Double {
        let la = luminance(a), lb = luminance(b)
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// Problems found for one size and state, one line each.
    public static func problems(width: Int, height: Int, state: KioskState, fonts: FontSet, units: DisplayUnits = DisplayUnits(),
                                facing: Double? = nil, standbyInfo: StandbyInfo = .none, brightness: Double = 1,
                                viewing: ViewingGeometry? = nil) -> [String] {
        let renderer = KioskRenderer(fonts: fonts)
        renderer.screenBrightness = brightness
        let controller = KioskController(layout: KioskLayout(width: width, height: height, viewing: viewing), initial: state,
                                         measure: renderer, units: units)
        controller.setStationView(facing: facing, elevationFeet: 0, at: 0)
        controller.setStandbyInfo(standbyInfo, at: 0)
        _ = controller.frameNeeded(at: 0)
        var place = "\(width)x\(height) \(state.mode.rawValue)" + (facing.map { " facing \(Int($0))°" } ?? "")
            + (brightness < 1 ? " dimmed to \(Int((brightness * 100).rounded())) %" : "")
        if let viewing { place += " read from \(rounded(viewing.distanceMetres)) m" }
        var found = problems(in: controller.renderList, layout: controller.layout, renderer: renderer, place: place)
        if controller.layout.cardRevealDelay > longestRevealDelay {
            found.append("\(place): the card waits \(rounded(controller.layout.cardRevealDelay)) s for the dial to clear it, more than \(longestRevealDelay) s")
        }
        return found
    }

    /// The facings audited besides north up: the diagonal puts the compass
    /// labels nearest the screen's corners and the card, a quarter turn
    /// swaps the labels' widths.
    public static let facings: [Double] = [45, 90]

    /// Problems of a render list as drawn on a screen of `layout`: every
    /// visible text's rendered height and contrast, card text inside the card, the dial's labels, and
    /// the decorative tagging of what is not seen. Contrast is the light the
    /// screen gives at the renderer's `screenBrightness` (dimmed in linear light).
    public static func problems(in items: [RenderItem], layout: KioskLayout, renderer: KioskRenderer, place: String) -> [String] {
        let dimming = LinearDimming(brightness: renderer.screenBrightness)
        let width = Int(layout.width), height = Int(layout.height)
        // What is behind the text: the frame drawn with every text leaf left out.
        let behind = PixelBuffer(width: width, height: height)
        renderer.draw(items.filter { !(KioskStyle($0.style)?.isText ?? false) }, sweepBearing: 0,
                      minimumTextSize: Float(layout.minimumTextSize), into: Canvas(target: behind))
        let minimum = layout.minimumTextSize
        let scratch = PixelBuffer(width: width, height: height)
        let card = items.first { $0.id.path == "card/background" }?.frame
        var found: [String] = []
        for item in items {
            let visible = item.opacity > 0.001
            let isText: Bool = { if case .text = item.content { return true } else { return false } }()
            let isEmpty: Bool = { if case let .text(s) = item.content { return s.isEmpty } else { return false } }()
            if (!visible || isEmpty) && !item.isDecorative {
                found.append("\(place): \(item.id) is invisible but not tagged decorative")
            }
            if KioskStyle(item.style) == .dial && visible {
                let sizes = renderer.dialLabelSizes(item, minimumTextSize: Float(minimum))
                for (name, size) in [("compass", sizes.compass), ("range", sizes.range)] where Double(size) + 0.01 < minimum {
                    found.append("\(place): the dial's \(name) labels are \(rounded(Double(size))) px, below the \(rounded(minimum)) px minimum")
                }
                // The rings' labels (the traffic's ranges) lie on the disc, from its
                // brighter centre to its rim; the compass labels outside it. In the
                // colours drawn at the screen's brightness, in the light it gives.
                let colors = renderer.dialLabelColors
                func dimmedContrast(_ color: Color, _ on: UInt32) -> Double {
                    contrast(dimming.dimmed(color.premultipliedPixel), dimming.dimmed(on))
                }
                let labels = [("range", colors.range, DialPainter.discCentre), ("range", colors.range, DialPainter.discRim),
                              ("compass", colors.compass, KioskRenderer.background)]
                for (name, color, on) in labels where dimmedContrast(color, on.premultipliedPixel) < minimumContrast {
                    found.append("\(place): the dial's \(name) labels have contrast \(rounded(dimmedContrast(color, on.premultipliedPixel))):1, below \(minimumContrast):1")
                }
                // Each ring's label with the sweep at its brightest behind it
                // (the wedge's 0.55 at full sweep.opacity), on its plate.
                for ring in 0..<3 {
                    let c = dimmedContrast(colors.range, DialPainter.rangeLabelGroundUnderSweep(ring: ring))
                    if c < minimumContrast {
                        found.append("\(place): ring \(ring + 1)'s label under the sweep has contrast \(rounded(c)):1, below \(minimumContrast):1")
                    }
                }
                // The disc lies on the screen, and off a card that is shown.
                let disc = item.frame
                let shownCard = items.first { $0.id.path == "card/background" && $0.opacity > 0.5 }?.frame
                if disc.x < -0.5 || disc.y < -0.5 || disc.maxX > layout.width + 0.5 || disc.maxY > layout.height + 0.5 {
                    found.append("\(place): the dial runs off the screen (\(Int(disc.x)),\(Int(disc.y)) \(Int(disc.width))x\(Int(disc.height)))")
                }
                if let c = shownCard, discReaches(disc, left: c.x, top: c.y, right: c.maxX, bottom: c.maxY) {
                    found.append("\(place): the dial reaches under the card")
                }
                // Wherever the facing turns them, the compass labels stay on the screen and off a card that is shown.
                for (label, box) in renderer.compassLabelBoxes(item, minimumTextSize: Float(minimum)) {
                    if box.x < 0 || box.y < 0 || Double(box.x + box.width) > layout.width || Double(box.y + box.height) > layout.height {
                        found.append("\(place): the dial's \(label) runs off the screen (\(Int(box.x)),\(Int(box.y)) \(Int(box.width))x\(Int(box.height)))")
                    }
                    if let c = shownCard, Double(box.x + box.width) > c.x, Double(box.x) < c.maxX, Double(box.y + box.height) > c.y, Double(box.y) < c.maxY {
                        found.append("\(place): the dial's \(label) is under the card")
                    }
                }
            }
            // The journey's line lies inside the card.
            if visible, KioskStyle(item.style) == .journey, let card,
               item.frame.x < card.x || item.frame.maxX > card.maxX || item.frame.y < card.y || item.frame.maxY > card.maxY {
                found.append("\(place): \(item.id) runs past the card")
            }
            guard visible, isText, !isEmpty, let style = KioskStyle(item.style) else { continue }
            let look = renderer.textStyle(style)
            // Text on the card stays inside it.
            if let card, item.id.path.hasPrefix("card/"), case let .text(text) = item.content {
                let advance = renderer.width(of: text, style: style, size: item.frame.height)
                let left = look.alignment == .right ? item.frame.x - advance : item.frame.x
                if left < card.x || left + advance > card.maxX {
                    found.append("\(place): \(item.id) runs past the card (\(Int(left))...\(Int(left + advance)) against \(Int(card.x))...\(Int(card.maxX)))")
                }
                // And its descenders above the card's bottom edge.
                let bottom = item.frame.maxY + Double(look.face.descenderEm) * item.frame.height
                if item.frame.y < card.y || bottom > card.maxY {
                    found.append("\(place): \(item.id) runs past the card's bottom (\(Int(bottom)) against \(Int(card.maxY)))")
                }
            }
            // Standby's corner stays on the screen and off the dial's disc.
            if item.id.path.hasPrefix("standby/"), case let .text(text) = item.content,
               let dial = items.first(where: { KioskStyle($0.style) == .dial })?.frame {
                let advance = renderer.width(of: text, style: style, size: item.frame.height)
                let left = look.alignment == .right ? item.frame.x - advance : item.frame.x
                if left < 0 || left + advance > layout.width || item.frame.y < 0 || item.frame.maxY > layout.height {
                    found.append("\(place): \(item.id) runs off the screen (\(Int(left))...\(Int(left + advance)))")
                }
                if discReaches(dial, left: left, top: item.frame.y, right: left + advance, bottom: item.frame.maxY) {
                    found.append("\(place): \(item.id) reaches onto the dial (\(Int(left))...\(Int(left + advance)))")
                }
            }
            // The height the text is drawn at, measured in pixels: its capitals
            // and digits must stand as tall as the minimum size's capitals.
            if case let .text(text) = item.content, text.contains(where: { $0.isUppercase || $0.isNumber }) {
                renderer.draw([item], sweepBearing: 0, minimumTextSize: Float(minimum), into: Canvas(target: scratch))
                let ink = inkRows(scratch, background: KioskRenderer.background.premultipliedPixel)
                let needed = Double(look.face.capHeightEm) * minimum - 1
                if Double(ink) < needed {
                    found.append("\(place): \(item.id) is drawn \(ink) px tall, below the \(rounded(needed)) px capitals of the \(rounded(minimum)) px minimum")
                }
                // Read across the room: the callsign and the altitude as tall at the eye as the distant card's
                // sizes ask, or a line as wide as the card (a callsign of the widest letters, set smaller to fit).
                func fillsTheCard() -> Bool {
                    let advance = renderer.width(of: text, style: style, size: item.frame.height)
                    return card.map { advance >= 0.95 * ($0.width - 2 * (layout.distantCard?.inset ?? 40 * layout.cardScale)) } ?? false
                }
                if let viewing = layout.viewing, let arcMinutes = readingArcMinutes[item.id.path],
                   Double(ink) < viewing.pixels(arcMinutes: arcMinutes) - 1, !fillsTheCard() {
                    found.append("\(place): \(item.id) is drawn \(ink) px tall, \(rounded(viewing.arcMinutes(pixels: Double(ink)))) arc-minutes "
                                 + "at \(rounded(viewing.distanceMetres)) m, below \(rounded(arcMinutes))")
                }
            }
            // Sample the background over the text's line box.
            let color = look.color.withAlpha(look.color.alpha * Float(item.opacity)).premultipliedPixel
            let anchorX = Int(item.frame.x), top = max(Int(item.frame.y), 0), bottom = min(Int(item.frame.maxY), height - 1)
            let span = max(Int(item.frame.height), 8)
            let x0 = look.alignment == .right ? max(anchorX - 4 * span, 0) : max(anchorX, 0)
            let x1 = look.alignment == .right ? min(anchorX, width - 1) : min(anchorX + 4 * span, width - 1)
            var worst = Double.infinity
            if top <= bottom && x0 <= x1 {
                for y in stride(from: top, through: bottom, by: 2) {
                    for x in stride(from: x0, through: x1, by: 3) {
                        let background = behind[x, y] | 0xFF00_0000
                        let drawn = PixelMath.sourceOver(color, background)
                        worst = min(worst, contrast(dimming.dimmed(drawn), dimming.dimmed(background)))
                    }
                }
            }
            if worst < minimumContrast {
                found.append("\(place): \(item.id) has contrast \(rounded(worst)):1, below \(minimumContrast):1")
            }
        }
        return found
    }

    /// The arc-minutes at the reader's eye the card's two most read lines
    /// must stand (their ink, capitals and digits) when the audit is told
    /// how the screen is seen.
    static let readingArcMinutes = ["card/callsign": DistantCard.callsignArcMinutes, "card/row0/value": DistantCard.altitudeArcMinutes]

    /// Whether the dial's disc (the circle in its square frame) reaches into a box: its centre's nearest point in the box lies inside it.
    static func discReaches(_ disc: AnimatableRect, left: Double, top: Double, right: Double, bottom: Double) -> Bool {
        let r = disc.width / 2
        let nx = min(max(disc.midX, left), right), ny = min(max(disc.midY, top), bottom)
        return (nx - disc.midX) * (nx - disc.midX) + (ny - disc.midY) * (ny - disc.midY) < r * r
    }

    /// How many rows of `buffer` hold anything but the background: a text's ink height.
    static func inkRows(_ buffer: PixelBuffer, background: UInt32) -> Int {
        var first = -1, last = -1
        for y in 0..<buffer.height {
            let row = buffer.row(y)
            for x in 0..<buffer.width where row[x] != background {
                if first < 0 { first = y }
                last = y
                break
            }
        }
        return first < 0 ? 0 : last - first + 1
    }

    static func rounded(_ v: Double) -> Double { (v * 100).rounded() / 100 }

    /// The sample overflight with a note, so the note's line is audited too.
    static let sampleOverflight = KioskState(mode: .overflight, aircraft: Demo.sampleAircraft,
                                             note: "feed: /run/readsb/aircraft.json missing, retrying")

    /// The unit choices whose texts differ most: the defaults, the longest
    /// (metres, km/h with four digits), miles, and flight levels.
    public static let unitChoices = [DisplayUnits(), DisplayUnits(altitude: .meters, speed: .kilometresPerHour, distance: .kilometres),
                                     DisplayUnits(speed: .milesPerHour, distance: .miles), DisplayUnits(flightLevelsAbove: 6000)]

    /// An aircraft with every line as long as the card takes it.
    static let longestOverflight: KioskState = {
        var a = Aircraft(
            callsign: "WMWMWMWM", type: "WWWW", route: "WWW → MMM", airline: String(repeating: "W", count: Aircraft.nameLength),
            model: String(repeating: "M", count: Aircraft.nameLength),
            journey: Journey(flownNM: 8888, toGoNM: 8888, destinationCity: String(repeating: "W", count: Journey.cityLength)), altitudeFeet: 88_888,
            groundSpeedKnots: 1888, distanceNM: 888.8, bearingDegrees: 288, verticalRateFeetPerMinute: -28_800)
        a.registration = String(repeating: "W", count: Aircraft.registrationLength)
        a.country = String(repeating: "W", count: Aircraft.nameLength)
        a.countryCode = "WW"
        a.squawk = "7777"
        return KioskState(mode: .overflight, aircraft: a, place: .init(index: 88, count: 88))
    }()

    /// The longest card once its aircraft has left the zone: the pass in place of where to look.
    static let longestPassage: KioskState = {
        var state = longestOverflight
        state.aircraft?.passage = Passage(overheadSeconds: 3_599, closestNM: 888.8)
        return state
    }()

    /// The longest card as an alert: its amber status word and border.
    static let alertOverflight: KioskState = {
        var state = longestOverflight
        state.aircraft?.alert = "EMERGENCY 7700"
        return state
    }()

    /// Standby's corner with every line as long as it gets: a busy day's
    /// count, the longest callsigns, the longest numbers in `units`.
    static func longestStandbyInfo(_ units: DisplayUnits) -> StandbyInfo {
        var day = OverflightDay(day: "today")
        var overflight = Overflight(start: 0, end: 0, callsign: "WMWMWMWM")
        overflight.lowestFeet = 88_888
        overflight.closestNM = 888.8
        for _ in 0..<8888 { day.add(overflight, dayOf: { _ in "today" }) }
        return StandbyInfo(.clockAndToday, hour: 8, minute: 48, today: day, now: 88 * 60, units: units)
    }

    public static func run(_ args: ParsedArguments) throws -> Int32 {
        let fonts = try FontSet(directory: args.value("--fonts"))
        let sizes = try (args.all("--size").isEmpty ? sizes : args.all("--size")).map { try parseSize($0) }
        if args.value("--panel-mm") != nil && sizes.count != 1 { throw ArgumentError("--panel-mm is one panel's: give it one --size") }
        var total = 0
        for size in sizes {
            let viewing = try Render.viewing(PixelSize(width: size.width, height: size.height), args)
            for state in [KioskState.standby, sampleOverflight, longestOverflight, alertOverflight, longestPassage] {
                for units in unitChoices {
                    let problems = problems(width: size.width, height: size.height, state: state, fonts: fonts, units: units,
                                            standbyInfo: longestStandbyInfo(units), viewing: viewing)
                    total += problems.count
                    for p in problems { print(p) }
                    if problems.isEmpty {
                        print("\(size.width)x\(size.height) \(state.mode.rawValue) \(state.aircraft?.callsign ?? "") "
                              + "\(units.altitude.rawValue) \(units.speed.rawValue) \(units.distance.rawValue): ok")
                    }
                }
            }
            // Dimmed at night (the default level): the card's text still reads.
            let night = ScreenPolicy().nightBrightness
            for state in [KioskState.standby, sampleOverflight, longestOverflight, alertOverflight, longestPassage] {
                let problems = problems(width: size.width, height: size.height, state: state, fonts: fonts, brightness: night, viewing: viewing)
                total += problems.count
                for p in problems { print(p) }
                if problems.isEmpty { print("\(size.width)x\(size.height) \(state.mode.rawValue) dimmed to \(Int(night * 100)) %: ok") }
            }
            // The dial turned to face a window, with its card's words for where to look.
            for facing in facings {
                for state in [KioskState.standby, sampleOverflight] {
                    let problems = problems(width: size.width, height: size.height, state: state, fonts: fonts, facing: facing, viewing: viewing)
                    total += problems.count
                    for p in problems { print(p) }
                    if problems.isEmpty { print("\(size.width)x\(size.height) \(state.mode.rawValue) facing \(Int(facing))°: ok") }
                }
            }
        }
        print(total == 0 ? "audit: no problems" : "audit: \(total) problems")
        return total == 0 ? 0 : 1
    }
}
