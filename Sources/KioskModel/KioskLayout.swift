import AnimationCore

/// Where things go at a resolution: the dial and the card, for each mode, in
/// wide and narrow landscape and in portrait. Lengths scale with the screen so text can be read
/// across a room on a 7-inch panel and on a 27-inch monitor alike.
public struct KioskLayout: Equatable, Sendable {
    public let width: Double
    public let height: Double
    /// Length scale: 1 at 1920x1080 (or 1080x1920).
    public let scale: Double
    public let isPortrait: Bool
    /// A landscape panel too narrow for the wide layout (4:3, 5:4, square):
    /// the card takes the right half, and the dial, smaller, the left, so the
    /// two never overlap.
    public let isNarrowLandscape: Bool
    /// Seconds from the start of the glide to overflight until the dial has left
    /// the card's area: the card appears only then, so no frame shows the card
    /// over the moving dial.
    public private(set) var cardRevealDelay = 0.0
    /// How the screen is seen, when the panel's size is known.
    public let viewing: ViewingGeometry?
    /// The card for a reader across the room, where the design's is too
    /// small at the viewing distance; nil: the design's card.
    public private(set) var distantCard: DistantCard?

    public init(width: Int, height: Int, viewing: ViewingGeometry? = nil) {
        self.width = Double(width)
        self.height = Double(height)
        self.viewing = viewing
        isPortrait = height > width
        isNarrowLandscape = !isPortrait && Double(width) < 1.5 * Double(height)
        scale = isPortrait ? min(Double(width) / 1080, Double(height) / 1920) : min(Double(height) / 1080, Double(width) / 1920 * 1.25)
        if let viewing {
            distantCard = DistantCard(width: self.width, height: self.height, isPortrait: isPortrait, minimumTextSize: minimumTextSize,
                                      designSizes: (textSize(72, scale: cardScale), textSize(40, scale: cardScale)), viewing: viewing)
        }
        cardRevealDelay = firstTimeDialClearsCard()
    }

    /// The glide sampled at 240 Hz: the first moment the dial's disc (with a
    /// margin for its rim) no longer reaches into the card's frame.
    private func firstTimeDialClearsCard() -> Double {
        var glide = AnimatedValue<Double>(0)
        glide.set(1, animation: KioskScene.layoutAnimation, at: 0)
        let from = dialFrame(.standby), to = dialFrame(.overflight), card = cardFrame
        let margin = 4 * scale
        var t = 0.0
        while t < 3 {
            let p = glide.value(at: t)
            let r = (from.width + (to.width - from.width) * p) / 2 + margin
            let cx = from.midX + (to.midX - from.midX) * p, cy = from.midY + (to.midY - from.midY) * p
            let nx = min(max(cx, card.x), card.maxX), ny = min(max(cy, card.y), card.maxY)
            if (nx - cx) * (nx - cx) + (ny - cy) * (ny - cy) >= r * r { return t }
            t += 1.0 / 240
        }
        return t
    }

    /// How the card is read here, for the log: nothing without a panel size,
    /// else the distance and which card it gets.
    public var readingSummary: String {
        guard let viewing else { return "" }
        let metres = (viewing.distanceMetres * 10).rounded() / 10
        let mm = PanelSize(width: viewing.panelMillimetres.width, height: viewing.panelMillimetres.height).description
        guard let distantCard else { return ", \(mm) read from \(metres) m: the full card" }
        return ", \(mm) read from \(metres) m: the card for the distance (callsign \(Int(distantCard.callsignSize)) px)"
    }

    /// The dial's square frame for a mode.
    public func dialFrame(_ mode: KioskState.Mode) -> AnimatableRect {
        if mode == .overflight, let distantCard { return distantCard.dialFrame }
        let (cx, cy, r): (Double, Double, Double)
        if isPortrait {
            switch mode {
            case .standby: (cx, cy, r) = (width / 2, height / 2, 0.42 * width)
            case .overflight: (cx, cy, r) = (width / 2, 0.26 * height, 0.36 * width)
            }
        } else {
            switch mode {
            case .standby: (cx, cy, r) = (width / 2, height / 2 + 0.02 * height, 0.42 * height)
            case .overflight where isNarrowLandscape: (cx, cy, r) = (0.24 * width, height / 2, min(0.38 * height, 0.21 * width))
            case .overflight: (cx, cy, r) = (0.30 * width, height / 2, 0.38 * height)
            }
        }
        return AnimatableRect(x: cx - r, y: cy - r, width: 2 * r, height: 2 * r)
    }

    /// The aircraft card's frame (the same in both modes: it fades, it does not travel).
    public var cardFrame: AnimatableRect { distantCard?.frame ?? designCardFrame }

    /// The design's card's frame.
    private var designCardFrame: AnimatableRect {
        if isPortrait {
            return AnimatableRect(x: 0.06 * width, y: 0.50 * height, width: 0.88 * width, height: 0.44 * height)
        }
        if isNarrowLandscape {
            return AnimatableRect(x: 0.50 * width, y: 0.20 * height, width: 0.46 * width, height: 0.60 * height)
        }
        return AnimatableRect(x: 0.58 * width, y: 0.20 * height, width: 0.36 * width, height: 0.60 * height)
    }

    /// The smallest legible text on this screen, in px: 12 px, or 2.2 % of the
    /// shorter side on larger screens (read from across a room).
    public var minimumTextSize: Double {
        max(12, 0.022 * min(width, height))
    }

    /// A text size from the design (px at scale 1) in whole pixels, never below
    /// the minimum. Whole pixels, because leaf frames are pixel-aligned and a
    /// text leaf's height is its size.
    public func textSize(_ design: Double, scale: Double) -> Double {
        max(design * scale, minimumTextSize).rounded(.up)
    }

    /// Scale of the card's contents: its design is 691 x 648 px (1080p).
    public var cardScale: Double {
        let card = designCardFrame
        return min(card.height / 648, card.width / 600)
    }

    /// Where the status word sits in standby (top left) and in overflight (the card's title line).
    public func statusOrigin(_ mode: KioskState.Mode) -> (x: Double, baseline: Double) {
        switch mode {
        case .standby: return (40 * scale, 60 * scale)
        case .overflight:
            if let distantCard { return (distantCard.frame.x + distantCard.inset, distantCard.baselines.status) }
            let card = cardFrame, s = cardScale
            return (card.x + 40 * s, card.y + 60 * s)
        }
    }
}
