/// A few gradient tables kept from fill to fill and frame to frame.
///
/// A frame draws the same gradients every time (the dial's disc, its sweep,
/// twelve blips sharing one glow): with one table, each change of gradient
/// rebuilt it, 1024 entries for the sweep, several times a frame.
final class GradientTableCache {
    private let tables: [GradientTable]
    /// When each table was last used, in calls to `table(for:size:opacity:)`.
    private var lastUse: [Int]
    private var uses = 0

    init(count: Int = 4) {
        tables = (0..<count).map { _ in GradientTable() }
        lastUse = Array(repeating: 0, count: count)
    }

    /// A table holding `stops` at `size` entries, times `opacity`: one that
    /// already does, or else the least recently used one, rebuilt.
    func table(for stops: GradientStops, size: Int, opacity: Float) -> GradientTable {
        uses += 1
        var chosen = 0
        for i in tables.indices {
            if tables[i].holds(stops, size: size, opacity: opacity) { chosen = i; break }
            if lastUse[i] < lastUse[chosen] { chosen = i }
        }
        lastUse[chosen] = uses
        tables[chosen].build(stops, size: size, opacity: opacity)
        return tables[chosen]
    }
}
