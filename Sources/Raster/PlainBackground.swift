/// The part of a canvas's target that still holds the colour of the last
/// clear: the cleared rectangle, less the boxes drawn into it since.
///
/// A solid shape that lies wholly in that part is blended over a known
/// colour, so each of its spans of one coverage is one colour, filled
/// instead of blended pixel by pixel: a translucent card over the
/// background (448,000 pixels at 1080p) costs stores, not loads and
/// arithmetic. The pixels are those of the blend, exactly.
///
/// What it knows is only ever too little: every box drawn is subtracted (as
/// a box), and whatever the canvas cannot see (its target handed out, a
/// layer, another buffer) makes it forget.
struct PlainBackground {
    private(set) var color: UInt32 = 0
    private var area = IntRect.empty
    /// Boxes drawn inside `area` since the clear; a few, kept in capacity
    /// reserved once, so that noting a box never allocates.
    private var drawn: [IntRect] = []
    private static let boxLimit = 16

    init() {
        drawn.reserveCapacity(Self.boxLimit)
    }

    /// `rect` was filled with `color`.
    mutating func cleared(_ rect: IntRect, to color: UInt32) {
        self.color = color
        area = rect
        drawn.removeAll(keepingCapacity: true)
    }

    /// Pixels in `rect` may have changed.
    mutating func drew(_ rect: IntRect) {
        let inside = rect.intersection(area)
        if inside.isEmpty { return }
        // Most of a dial's shapes lie inside its disc, drawn first.
        for box in drawn where box.contains(inside) { return }
        if drawn.count < Self.boxLimit {
            drawn.append(inside)
            return
        }
        // Full: the box joins the one it grows least, which only loses knowledge.
        var best = 0, bestGrowth = Int.max
        for (i, box) in drawn.enumerated() {
            let growth = box.union(inside).area - box.area
            if growth < bestGrowth { best = i; bestGrowth = growth }
        }
        drawn[best] = drawn[best].union(inside)
    }

    /// Nothing is known of the pixels any more.
    mutating func forget() {
        area = .empty
        drawn.removeAll(keepingCapacity: true)
    }

    /// The colour the pixels of `rect` hold, in every row of it outside
    /// `drawnRows`, if that is known: a box drawn into a corner of a card's
    /// box (a label beside it) leaves the card's other rows plain.
    func color(under rect: IntRect) -> (color: UInt32, drawnRows: Range<Int>)? {
        guard !rect.isEmpty, area.contains(rect) else { return nil }
        var top = rect.maxY, bottom = rect.y
        for box in drawn {
            let overlap = box.intersection(rect)
            if overlap.isEmpty { continue }
            top = min(top, overlap.y)
            bottom = max(bottom, overlap.maxY)
        }
        if top <= rect.y && bottom >= rect.maxY { return nil }
        return (color, top < bottom ? top..<bottom : 0..<0)
    }
}
