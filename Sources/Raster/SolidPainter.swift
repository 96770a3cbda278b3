/// Paints one premultiplied colour, blending by coverage.
public struct SolidPainter: SpanPainter {
    @usableFromInline let base: UnsafeMutablePointer<UInt32>
    @usableFromInline let rowPixels: Int
    @usableFromInline let color: UInt32
    @usableFromInline let background: UInt32?
    @usableFromInline let drawnRows: Range<Int>

    /// `background`, when given, is the colour of every pixel the painter
    /// will be handed outside `drawnRows`: a span of one coverage there is
    /// one colour, filled.
    @inlinable
    public init(target: PixelBuffer, color: UInt32, over background: UInt32? = nil, except drawnRows: Range<Int> = 0..<0) {
        base = target.pixels
        rowPixels = target.rowPixels
        self.color = color
        self.background = background
        self.drawnRows = drawnRows
    }

    @inlinable
    public mutating func paintSpan(y: Int, x0: Int, x1: Int, coverage: UInt32) {
        let source = coverage == 255 ? color : PixelMath.scale(color, by: coverage)
        if let background, !drawnRows.contains(y) {
            SpanCompositor.fill(base + y * rowPixels + x0, count: x1 - x0, pixel: PixelMath.sourceOver(source, background))
        } else {
            SpanCompositor.blendSolid(base + y * rowPixels + x0, count: x1 - x0, source: source)
        }
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
