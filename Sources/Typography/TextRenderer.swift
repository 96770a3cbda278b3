#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Raster

/// Measures and draws lines of text into a Raster canvas, through the shaper's
/// run cache and the glyph cache.
public final class TextRenderer {
    public let shaper = TextShaper()
    public let glyphs: GlyphCache

    public init(glyphCacheCapacity: Int = 2048) {
        glyphs = GlyphCache(capacity: glyphCacheCapacity)
    }

    public func measure(_ text: String, font: Font) -> TextMetrics {
        let run = shaper.shape(text, font: font)
        return TextMetrics(advance: run.advance, ascent: font.ascent, descent: font.descent, capHeight: font.capHeight)
    }

    /// Draws `text` with its baseline at `origin.y` (user space), its left edge,
    /// centre or right edge at `origin.x` depending on `alignment`.
    public func draw(_ text: String, font: Font, at origin: Point, alignment: TextAlignment = .left,
                     color: Color, opacity: Float = 1, in canvas: Canvas) {
        let run = shaper.shape(text, font: font)
        var x = origin.x
        switch alignment {
        case .left: break
        case .center: x -= run.advance / 2
        case .right: x -= run.advance
        }
        draw(run, font: font, at: Point(x, origin.y), color: color, opacity: opacity, in: canvas)
    }

    /// Draws a shaped run with its pen starting at `origin` on the baseline.
    public func draw(_ run: ShapedRun, font: Font, at origin: Point, color: Color, opacity: Float = 1, in canvas: Canvas) {
        if opacity <= 0 { return }
        let device = canvas.transform.apply(origin)
        let paint = Paint.solid(color.withAlpha(color.alpha * min(opacity, 1)))
        for glyph in run.glyphs {
            drawGlyph(glyph.index, font: font, x: device.x + glyph.x, baseline: device.y + glyph.y, paint: paint, in: canvas)
        }
    }

    /// Draws one glyph with its pen position at device (x, baseline).
    public func drawGlyph(_ index: UInt32, font: Font, x: Float, baseline: Float, paint: Paint, in canvas: Canvas) {
        let steps = Float(GlyphCache.subpixelSteps)
        let whole = floorf(x)
        var sub = Int(((x - whole) * steps).rounded())
        var ix = Int(whole)
        if sub == GlyphCache.subpixelSteps { sub = 0; ix += 1 }
        let key = GlyphCache.Key(face: font.face.identifier, size64: font.size64, glyph: index, subpixel: UInt8(sub))
        let entry = glyphs.entry(for: key, face: font.face)
        if entry.mask.width == 0 { return }
        let iy = Int(baseline.rounded())
        canvas.fill(mask: entry.mask, x: ix + entry.left, y: iy - entry.top, with: paint)
    }
}
