import CHarfBuzz

/// Shapes strings with HarfBuzz (B612 keeps its kerning in GPOS, which
/// FreeType's kerning call cannot read) and caches the runs by string, face
/// and size, so a steady scene shapes nothing.
public final class TextShaper {
    private struct Key: Hashable {
        let text: String
        let face: Int
        let size64: Int
    }

    private let buffer: OpaquePointer
    private var cache: [Key: ShapedRun] = [:]
    /// Runs kept before the cache starts over; a kiosk shows a few dozen strings.
    public var capacity = 1024
    public private(set) var hits = 0
    public private(set) var misses = 0

    public init() {
        buffer = hb_buffer_create()
    }

    deinit { hb_buffer_destroy(buffer) }

    public func shape(_ text: String, font: Font) -> ShapedRun {
        let key = Key(text: text, face: font.face.identifier, size64: font.size64)
        if let run = cache[key] {
            hits += 1
            return run
        }
        misses += 1
        if cache.count >= capacity { cache.removeAll(keepingCapacity: true) }
        let run = shapeUncached(text, font: font)
        cache[key] = run
        return run
    }

    private func shapeUncached(_ text: String, font: Font) -> ShapedRun {
        let buf = buffer
        hb_buffer_reset(buf)
        var utf8 = Array(text.utf8)
        utf8.withUnsafeMutableBufferPointer { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
                hb_buffer_add_utf8(buf, chars, Int32(bytes.count), 0, Int32(bytes.count))
            }
        }
        hb_buffer_guess_segment_properties(buf)
        let hbFont = font.face.shapingFont
        hb_font_set_scale(hbFont, Int32(font.size64), Int32(font.size64))
        hb_shape(hbFont, buf, nil, 0)
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buf, &count)
        let positions = hb_buffer_get_glyph_positions(buf, &count)
        // Byte offset of each character, to map clusters back to characters.
        var characterAtByte = [Int](repeating: 0, count: utf8.count + 1)
        var characterIndex = 0
        var byte = 0
        for ch in text {
            let n = ch.utf8.count
            for k in 0..<n { characterAtByte[byte + k] = characterIndex }
            byte += n
            characterIndex += 1
        }
        var glyphs: [ShapedRun.Glyph] = []
        glyphs.reserveCapacity(Int(count))
        var pen: Float = 0
        for i in 0..<Int(count) {
            let info = infos![i], pos = positions![i]
            let advance = Float(pos.x_advance) / 64
            var glyph = info.codepoint
            if glyph == 0 {
                // Report the missing character once, by name.
                let cluster = Int(info.cluster)
                let scalars = String(decoding: utf8[min(cluster, utf8.count)...].prefix(4), as: UTF8.self).unicodeScalars
                if let scalar = scalars.first { glyph = font.face.glyphIndex(for: scalar) }
            }
            glyphs.append(ShapedRun.Glyph(index: glyph, x: pen + Float(pos.x_offset) / 64,
                                          y: -Float(pos.y_offset) / 64, advance: advance,
                                          character: characterAtByte[min(Int(info.cluster), utf8.count)]))
            pen += advance
        }
        return ShapedRun(text: text, glyphs: glyphs, advance: pen)
    }
}
