import Display

/// Where a touch lands on the picture: the device reports fractions of its
/// own axes in the panel's own orientation (a Touch Display 2's touch is not
/// turned with the picture), so a calibration (axes swapped or inverted, for
/// a panel wired the other way) and then the picture's turn map it into the
/// frame's pixels.
public struct TouchMapping: Equatable, Sendable {
    public var swapsAxes = false
    public var invertsX = false
    public var invertsY = false
    /// The picture's turn on the panel (the configuration's rotation).
    public var rotation = DisplayRotation.upright

    public init(swapsAxes: Bool = false, invertsX: Bool = false, invertsY: Bool = false, rotation: DisplayRotation = .upright) {
        self.swapsAxes = swapsAxes
        self.invertsX = invertsX
        self.invertsY = invertsY
        self.rotation = rotation
    }

    /// The frame pixel (of a `width` x `height` frame, turned) under the device's fractions `x`, `y`.
    public func point(x: Double, y: Double, width: Double, height: Double) -> (x: Double, y: Double) {
        var (u, v) = swapsAxes ? (y, x) : (x, y)
        if invertsX { u = 1 - u }
        if invertsY { v = 1 - v }
        let (w, h) = (width, height)
        // The inverse of the copy's turn (ScanoutCopier): panel fractions back to the frame.
        switch rotation {
        case .upright: return (u * w, v * h)
        case .quarterTurn: return (v * w, (1 - u) * h)
        case .halfTurn: return ((1 - u) * w, (1 - v) * h)
        case .threeQuarterTurn: return ((1 - v) * w, u * h)
        }
    }
}
