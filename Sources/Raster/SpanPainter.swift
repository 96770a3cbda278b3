/// Receives the rasterizer's output, one row at a time, left to right.
///
/// Painters are generic parameters, never existentials, so each paint's inner
/// loop is specialised and inlined into the sweep.
public protocol SpanPainter {
    /// Pixels `x0..<x1` of row `y` all have the same coverage, 1...255.
    mutating func paintSpan(y: Int, x0: Int, x1: Int, coverage: UInt32)
    /// Pixels `x0..<x0+count` of row `y`, each with its own coverage, 0...255.
    mutating func paintMaskedSpan(y: Int, x0: Int, count: Int, coverage: UnsafePointer<UInt8>)

    /// Whether the sweep hands over each group of four cells as it finishes it
    /// (`paintGroup`), rather than gathering neighbouring groups into runs for
    /// `paintMaskedSpan`. Thin shapes make runs of one or two groups, and a
    /// painter that blends four pixels in a few instructions then saves the
    /// call and set-up of a run.
    static var paintsGroups: Bool { get }

    /// Pixels `x0..<x0+4` of row `y`, their coverages 0...255 in the lanes.
    mutating func paintGroup(y: Int, x0: Int, coverage: SIMD4<UInt32>)
}

extension SpanPainter {
    public static var paintsGroups: Bool { false }

    @inlinable
    public mutating func paintGroup(y: Int, x0: Int, coverage: SIMD4<UInt32>) {
        var bytes = SIMD4<UInt8>(truncatingIfNeeded: coverage)
        withUnsafeBytes(of: &bytes) {
            paintMaskedSpan(y: y, x0: x0, count: 4, coverage: $0.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
    }
}

/// How overlapping parts of a path count as inside.
public enum FillRule: Sendable {
    case nonZero
    case evenOdd
}
