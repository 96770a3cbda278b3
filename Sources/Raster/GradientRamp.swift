/// How a gradient painter turns a pixel's offset into its colour: the table
/// of colours and the way into it.
///
/// Each shading loop copies it into a local before it starts. Read through
/// the painter, its fields were loaded again after every store into the
/// target, which the optimiser could not prove left them alone: ten
/// instructions per eight pixels on 128-bit targets.
@usableFromInline
struct GradientRamp {
    @usableFromInline let table: UnsafePointer<UInt32>
    /// Table positions per unit of offset.
    @usableFromInline let scale: Float
    @usableFromInline let lastIndex: Int32
    @usableFromInline let repeats: Bool
    /// A conic ramp's start angle in 65,536ths of a turn.
    @usableFromInline let startTurns: UInt32

    init(table: GradientTable, repeats: Bool, startTurns: UInt32) {
        self.table = UnsafePointer(table.entries)
        // A repeating ramp wraps over the whole table; a padded one ends on its last entry.
        scale = repeats ? Float(table.size) : Float(table.size - 1)
        lastIndex = Int32(table.size - 1)
        self.repeats = repeats
        self.startTurns = startTurns
    }

    /// Table colours for eight angles in 65,536ths of a turn: each angle past
    /// the start, as a fraction of the turn, is the table position.
    @inlinable @inline(__always)
    func lookUp(turns: SIMD8<UInt32>, into out: UnsafeMutablePointer<UInt32>, lanes: Int) {
        let past = (turns &- SIMD8(repeating: startTurns)) & SIMD8(repeating: 0xFFFF)
        gather(unsafeBitCast(past &>> 6, to: SIMD8<Int32>.self), into: out, lanes: lanes)
    }

    /// Table colours for eight gradient offsets; stores the first `lanes`.
    @inlinable @inline(__always)
    func lookUp(_ t: SIMD8<Float>, into out: UnsafeMutablePointer<UInt32>, lanes: Int) {
        // Round to the nearest integer by adding 1.5·2^23: the integer lands in the
        // low mantissa bits (Swift's generic SIMD float-to-int conversion runs lane by lane).
        let magic: Float = 12_582_912
        var index: SIMD8<Int32>
        if repeats {
            index = unsafeBitCast(t * scale - 0.5 + magic, to: SIMD8<Int32>.self) & lastIndex
        } else {
            index = unsafeBitCast(t * scale + magic, to: SIMD8<Int32>.self) &- 0x4B40_0000
            // Clamp to the table: negatives to 0 by their sign mask (a comparison
            // against a scalar literal would run lane by lane), then the top end.
            index &= ~(index &>> 31)
            let last = SIMD8<Int32>(repeating: lastIndex)
            index = index.replacing(with: last, where: index .> last)
        }
        gather(index, into: out, lanes: lanes)
    }

    /// Writes the table colours at eight indices; stores the first `lanes`.
    @inlinable @inline(__always)
    func gather(_ index: SIMD8<Int32>, into out: UnsafeMutablePointer<UInt32>, lanes: Int) {
        if lanes == 8 {
            // The indices go through memory: read back one by one they cost a
            // load each, and with extracts from the vector instead the
            // optimiser split the shading maths into single lanes (1.08 ms
            // instead of 0.94 for the reference frame).
            UnsafeMutableRawPointer(out).storeBytes(of: unsafeBitCast(index, to: SIMD8<UInt32>.self), as: SIMD8<UInt32>.self)
            out[0] = table[Int(out[0])]; out[1] = table[Int(out[1])]
            out[2] = table[Int(out[2])]; out[3] = table[Int(out[3])]
            out[4] = table[Int(out[4])]; out[5] = table[Int(out[5])]
            out[6] = table[Int(out[6])]; out[7] = table[Int(out[7])]
        } else {
            for k in 0..<lanes { out[k] = table[Int(index[k])] }
        }
    }
}
