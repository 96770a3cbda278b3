/// A string shaped at one size: glyphs, their pen positions (pixels from the
/// run's origin on the baseline, kerning applied) and the characters they came from.
public final class ShapedRun {
    public struct Glyph: Sendable {
        public var index: UInt32
        public var x: Float
        public var y: Float
        public var advance: Float
        /// Offset of the glyph's first character in the string, in characters.
        public var character: Int
    }

    public let text: String
    public let glyphs: [Glyph]
    /// The pen advance of the whole run.
    public let advance: Float

    init(text: String, glyphs: [Glyph], advance: Float) {
        self.text = text
        self.glyphs = glyphs
        self.advance = advance
    }
}

/// How a line sits relative to its anchor point.
public enum TextAlignment: Sendable {
    case left, center, right
}

/// Measurements of a line of text at a font, in pixels.
public struct TextMetrics: Sendable, Equatable {
    public var advance: Float
    public var ascent: Float
    public var descent: Float
    public var capHeight: Float
}
