import CFreeType
import Raster

/// Rendered glyph masks keyed by face, size, glyph and quarter-pixel offset.
///
/// Bounded: when full, the least recently used glyph gives up its slot. Every
/// text path draws through it, and its hit and miss counters say whether a
/// steady scene really renders nothing.
public final class GlyphCache {
    public struct Key: Hashable, Sendable {
        public let face: Int
        public let size64: Int
        public let glyph: UInt32
        public let subpixel: UInt8
    }

    /// A glyph image and where its top-left sits relative to the pen on the baseline.
    public struct Entry {
        public let mask: AlphaMask
        public let left: Int
        public let top: Int
    }

    /// Horizontal positions are quantised to this many steps per pixel.
    public static let subpixelSteps = 4

    public let capacity: Int
    private var slots: [Key: Int] = [:]
    private var entries: [Entry] = []
    private var keys: [Key] = []
    private var lastUse: [UInt64] = []
    private var clock: UInt64 = 0
    public private(set) var hits = 0
    public private(set) var misses = 0
    public private(set) var evictions = 0

    public init(capacity: Int = 2048) {
        precondition(capacity > 0)
        self.capacity = capacity
        slots.reserveCapacity(capacity)
    }

    public var count: Int { entries.count }

    public func resetCounters() {
        hits = 0; misses = 0; evictions = 0
    }

    public func entry(for key: Key, face: FontFace) -> Entry {
        clock &+= 1
        if let slot = slots[key] {
            hits += 1
            lastUse[slot] = clock
            return entries[slot]
        }
        misses += 1
        let entry = render(key, face: face)
        if entries.count < capacity {
            slots[key] = entries.count
            entries.append(entry)
            keys.append(key)
            lastUse.append(clock)
        } else {
            var victim = 0
            for i in 1..<lastUse.count where lastUse[i] < lastUse[victim] { victim = i }
            slots.removeValue(forKey: keys[victim])
            evictions += 1
            slots[key] = victim
            entries[victim] = entry
            keys[victim] = key
            lastUse[victim] = clock
        }
        return entry
    }

    private func render(_ key: Key, face: FontFace) -> Entry {
        face.setPixelSize(key.size64)
        let ft = face.face
        guard FT_Load_Glyph(ft, key.glyph, FT_Int32(FT_LOAD_NO_BITMAP)) == 0 else {
            return Entry(mask: AlphaMask(width: 0, height: 0), left: 0, top: 0)
        }
        let slot = ft.pointee.glyph!
        if key.subpixel != 0 && slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE {
            let shift = FT_Pos(Int(key.subpixel) * 64 / Self.subpixelSteps)
            FT_Outline_Translate(&slot.pointee.outline, shift, 0)
        }
        guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else {
            return Entry(mask: AlphaMask(width: 0, height: 0), left: 0, top: 0)
        }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), rows = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        let mask = AlphaMask(width: width, height: rows)
        if let source = bitmap.buffer, width > 0 {
            for y in 0..<rows {
                let src = pitch >= 0 ? source + y * pitch : source + (rows - 1 - y) * (-pitch)
                mask.row(y).update(from: src, count: width)
            }
        }
        return Entry(mask: mask, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top))
    }
}
