/// A colour in sRGB with straight (not premultiplied) alpha, components 0...1.
///
/// Raster blends in sRGB space without linearisation, as cairo, Skia and Blend2D
/// do by default, so that frames compare with theirs.
public struct Color: Equatable, Sendable {
    public var red: Float
    public var green: Float
    public var blue: Float
    public var alpha: Float

    public init(red: Float, green: Float, blue: Float, alpha: Float = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A colour from a 24-bit `0xRRGGBB` value and an alpha.
    public init(hex: UInt32, alpha: Float = 1) {
        self.init(red: Float((hex >> 16) & 0xFF) / 255,
                  green: Float((hex >> 8) & 0xFF) / 255,
                  blue: Float(hex & 0xFF) / 255,
                  alpha: alpha)
    }

    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)

    public func withAlpha(_ a: Float) -> Color {
        Color(red: red, green: green, blue: blue, alpha: a)
    }

    /// The premultiplied 32-bit pixel, byte order B, G, R, A in memory
    /// (`0xAARRGGBB` as a little-endian word), each channel rounded.
    @inlinable
    public var premultipliedPixel: UInt32 {
        let a = min(max(alpha, 0), 1)
        let a8 = UInt32(a * 255 + 0.5)
        func channel(_ v: Float) -> UInt32 {
            UInt32(min(max(v, 0), 1) * a * 255 + 0.5)
        }
        return (a8 << 24) | (channel(red) << 16) | (channel(green) << 8) | channel(blue)
    }

    /// Linear interpolation in sRGB, straight alpha.
    public func interpolated(to other: Color, amount t: Float) -> Color {
        Color(red: red + (other.red - red) * t,
              green: green + (other.green - green) * t,
              blue: blue + (other.blue - blue) * t,
              alpha: alpha + (other.alpha - alpha) * t)
    }
}
