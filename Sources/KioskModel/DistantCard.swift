import AnimationCore

/// The aircraft card for a reader across the room: four rows (the callsign,
/// the route, who flies it and what it is, the altitude) at the sizes the
/// viewing distance needs, on a card that takes most of the screen beside
/// a smaller dial. The design's card (its numbers, registration, where
/// to look and journey at arm's-length sizes) is kept where it is large enough: a monitor, or a panel read close.
///
/// Sizes are the capitals' heights at the reader's eye: at least 15
/// arc-minutes for the callsign and 12 for the altitude (comfortable
/// reading), 8 for the other lines (legible), in that proportion and as
/// large as the card's room takes them; never below the screen's minimum.
/// A screen too small for those sizes gets the largest that fit, and the
/// audit says so.
public struct DistantCard: Equatable, Sendable {
    /// The rows' type sizes (em, px): the callsign's, the altitude's, and
    /// the status word's, the route's and the details' lines.
    public let callsignSize: Double, altitudeSize: Double, lineSize: Double
    /// The card's frame, and the inset of its text from its edges.
    public let frame: AnimatableRect
    public let inset: Double
    /// The dial's frame beside (or above) the card in an overflight.
    public let dialFrame: AnimatableRect

    /// The arc-minutes each size is chosen for.
    public static let callsignArcMinutes = 15.0, altitudeArcMinutes = 12.0, lineArcMinutes = 8.0
    /// The longest callsign a card must hold on one line, in the advance of its widest characters.
    static let callsignCharacters = 8.0, characterAdvance = 0.62

    /// The card for a `width` x `height` screen seen as `viewing` says,
    /// or nil when the design's card (its callsign and altitude at
    /// `designSizes`, em) already reads there.
    init?(width: Double, height: Double, isPortrait: Bool, minimumTextSize: Double, designSizes: (callsign: Double, altitude: Double),
          viewing: ViewingGeometry) {
        func em(_ arcMinutes: Double) -> Double { viewing.pixels(arcMinutes: arcMinutes) / KioskStyle.capHeightPerEm }
        guard designSizes.callsign + 1 < em(Self.callsignArcMinutes) || designSizes.altitude + 1 < em(Self.altitudeArcMinutes) else { return nil }
        // The room the card may take: beside the dial, or below it in portrait.
        let room: AnimatableRect
        if isPortrait {
            room = AnimatableRect(x: 0.04 * width, y: 0.42 * height, width: 0.92 * width, height: 0.54 * height)
            let r = min(0.40 * width, 0.18 * height)
            dialFrame = AnimatableRect(x: width / 2 - r, y: 0.22 * height - r, width: 2 * r, height: 2 * r)
        } else {
            room = AnimatableRect(x: 0.37 * width, y: 0.05 * height, width: 0.61 * width, height: 0.90 * height)
            let r = min(0.15 * width, 0.40 * height)
            dialFrame = AnimatableRect(x: 0.185 * width - r, y: height / 2 - r, width: 2 * r, height: 2 * r)
        }
        inset = max(16, 0.05 * min(room.width, room.height))
        // As large as the room takes them (at least the sizes the distance
        // asks, where they fit), in the same proportion: a callsign of the
        // widest letters across, every row down.
        let callsign = em(Self.callsignArcMinutes), altitude = em(Self.altitudeArcMinutes), line = em(Self.lineArcMinutes)
        let across = (room.width - 2 * inset) / (Self.callsignCharacters * Self.characterAdvance * callsign)
        let down = (room.height - 2 * inset) / Self.height(callsign: callsign, altitude: altitude, line: line)
        let fit = min(across, down)
        callsignSize = max(callsign * fit, minimumTextSize).rounded(.down)
        altitudeSize = max(altitude * fit, minimumTextSize).rounded(.down)
        lineSize = max(line * fit, minimumTextSize).rounded(.down)
        // The card holds its rows: no taller than they are, centred beside the dial, under it in portrait.
        let cardHeight = min(room.height, Self.height(callsign: callsignSize, altitude: altitudeSize, line: lineSize) + 2 * inset)
        frame = AnimatableRect(x: room.x, y: isPortrait ? room.y : room.midY - cardHeight / 2, width: room.width, height: cardHeight)
    }

    /// The height the rows take: the status word, the callsign, the route, two lines of details, the altitude.
    static func height(callsign: Double, altitude: Double, line: Double) -> Double {
        4 * lineGap * line + callsignGap * callsign + lineGap * altitude
    }
    static let lineGap = 1.3, callsignGap = 1.15

    /// The rows' baselines (px of the screen), top to bottom; the altitude's
    /// at the card's foot.
    public var baselines: (status: Double, callsign: Double, route: Double, details: Double, details2: Double, altitude: Double) {
        let status = frame.y + inset + lineSize
        let callsign = status + Self.callsignGap * callsignSize
        let route = callsign + Self.lineGap * lineSize
        let details = route + Self.lineGap * lineSize
        let details2 = details + Self.lineGap * lineSize
        return (status, callsign, route, details, details2, frame.maxY - inset - (Self.lineGap - 1) * altitudeSize)
    }
}

extension DistantCard {
    /// Lays the design card's leaves out for the distance: the status word
    /// and the four rows placed and sized anew, the route's and the
    /// details' text fitted again at their size (the details on two lines
    /// before an ellipsis), the design's other rows left off.
    func lay(_ leaves: inout [LeafDescription], lines: (first: String, second: String), overflight: Bool, unknownAircraft: Bool,
             measure: TextMeasuring?) {
        let x = frame.x + inset, right = frame.maxX - inset, width = right - x
        let rows = baselines
        let details = KioskScene.wrapped(lines.second, size: lineSize, width: width, measure: measure)
        let cardOpacity = leaves.first { $0.id.path == "card/background" }?.opacity ?? 0
        for i in leaves.indices {
            let path = leaves[i].id.path
            // The status word is the card's title in an overflight only.
            guard path == "status" && overflight || path.hasPrefix("card/") else { continue }
            // The second line of details is the design card's nowhere: it shows with the card.
            let shown = (path == "card/details2" ? cardOpacity : leaves[i].opacity) > 0
            func place(_ x: Double, _ baseline: Double, _ size: Double, _ text: String? = nil) {
                leaves[i].frame = KioskScene.textFrame(x: x, baseline: baseline, size: size)
                if let text {
                    leaves[i].content = .text(text)
                    leaves[i].opacity = shown && !text.isEmpty ? 1 : 0
                    leaves[i].isDecorative = leaves[i].opacity == 0
                }
            }
            switch path {
            case "card/background": break
            case "status": place(x, rows.status, lineSize)
            case "card/place": place(right, rows.status, lineSize)
            case "card/callsign":
                // A callsign wider than the card (eight of the widest letters) is set smaller, on its baseline.
                guard case let .text(callsign) = leaves[i].content else { break }
                let advance = KioskScene.advance(callsign, .callsign, size: callsignSize, measure)
                place(x, rows.callsign, advance > width ? (callsignSize * width / advance).rounded(.down) : callsignSize)
            case "card/route":
                place(x, rows.route, lineSize, unknownAircraft ? KioskScene.unknownAircraftLine
                                                : KioskScene.fitted(lines.first, size: lineSize, width: width, measure: measure))
            case "card/details": place(x, rows.details, lineSize, details.first)
            case "card/details2": place(x, rows.details2, lineSize, details.second)
            case "card/row0/value": place(right, rows.altitude, altitudeSize)
            default:
                leaves[i].opacity = 0
                leaves[i].isDecorative = true
            }
        }
    }
}
