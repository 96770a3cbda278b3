import AnimationCore
import Raster

/// Draws a text leaf whose content is changing, as the animation core describes
/// the change (ContentTransitionState), in pixels.
///
/// - opacity (and interpolate between different strings): the old string stays
///   where the change began and fades out, the new one fades in on the moving frame;
/// - numericText: characters that stay glide to their new places; digits that
///   change roll vertically by half a line (the old leaves as it fades, the new
///   enters as it appears), up when the value grows, down when it shrinks,
///   clipped to the text's own line box so a roll never reaches into the rows
///   above and below; inserted and removed characters roll in or out; other
///   changed characters crossfade.
///   Old and new strings are aligned at the leaf's anchor edge (right for
///   right-aligned values), so digit places line up.
public struct ContentTransitionPainter {
    /// Delay between successive changed characters, as a share of the change.
    public static let stagger = 0.04

    public init() {}

    /// `anchor` and `fromAnchor` are the user-space anchor points (on the baseline)
    /// of the current frame and of the frame where the change began.
    public func draw(_ change: ContentTransitionState, font: Font, anchor: Point, fromAnchor: Point,
                     alignment: TextAlignment, color: Color, opacity: Float, text: TextRenderer, in canvas: Canvas) {
        let p = Float(min(max(change.progress, 0), 1))
        switch change.kind {
        case .identity:
            text.draw(change.to, font: font, at: anchor, alignment: alignment, color: color, opacity: opacity, in: canvas)
        case .opacity, .interpolate:
            if change.from == change.to {
                text.draw(change.to, font: font, at: anchor, alignment: alignment, color: color, opacity: opacity, in: canvas)
                return
            }
            text.draw(change.from, font: font, at: fromAnchor, alignment: alignment, color: color, opacity: opacity * (1 - p), in: canvas)
            text.draw(change.to, font: font, at: anchor, alignment: alignment, color: color, opacity: opacity * p, in: canvas)
        case .numericText, .numericTextValue:
            // Rolling needs numbers on both sides; a placeholder ("—") or a word
            // ("GROUND") changing to a number crossfades instead.
            guard change.from.contains(where: \.isNumber), change.to.contains(where: \.isNumber) else {
                var fade = change
                fade.kind = .opacity
                draw(fade, font: font, anchor: anchor, fromAnchor: anchor, alignment: alignment, color: color,
                     opacity: opacity, text: text, in: canvas)
                return
            }
            roll(change, progress: p, font: font, anchor: anchor, alignment: alignment, color: color, opacity: opacity,
                 text: text, in: canvas)
        }
    }

    private func roll(_ change: ContentTransitionState, progress p: Float, font: Font, anchor: Point, alignment: TextAlignment,
                      color: Color, opacity: Float, text: TextRenderer, in canvas: Canvas) {
        let old = text.shaper.shape(change.from, font: font)
        let new = text.shaper.shape(change.to, font: font)
        let oldChars = Array(change.from), newChars = Array(change.to)
        let oldOrigin = origin(of: old, anchor: anchor, alignment: alignment)
        let newOrigin = origin(of: new, anchor: anchor, alignment: alignment)
        let lineHeight = font.ascent + font.descent
        // Counting up: old digits leave upward, new ones come from below.
        let direction: Float = change.rollsDown ? -1 : 1
        let fromRight = alignment == .right
        let slots = max(oldChars.count, newChars.count)
        // Changed slots, in reading order, get a small stagger each.
        var changedBefore = 0
        var changedTotal = 0
        for k in 0..<slots {
            let (o, n) = slotCharacters(k, oldChars, newChars, fromRight)
            if o != n { changedTotal += 1 }
        }
        let stagger = Float(Self.stagger)
        let span = max(1 - stagger * Float(max(changedTotal - 1, 0)), 0.2)
        let device = canvas.transform
        // Half a line of travel (§6.3), inside the line box only.
        let travel = 0.5 * lineHeight
        canvas.save()
        defer { canvas.restore() }
        canvas.clip(to: Rect(x: -1e6, y: anchor.y - font.ascent, width: 2e6, height: lineHeight))
        for k in 0..<slots {
            let (oi, ni) = slotIndices(k, oldChars.count, newChars.count, fromRight)
            let o = oi.map { oldChars[$0] }, n = ni.map { newChars[$0] }
            if o == n, let oi, let ni {
                // Unchanged: glide from its old place to its new one.
                let x0 = oldOrigin.x + characterX(old, oi), x1 = newOrigin.x + characterX(new, ni)
                drawCharacter(new, ni, font: font, at: device.apply(Point(x0 + (x1 - x0) * p, anchor.y)), color: color,
                              opacity: opacity, text: text, in: canvas)
                continue
            }
            let local = min(max((p - stagger * Float(changedBefore)) / span, 0), 1)
            changedBefore += 1
            let rolls = (o?.isNumber ?? true) && (n?.isNumber ?? true)
            if let oi {
                let x = oldOrigin.x + characterX(old, oi)
                let dy = rolls ? -direction * local * travel : 0
                drawCharacter(old, oi, font: font, at: device.apply(Point(x, anchor.y + dy)), color: color,
                              opacity: opacity * (1 - local), text: text, in: canvas)
            }
            if let ni {
                let x = newOrigin.x + characterX(new, ni)
                let dy = rolls ? direction * (1 - local) * travel : 0
                drawCharacter(new, ni, font: font, at: device.apply(Point(x, anchor.y + dy)), color: color,
                              opacity: opacity * local, text: text, in: canvas)
            }
        }
    }

    private func slotIndices(_ k: Int, _ oldCount: Int, _ newCount: Int, _ fromRight: Bool) -> (Int?, Int?) {
        if fromRight {
            let slots = max(oldCount, newCount)
            let fromEnd = slots - 1 - k
            let oi = oldCount - 1 - fromEnd, ni = newCount - 1 - fromEnd
            return (oi >= 0 ? oi : nil, ni >= 0 ? ni : nil)
        }
        return (k < oldCount ? k : nil, k < newCount ? k : nil)
    }

    private func slotCharacters(_ k: Int, _ old: [Character], _ new: [Character], _ fromRight: Bool) -> (Character?, Character?) {
        let (oi, ni) = slotIndices(k, old.count, new.count, fromRight)
        return (oi.map { old[$0] }, ni.map { new[$0] })
    }

    private func origin(of run: ShapedRun, anchor: Point, alignment: TextAlignment) -> Point {
        switch alignment {
        case .left: return anchor
        case .center: return Point(anchor.x - run.advance / 2, anchor.y)
        case .right: return Point(anchor.x - run.advance, anchor.y)
        }
    }

    private func characterX(_ run: ShapedRun, _ character: Int) -> Float {
        run.glyphs.first { $0.character == character }?.x ?? run.advance
    }

    private func drawCharacter(_ run: ShapedRun, _ character: Int, font: Font, at pen: Point, color: Color, opacity: Float,
                               text: TextRenderer, in canvas: Canvas) {
        if opacity <= 0.002 { return }
        let paint = Paint.solid(color.withAlpha(color.alpha * min(opacity, 1)))
        let base = characterX(run, character)
        for glyph in run.glyphs where glyph.character == character {
            text.drawGlyph(glyph.index, font: font, x: pen.x + (glyph.x - base), baseline: pen.y + glyph.y, paint: paint, in: canvas)
        }
    }
}
