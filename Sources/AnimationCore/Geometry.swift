/// A point in the scene's coordinate space (pixels), animatable as itself.
public struct AnimatablePoint: VectorArithmetic, Animatable, Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) { self.x = x; self.y = y }

    public static var zero: Self { Self(x: 0, y: 0) }
    public static func + (l: Self, r: Self) -> Self { Self(x: l.x + r.x, y: l.y + r.y) }
    public static func - (l: Self, r: Self) -> Self { Self(x: l.x - r.x, y: l.y - r.y) }
    public mutating func scale(by rhs: Double) { x *= rhs; y *= rhs }
    public var magnitudeSquared: Double { x * x + y * y }
    public var animatableData: Self { get { self } set { self = newValue } }
}

/// A size in pixels.
public struct AnimatableSize: VectorArithmetic, Animatable, Hashable, Sendable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) { self.width = width; self.height = height }

    public static var zero: Self { Self(width: 0, height: 0) }
    public static func + (l: Self, r: Self) -> Self { Self(width: l.width + r.width, height: l.height + r.height) }
    public static func - (l: Self, r: Self) -> Self { Self(width: l.width - r.width, height: l.height - r.height) }
    public mutating func scale(by rhs: Double) { width *= rhs; height *= rhs }
    public var magnitudeSquared: Double { width * width + height * height }
    public var animatableData: Self { get { self } set { self = newValue } }
}

/// A leaf's frame: origin and size, a 4-component vector (§1.3a).
public struct AnimatableRect: VectorArithmetic, Animatable, Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public static var zero: Self { Self(x: 0, y: 0, width: 0, height: 0) }
    public static func + (l: Self, r: Self) -> Self {
        Self(x: l.x + r.x, y: l.y + r.y, width: l.width + r.width, height: l.height + r.height)
    }
    public static func - (l: Self, r: Self) -> Self {
        Self(x: l.x - r.x, y: l.y - r.y, width: l.width - r.width, height: l.height - r.height)
    }
    public mutating func scale(by rhs: Double) { x *= rhs; y *= rhs; width *= rhs; height *= rhs }
    public var magnitudeSquared: Double { x * x + y * y + width * width + height * height }
    public var animatableData: Self { get { self } set { self = newValue } }

    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    /// The rectangle scaled by `factor` about its centre, as a scale
    /// transition shows a leaf (not about the origin, as the vector scales).
    public func scaled(aboutCenterBy factor: Double) -> Self {
        Self(x: midX - width * factor / 2, y: midY - height * factor / 2, width: width * factor, height: height * factor)
    }

    /// Whether the point lies inside (edges included).
    public func contains(x px: Double, y py: Double) -> Bool { px >= x && px <= maxX && py >= y && py <= maxY }

    /// Rounded to whole pixels (origin to nearest, far edge to nearest), as
    /// layout rounds a leaf's frame before it animates.
    public var pixelAligned: Self {
        let x0 = (x).rounded(), y0 = (y).rounded()
        return Self(x: x0, y: y0, width: (x + width).rounded() - x0, height: (y + height).rounded() - y0)
    }

    public var description: String { "(\(x), \(y), \(width)x\(height))" }
}

/// An angle, animated in radians × 128 as SwiftUI scales it, so that spring
/// finish thresholds mean the same for angles as for points (§3.4).
public struct Angle: Animatable, Hashable, Sendable {
    public var radians: Double
    public init(radians: Double) { self.radians = radians }
    public static func degrees(_ d: Double) -> Angle { Angle(radians: d * .pi / 180) }
    public var degrees: Double { radians * 180 / .pi }
    public var animatableData: Double {
        get { radians * 128 }
        set { radians = newValue / 128 }
    }
}

/// An RGBA colour (components 0...1), animated × 128 like SwiftUI's colours.
public struct AnimatableColor: Animatable, Hashable, Sendable {
    public var red: Double, green: Double, blue: Double, alpha: Double
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    public var animatableData: AnimatableRect {
        get { AnimatableRect(x: red * 128, y: green * 128, width: blue * 128, height: alpha * 128) }
        set { red = newValue.x / 128; green = newValue.y / 128; blue = newValue.width / 128; alpha = newValue.height / 128 }
    }
}
