/// Multiplies another painter's coverage by a clip mask the size of the target.
public struct ClippedPainter<Inner: SpanPainter>: SpanPainter {
    @usableFromInline var inner: Inner
    @usableFromInline let mask: AlphaMask
    @usableFromInline let scratch: UnsafeMutablePointer<UInt8>

    /// `scratch` holds at least one row of coverage.
    public init(_ inner: Inner, mask: AlphaMask, scratch: UnsafeMutablePointer<UInt8>) {
        self.inner = inner
        self.mask = mask
        self.scratch = scratch
    }

    @inlinable
    public mutating func paintSpan(y: Int, x0: Int, x1: Int, coverage: UInt32) {
        let m = mask.row(y) + x0
        for i in 0..<(x1 - x0) {
            scratch[i] = UInt8(truncatingIfNeeded: PixelMath.multiply(UInt32(m[i]), coverage))
        }
        inner.paintMaskedSpan(y: y, x0: x0, count: x1 - x0, coverage: scratch)
    }

    @inlinable
    public mutating func paintMaskedSpan(y: Int, x0: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        let m = mask.row(y) + x0
        for i in 0..<count {
            scratch[i] = UInt8(truncatingIfNeeded: PixelMath.multiply(UInt32(m[i]), UInt32(coverage[i])))
        }
        inner.paintMaskedSpan(y: y, x0: x0, count: count, coverage: scratch)
    }
}

/// Writes coverage into an alpha mask: how a clip path becomes a mask.
public struct MaskPainter: SpanPainter {
    @usableFromInline let mask: AlphaMask

    public init(mask: AlphaMask) { self.mask = mask }

    @inlinable
    public mutating func paintSpan(y: Int, x0: Int, x1: Int, coverage: UInt32) {
        (mask.row(y) + x0).update(repeating: UInt8(truncatingIfNeeded: coverage), count: x1 - x0)
    }

    @inlinable
    public mutating func paintMaskedSpan(y: Int, x0: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        (mask.row(y) + x0).update(from: coverage, count: count)
    }
}
