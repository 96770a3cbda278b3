/// Receives the rasterizer's output, one row at a time, left to right.
///
/// Painters are generic parameters, never existentials, so each paint's inner
/// loop is specialised and inlined into the sweep.
public protocol SpanPainter {
    /// Pixels `x0..<x1` of row `y` all have the same coverage, 1...255.
    mutating func paintSpan(y: Int, x0: Int, x1: Int, coverage: UInt32)
    /// Pixels `x0..<x0+count` of row `y`, each with its own coverage, 0...255.
    mutating func paintMaskedSpan(y: Int, x0: Int, count: Int, coverage: UnsafePointer<UInt8>)
}

/// How overlapping parts of a path count as inside.
public enum FillRule: Sendable {
    case nonZero
    case evenOdd
}
