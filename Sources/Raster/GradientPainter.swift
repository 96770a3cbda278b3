#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Paints a gradient: computes each pixel's table index eight lanes at a time,
/// looks the colour up, and blends by coverage. Opaque ramps at full coverage
/// are written straight into the target.
public struct GradientPainter: SpanPainter {
    @usableFromInline enum Shape {
        case linear(origin: Point, step: Point)          // offset = dot(p - origin, step)
        case radial(center: Point, inverseRadius: Float)
        case conic(center: Point, startAngle: Float)
    }

    @usableFromInline let base: UnsafeMutablePointer<UInt32>
    @usableFromInline let rowPixels: Int
    @usableFromInline let table: UnsafePointer<UInt32>
    @usableFromInline let tableScale: Float
    @usableFromInline let tableMask: Int32
    @usableFromInline let isOpaque: Bool
    @usableFromInline let repeats: Bool
    @usableFromInline let shape: Shape
    @usableFromInline let scratch: UnsafeMutablePointer<UInt32>

    /// `geometry` is in device pixels; `table` was built for this gradient;
    /// `scratch` holds at least one row of the target.
    public init(target: PixelBuffer, geometry: Gradient.Geometry, spread: GradientSpread,
                table: GradientTable, scratch: UnsafeMutablePointer<UInt32>) {
        base = target.pixels
        rowPixels = target.rowPixels
        self.table = UnsafePointer(table.entries)
        isOpaque = table.isOpaque
        self.scratch = scratch
        switch geometry {
        case let .linear(start, end):
            let d = end - start
            let len2 = (d * d).sum()
            shape = .linear(origin: start, step: len2 > 0 ? d / len2 : .zero)
            repeats = spread == .repeat
        case let .radial(center, radius):
            shape = .radial(center: center, inverseRadius: radius > 0 ? 1 / radius : 0)
            repeats = spread == .repeat
        case let .conic(center, startAngle):
            shape = .conic(center: center, startAngle: startAngle)
            repeats = true
        }
        // A repeating ramp wraps over the whole table; a padded one ends on its last entry.
        tableScale = repeats ? Float(table.size) : Float(table.size - 1)
        tableMask = Int32(table.size - 1)
    }

    @inlinable
    public mutating func paintSpan(y: Int, x0: Int, x1: Int, coverage: UInt32) {
        let dst = base + y * rowPixels + x0
        let n = x1 - x0
        if coverage == 255 && isOpaque {
            shade(into: dst, y: y, x0: x0, count: n)
        } else {
            shade(into: scratch, y: y, x0: x0, count: n)
            SpanCompositor.blend(dst, source: scratch, count: n, coverage: coverage)
        }
    }

    @inlinable
    public mutating func paintMaskedSpan(y: Int, x0: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        shade(into: scratch, y: y, x0: x0, count: count)
        let p = base + y * rowPixels + x0
        for i in 0..<count {
            let c = UInt32(coverage[i])
            if c == 0 { continue }
            let s = c == 255 ? scratch[i] : PixelMath.scale(scratch[i], by: c)
            p[i] = PixelMath.sourceOver(s, p[i])
        }
    }

    /// Writes the colours of pixels `x0..<x0+count` of row `y` to `out`.
    @inlinable
    func shade(into out: UnsafeMutablePointer<UInt32>, y: Int, x0: Int, count: Int) {
        let lane = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        let py = Float(y) + 0.5
        var i = 0
        while i < count {
            let px = lane + (Float(x0 + i) + 0.5)
            var t: SIMD8<Float>
            switch shape {
            case let .linear(origin, step):
                t = (px - origin.x) * step.x + (py - origin.y) * step.y
            case let .radial(center, inverseRadius):
                let dx = px - center.x, dy = py - center.y
                t = (dx * dx + dy * dy).squareRoot() * inverseRadius
            case let .conic(center, startAngle):
                let dx = px - center.x
                let dy = SIMD8<Float>(repeating: py - center.y)
                t = (FastMath.atan2(dy, dx) - startAngle) * (1 / (2 * Float.pi))
            }
            var index: SIMD8<Int32>
            if repeats {
                t = t - t.rounded(.down)
                index = SIMD8<Int32>(t * tableScale) & tableMask
            } else {
                t = t.clamped(lowerBound: SIMD8(repeating: 0), upperBound: SIMD8(repeating: 1))
                index = SIMD8<Int32>(t * tableScale + 0.5)
            }
            let lanes = min(8, count - i)
            for k in 0..<lanes {
                out[i + k] = table[Int(index[k])]
            }
            i += 8
        }
    }
}
