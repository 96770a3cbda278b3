import Raster

/// The traffic blip drawn once per quarter-pixel position and kept: fifty
/// aircraft on a sweeping dial cost fifty small composites a frame instead
/// of fifty rasterized gradients, and a blip still moves in quarter pixels.
/// A sprite at phase (px, py) is the blip centred at (px/4, py/4) past its
/// top-left pixel plus `reach`; the renderer places it by the blip's
/// position, so a frame drawn whole and one redrawn in part put the same pixels.
final class BlipSprites {
    static let phases = 4
    private(set) var scale: Float = 0
    /// How far a sprite reaches from the blip's centre, whole pixels.
    private(set) var reach = 0
    private var sprites: [PixelBuffer] = []
    private var painter = DialPainter()

    /// Draws the sprites for `scale` unless they are drawn for it already.
    func prepare(scale: Float) {
        guard scale != self.scale || sprites.isEmpty else { return }
        self.scale = scale
        reach = Int((DialPainter.trafficGlowRadius * scale).rounded(.up)) + 1
        let side = 2 * reach + 1
        sprites.removeAll(keepingCapacity: true)
        for py in 0..<Self.phases {
            for px in 0..<Self.phases {
                let sprite = PixelBuffer(width: side, height: side)
                let canvas = Canvas(target: sprite)
                painter.drawTrafficBlip(at: Point(Float(reach) + Float(px) / Float(Self.phases), Float(reach) + Float(py) / Float(Self.phases)),
                                        scale: scale, highlighted: false, in: canvas)
                sprites.append(sprite)
            }
        }
    }

    /// Each sprite's width and height.
    var side: Int { 2 * reach + 1 }

    /// The sprite (by index) and its top-left pixel for a blip centred at `q`.
    @inline(__always)
    func placement(for q: Point) -> (index: Int, x: Int, y: Int) {
        let ix = Int((q.x * Float(Self.phases)).rounded(.down)), iy = Int((q.y * Float(Self.phases)).rounded(.down))
        let px = ((ix % Self.phases) + Self.phases) % Self.phases, py = ((iy % Self.phases) + Self.phases) % Self.phases
        return (py * Self.phases + px, (ix - px) / Self.phases - reach, (iy - py) / Self.phases - reach)
    }

    subscript(index: Int) -> PixelBuffer { sprites[index] }
}
