#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
///   changed characters crossfade. A rolling glyph shrinks a little and smears
///   along its path while it moves. A change that interrupts a running roll
///   lets that roll finish underneath, so glyphs continue from where they are.
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
        // An interrupted change still finishing: its new string is this one's old.
        let interrupted = change.interrupted.flatMap { $0.from.contains(where: \.isNumber) ? $0 : nil }
        let earlier = interrupted.map { text.shaper.shape($0.from, font: font) }
        let earlierChars = interrupted.map { Array($0.from) } ?? []
        let earlierOrigin = earlier.map { origin(of: $0, anchor: anchor, alignment: alignment) } ?? anchor
        let fromRight = alignment == .right
        let slots = max(oldChars.count, newChars.count, earlierChars.count)
        let current = Stagger(changed: changedSlots(slots, oldChars, newChars, fromRight))
        var previous = Stagger(changed: changedSlots(slots, earlierChars, oldChars, fromRight))
        var changedBefore = 0
        let lineHeight = font.ascent + font.descent
        // Half a line of travel (§6.3), inside the line box only.
        let travel = 0.5 * lineHeight
        // Counting up: old digits leave upward, new ones come from below.
        let direction: Float = change.rollsDown ? -1 : 1
        let earlierDirection: Float = interrupted?.rollsDown == true ? -1 : 1
        let earlierProgress = Float(min(max(interrupted?.progress ?? 1, 0), 1))
        let device = canvas.transform
        canvas.save()
        defer { canvas.restore() }
        canvas.clip(to: Rect(x: -1e6, y: anchor.y - font.ascent, width: 2e6, height: lineHeight))
        for k in 0..<slots {
            let (oi, ni) = slotIndices(k, of: slots, oldChars.count, newChars.count, fromRight)
            let o = oi.map { oldChars[$0] }, n = ni.map { newChars[$0] }
            // Where the old glyph is in the interrupted change: still rolling in.
            var oldShift: Float = 0, oldOpacity: Float = 1, oldMotion: Float = 0
            if let earlier {
                let (ei, _) = slotIndices(k, of: slots, earlierChars.count, oldChars.count, fromRight)
                let e = ei.map { earlierChars[$0] }
                if e != o {
                    let local = previous.next(earlierProgress)
                    let rolls = Self.rolls(e, o)
                    if let ei {
                        drawCharacter(earlier, ei, font: font,
                                      at: device.apply(Point(earlierOrigin.x + characterX(earlier, ei),
                                                             anchor.y - (rolls ? earlierDirection * local * travel : 0))),
                                      color: color, opacity: opacity * (1 - local), motion: rolls ? local : 0, text: text, in: canvas)
                    }
                    if rolls { oldShift = earlierDirection * (1 - local) * travel; oldMotion = 1 - local }
                    oldOpacity = local
                }
            }
            if o == n, let oi, let ni {
                // Unchanged: glide from its old place to its new one.
                let x0 = oldOrigin.x + characterX(old, oi), x1 = newOrigin.x + characterX(new, ni)
                drawCharacter(new, ni, font: font, at: device.apply(Point(x0 + (x1 - x0) * p, anchor.y + oldShift)), color: color,
                              opacity: opacity * oldOpacity, motion: oldMotion, text: text, in: canvas)
                continue
            }
            let local = current.local(p, index: changedBefore)
            changedBefore += 1
            let rolls = Self.rolls(o, n)
            if let oi {
                let x = oldOrigin.x + characterX(old, oi)
                let dy = oldShift - (rolls ? direction * local * travel : 0)
                drawCharacter(old, oi, font: font, at: device.apply(Point(x, anchor.y + dy)), color: color,
                              opacity: opacity * oldOpacity * (1 - local), motion: max(oldMotion, rolls ? local : 0),
                              text: text, in: canvas)
            }
            if let ni {
                let x = newOrigin.x + characterX(new, ni)
                let dy = rolls ? direction * (1 - local) * travel : 0
                drawCharacter(new, ni, font: font, at: device.apply(Point(x, anchor.y + dy)), color: color,
                              opacity: opacity * local, motion: rolls ? 1 - local : 0, text: text, in: canvas)
            }
        }
    }

    /// A digit changing to a digit rolls, and so does whatever comes or goes
    /// with its slot (the "1," of 999 → 1,000); a separator changing in place
    /// crossfades.
    static func rolls(_ old: Character?, _ new: Character?) -> Bool {
        guard let old, let new else { return true }
        return old.isNumber && new.isNumber
    }

    private func changedSlots(_ slots: Int, _ old: [Character], _ new: [Character], _ fromRight: Bool) -> Int {
        var changed = 0
        for k in 0..<slots {
            let (o, n) = slotCharacters(k, of: slots, old, new, fromRight)
            if o != n { changed += 1 }
        }
        return changed
    }

    /// Changed slots, in reading order, start a small delay apart.
    struct Stagger {
        let span: Float
        private var taken = 0

        init(changed: Int) {
            span = max(1 - Float(ContentTransitionPainter.stagger) * Float(max(changed - 1, 0)), 0.2)
        }

        func local(_ progress: Float, index: Int) -> Float {
            min(max((progress - Float(ContentTransitionPainter.stagger) * Float(index)) / span, 0), 1)
        }

        /// The next changed slot's own progress.
        mutating func next(_ progress: Float) -> Float {
            defer { taken += 1 }
            return local(progress, index: taken)
        }
    }

    /// The characters of each string in slot `k` of `slots`, counted from the
    /// anchor edge.
    private func slotIndices(_ k: Int, of slots: Int, _ oldCount: Int, _ newCount: Int, _ fromRight: Bool) -> (Int?, Int?) {
        if fromRight {
            let fromEnd = slots - 1 - k
            let oi = oldCount - 1 - fromEnd, ni = newCount - 1 - fromEnd
            return (oi >= 0 ? oi : nil, ni >= 0 ? ni : nil)
        }
        return (k < oldCount ? k : nil, k < newCount ? k : nil)
    }

    private func slotCharacters(_ k: Int, of slots: Int, _ old: [Character], _ new: [Character], _ fromRight: Bool) -> (Character?, Character?) {
        let (oi, ni) = slotIndices(k, of: slots, old.count, new.count, fromRight)
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

    /// Draws one character's glyphs with the pen at `pen`. A glyph in motion
    /// (0 settled, 1 a whole roll away) shrinks toward 90 % about its centre
    /// and smears along its path, as §6.3's roll does with scale and blur.
    private func drawCharacter(_ run: ShapedRun, _ character: Int, font: Font, at pen: Point, color: Color, opacity: Float,
                               motion: Float = 0, text: TextRenderer, in canvas: Canvas) {
        if opacity <= 0.002 { return }
        let base = characterX(run, character)
        // Whole-pixel sizes: a roll reuses a handful of glyph-cache entries.
        let drawn = motion > 0.01 ? Font(face: font.face, approximateSize: (font.size * (1 - Self.shrink * motion)).rounded()) : font
        let scale = drawn.size / font.size
        let width = characterWidth(run, character)
        let x = pen.x + width * (1 - scale) / 2
        let baseline = pen.y - font.capHeight * (1 - scale) / 2
        let smear = Self.smear * font.size * motion
        if smear < 0.5 {
            let paint = Paint.solid(color.withAlpha(color.alpha * min(opacity, 1)))
            for glyph in run.glyphs where glyph.character == character {
                text.drawGlyph(glyph.index, font: drawn, x: x + (glyph.x - base) * scale, baseline: baseline + glyph.y * scale,
                               paint: paint, in: canvas)
            }
            return
        }
        // Three copies along the path whose union has the glyph's opacity.
        let each = 1 - cbrtf(1 - min(opacity, 1) * 0.999)
        let paint = Paint.solid(color.withAlpha(color.alpha * each))
        for step in -1...1 {
            let offset = Float(step) * smear
            for glyph in run.glyphs where glyph.character == character {
                text.drawGlyph(glyph.index, font: drawn, x: x + (glyph.x - base) * scale,
                               baseline: baseline + offset + glyph.y * scale, paint: paint, in: canvas)
            }
        }
    }

    /// How much a rolling glyph shrinks at the far end of its travel.
    static let shrink: Float = 0.1
    /// How far a rolling glyph smears either way at the far end, in ems (3 px at 40 px).
    static let smear: Float = 0.075

    private func characterWidth(_ run: ShapedRun, _ character: Int) -> Float {
        var width: Float = 0
        for glyph in run.glyphs where glyph.character == character { width += glyph.advance }
        return width
    }
}
