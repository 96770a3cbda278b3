/// The direction of each pixel of a box from one centre, kept from fill to
/// fill and frame to frame: a conic gradient around that centre looks a
/// pixel's angle up here instead of working out its arc tangent.
///
/// A radar's sweep is a conic ramp redrawn every frame around a centre that
/// does not move; its arc tangents were half its cost. Angles are worked out
/// when a fill first needs them, eight pixels at a time, so a map costs
/// nothing until the ramp has passed over a pixel, and no frame pays for the
/// whole box at once. Angles are in 65,536ths of a turn (`turns`), the unit
/// in which a conic ramp finds its entry with or without a map, so the two
/// give the same pixels.
public final class ConicAngleMap {
    /// The centre the angles are measured from, in device pixels.
    public private(set) var center = Point(0, 0)
    /// The pixels the map holds.
    public private(set) var box = IntRect.empty

    @usableFromInline var angles: UnsafeMutablePointer<UInt16>
    /// One bit per block of eight pixels of a row: whether its angles are there.
    @usableFromInline var ready: UnsafeMutablePointer<UInt64>
    @usableFromInline var rowPixels = 0
    @usableFromInline var rowWords = 0
    private var angleCapacity = 0
    private var wordCapacity = 0

    public init() {
        angles = .allocate(capacity: 8)
        ready = .allocate(capacity: 1)
    }

    deinit {
        angles.deallocate()
        ready.deallocate()
    }

    /// Makes the map hold the angles around `center` within `box`. Nothing
    /// changes if both are what they were; otherwise every angle is forgotten
    /// (and memory allocated only if the box is larger than any before).
    public func prepare(center: Point, box: IntRect) {
        if center == self.center && box == self.box { return }
        self.center = center
        self.box = box
        // Whole blocks, and one spare block so that a block's vector store stays inside.
        rowPixels = (max(box.width, 0) + 7) / 8 * 8 + 8
        rowWords = (rowPixels / 8 + 63) / 64
        let height = max(box.height, 0)
        // Zeroed, though only read past a span's end (its last vector's spare lanes, never used).
        reserveZeroed(&angles, capacity: &angleCapacity, count: rowPixels * height)
        reserveZeroed(&ready, capacity: &wordCapacity, count: rowWords * height)
        ready.update(repeating: 0, count: rowWords * height)
    }

    /// Whether pixels `x..<x+count` of row `y` lie in the box.
    @inlinable
    func holds(y: Int, x: Int, count: Int) -> Bool {
        y >= box.y && y < box.maxY && x >= box.x && x + count <= box.maxX
    }

    /// The angles of pixels `x..<x+count` of row `y` (inside the box),
    /// working out those of blocks not seen before.
    @inlinable
    func angles(y: Int, x: Int, count: Int) -> UnsafePointer<UInt16> {
        let row = y - box.y, first = x - box.x
        let rowAngles = angles + row * rowPixels, rowReady = ready + row * rowWords
        var block = first >> 3
        let lastBlock = (first + count - 1) >> 3
        while block <= lastBlock {
            if rowReady[block >> 6] & (1 &<< UInt64(block & 63)) == 0 {
                compute(rowAngles + (block << 3), y: y, x: box.x + (block << 3))
                rowReady[block >> 6] |= 1 &<< UInt64(block & 63)
            }
            block += 1
        }
        return UnsafePointer(rowAngles + first)
    }

    /// Angles of pixels `x..<x+8` of row `y`.
    @usableFromInline
    func compute(_ out: UnsafeMutablePointer<UInt16>, y: Int, x: Int) {
        let turns = Self.turns(dy: Self.offset(Float(y), from: center.y),
                               dx: Self.offset(SIMD8(repeating: Float(x)) + Self.lanes, from: center.x))
        UnsafeMutableRawPointer(out).storeBytes(of: SIMD8<UInt16>(truncatingIfNeeded: turns), as: SIMD8<UInt16>.self)
    }

    /// 0...7, to make eight neighbouring pixels' coordinates from the first's.
    public static let lanes = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)

    /// How far the centres of pixels at `coordinate` (whole numbers, exact in
    /// a Float) lie from `center` along one axis. Worked out from the
    /// coordinate alone, never stepped along a span, so that a map and a
    /// span shaded on its own, from wherever it starts, agree to the last bit.
    @inlinable @inline(__always)
    public static func offset<V: SIMD>(_ coordinate: V, from center: Float) -> V where V.Scalar == Float {
        coordinate + (0.5 - center)
    }

    /// The row's offset, as a vector.
    @inlinable @inline(__always)
    public static func offset(_ coordinate: Float, from center: Float) -> SIMD8<Float> {
        SIMD8(repeating: coordinate + (0.5 - center))
    }

    /// The directions of eight pixels `dx`, `dy` from a centre, in 65,536ths
    /// of a turn: the low 16 bits of each lane (the bits above are not zero).
    @inlinable @inline(__always)
    public static func turns(dy: SIMD8<Float>, dx: SIMD8<Float>) -> SIMD8<UInt32> {
        // Rounded by adding 1.5 × 2^23, which leaves the integer in the low
        // bits, negative angles wrapped round the turn.
        unsafeBitCast(FastMath.atan2(dy, dx) * (65_536 / (2 * .pi)) + 12_582_912, to: SIMD8<UInt32>.self)
    }
}
