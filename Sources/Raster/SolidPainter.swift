/// Paints one premultiplied colour, blending by coverage.
public struct SolidPainter: SpanPainter {
    @usableFromInline let base: UnsafeMutablePointer<UInt32>
    @usableFromInline let rowPixels: Int
    @usableFromInline let color: UInt32

    @inlinable
    public init(target: PixelBuffer, color: UInt32) {
        base = target.pixels
        rowPixels = target.rowPixels
        self.color = color
    }

    @inlinable
    public mutating func paintSpan(y: Int, x0: Int, x1: Int, coverage: UInt32) {
        let source = coverage == 255 ? color : PixelMath.scale(color, by: coverage)
        SpanCompositor.blendSolid(base + y * rowPixels + x0, count: x1 - x0, source: source)
    }

    @inlinable
    public mutating func paintMaskedSpan(y: Int, x0: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        SpanCompositor.blendSolid(base + y * rowPixels + x0, count: count, source: color, coverage: coverage)
    }

    public static var paintsGroups: Bool { true }

    @inlinable @inline(__always)
    public mutating func paintGroup(y: Int, x0: Int, coverage: SIMD4<UInt32>) {
        if PixelVector.isZero(coverage) { return }
        let raw = UnsafeMutableRawPointer(base + y * rowPixels + x0)
        let source = PixelVector.scale(SIMD4(repeating: color), by: coverage)
        raw.storeBytes(of: PixelVector.sourceOver(source, raw.loadUnaligned(as: SIMD4<UInt32>.self)), as: SIMD4<UInt32>.self)
    }
}
