/// How the picture is turned on a panel mounted sideways or upside down,
/// clockwise as the viewer sees it (what Raspberry Pi's display_rotate and
/// Slint's SLINT_KMS_ROTATION mean). Quarter turns swap the frame's width and
/// height: a 800x480 panel turned 90° shows a 480x800 picture.
public enum DisplayRotation: Int, Sendable, CaseIterable {
    case upright = 0
    case quarterTurn = 90
    case halfTurn = 180
    case threeQuarterTurn = 270

    public init?(degrees: Int) { self.init(rawValue: degrees) }

    public var degrees: Int { rawValue }

    /// Whether the frame's axes are the panel's axes swapped.
    public var swapsAxes: Bool { self == .quarterTurn || self == .threeQuarterTurn }
}

/// The pixel format of a scanout buffer: what the panel takes, not what the
/// kiosk draws (it always draws 32-bit premultiplied).
public enum ScanoutPixelFormat: String, Sendable, CaseIterable {
    /// DRM_FORMAT_XRGB8888: every display controller takes it.
    case xrgb8888
    /// DRM_FORMAT_RGB565: small SPI and parallel panels; half the bytes to move.
    case rgb565

    public var bitsPerPixel: UInt8 { self == .xrgb8888 ? 32 : 16 }
    /// The legacy depth drmModeAddFB pairs with the bits per pixel.
    public var depth: UInt8 { self == .xrgb8888 ? 24 : 16 }
    public var bytesPerPixel: Int { Int(bitsPerPixel) / 8 }
}
