import Raster

/// The dial as it is under the sweep, kept from a full frame so that the
/// frames that follow, while only the sweep moves, redraw the sweep alone.
///
/// It holds the pixels of the dial's box after everything drawn before the
/// sweep (the background, the leaves before the dial, the dial's face), and
/// where each label drawn over the sweep lies. A sweep frame copies back the
/// box of the last sweep and of this one, draws the sweep there, and draws
/// again the labels it reaches: the same pixels a full frame would draw, on
/// a quarter of the dial or less, and the damage (so the copy to the
/// display) shrinks with it.
final class SweepCache {
    /// The dial's box in frame coordinates, and its pixels under the sweep.
    private(set) var box = IntRect.empty
    private var pixels: PixelBuffer?
    /// The frame it was taken from: a cache is only good for the buffer it came from.
    private weak var frame: PixelBuffer?
    /// Where each label drawn over the sweep lies: N, E, S, W, then the three ranges.
    var labels = [IntRect](repeating: .empty, count: 7)
    /// Where the last sweep drew.
    var lastSweep = IntRect.empty
    /// The leaves drawn over the dial after it (the aircraft's marker, a
    /// note across the disc): their places in the render list and the
    /// boxes they drew. A sweep frame draws each again where it copies the
    /// dial back under it.
    private(set) var overlays: [(item: Int, box: IntRect)] = []
    /// More leaves over the dial than this, and a sweep frame would be most of
    /// a whole one: the cache is dropped instead.
    static let overlayCapacity = 4
    /// Whether a sweep frame may use it.
    private(set) var isValid = false

    init() { overlays.reserveCapacity(Self.overlayCapacity) }

    /// Keeps `box` of `frame` as the dial under the sweep.
    func take(_ box: IntRect, of frame: PixelBuffer) {
        let box = box.intersection(frame.bounds)
        // One buffer, grown when a larger dial needs it: no allocation per frame.
        if pixels == nil || pixels!.width < box.width || pixels!.height < box.height {
            pixels = PixelBuffer(width: max(box.width, pixels?.width ?? 0), height: max(box.height, pixels?.height ?? 0))
        }
        pixels!.copy(IntRect(x: 0, y: 0, width: box.width, height: box.height), from: frame, sourceOrigin: (-box.x, -box.y))
        self.box = box
        self.frame = frame
        isValid = !box.isEmpty
    }

    /// Puts the dial under the sweep back into `rect` of `frame`.
    func restore(_ rect: IntRect, into frame: PixelBuffer) {
        guard let pixels else { return }
        frame.copy(rect.intersection(box), from: pixels, sourceOrigin: (box.x, box.y))
    }

    func invalidate() {
        isValid = false
        overlays.removeAll(keepingCapacity: true)
    }

    /// Leaf `item` of the render list drew `box` over the dial.
    func addOverlay(item: Int, box: IntRect) {
        guard isValid else { return }
        guard overlays.count < Self.overlayCapacity else { return invalidate() }
        overlays.append((item, box))
    }

    /// Whether the cache was taken from `frame` and covers `rect`.
    func covers(_ rect: IntRect, in frame: PixelBuffer) -> Bool {
        isValid && self.frame === frame && box.contains(rect)
    }
}
