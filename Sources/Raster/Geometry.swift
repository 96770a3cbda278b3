#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A point or vector in device pixels. Raster works in `Float`: 24 bits of
/// mantissa are ample for panels up to 16k pixels and halve the memory traffic.
public typealias Point = SIMD2<Float>

/// An axis-aligned rectangle in device pixels, with a floating-point origin and size.
public struct Rect: Equatable, Sendable {
    public var x: Float
    public var y: Float
    public var width: Float
    public var height: Float

    public init(x: Float, y: Float, width: Float, height: Float) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Float { x + width }
    public var maxY: Float { y + height }
    public var center: Point { Point(x + width / 2, y + height / 2) }

    /// Whether the two overlap (edges that only touch do not).
    public func intersects(_ other: Rect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// The smallest whole-pixel rectangle that contains this one.
    public var enclosingPixels: IntRect {
        let x0 = Int(floorf(x)), y0 = Int(floorf(y))
        let x1 = Int(ceilf(maxX)), y1 = Int(ceilf(maxY))
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// A rectangle of whole pixels: clip regions, damage, buffer bounds.
public struct IntRect: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public static let empty = IntRect(x: 0, y: 0, width: 0, height: 0)

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var area: Int { isEmpty ? 0 : width * height }

    public func intersection(_ other: IntRect) -> IntRect {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        if x1 <= x0 || y1 <= y0 { return .empty }
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public func union(_ other: IntRect) -> IntRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(x, other.x), y0 = min(y, other.y)
        let x1 = max(maxX, other.maxX), y1 = max(maxY, other.maxY)
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The rectangle grown by `amount` pixels on every side.
    public func outset(by amount: Int) -> IntRect {
        IntRect(x: x - amount, y: y - amount, width: width + 2 * amount, height: height + 2 * amount)
    }

    public func contains(_ other: IntRect) -> Bool {
        other.isEmpty || (other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY)
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// A 2D affine transform, `x' = a x + c y + tx`, `y' = b x + d y + ty`.
public struct AffineTransform: Equatable, Sendable {
    public var a: Float, b: Float, c: Float, d: Float, tx: Float, ty: Float

    public init(a: Float, b: Float, c: Float, d: Float, tx: Float, ty: Float) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public static func translation(_ x: Float, _ y: Float) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    public static func scale(_ sx: Float, _ sy: Float) -> AffineTransform {
        AffineTransform(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// Rotation by `radians`, clockwise on screen (y grows downwards).
    public static func rotation(_ radians: Float) -> AffineTransform {
        let s = sinf(radians), k = cosf(radians)
        return AffineTransform(a: k, b: s, c: -s, d: k, tx: 0, ty: 0)
    }

    /// `self` applied first, then `other`.
    public func concatenating(_ other: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * other.a + b * other.c, b: a * other.b + b * other.d,
            c: c * other.a + d * other.c, d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx, ty: tx * other.b + ty * other.d + other.ty)
    }

    @inlinable
    public func apply(_ p: Point) -> Point {
        Point(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty)
    }

    /// The factor by which the transform scales lengths (geometric mean of its axes),
    /// used to pick flattening tolerances and stroke widths.
    public var lengthScale: Float { sqrtf(fabsf(a * d - b * c)) }

    public var isIdentity: Bool { self == .identity }
}
