import Raster

/// Where frames go: a DRM/KMS output or the headless recorder. The display
/// knows nothing of what is drawn: it hands out a frame in ordinary cached
/// memory, shows it at the next refresh, and says when it did.
public protocol Display: AnyObject {
    var width: Int { get }
    var height: Int { get }
    /// Refreshes per second of the mode (or the simulated rate).
    var refreshRate: Double { get }
    /// A human-readable name for logs and STATUS= (connector, or "headless").
    var name: String { get }
    /// The frame to draw the next picture into. Its contents are the last
    /// presented picture, so a partial redraw only touches the damage.
    var frame: PixelBuffer { get }
    /// Shows `frame` at the next refresh; `damage` is what changed since the
    /// last present. Returns the time (monotonic seconds) the picture is expected on screen.
    @discardableResult
    func present(damage: IntRect, at time: Double) throws -> Double
}

/// Errors of a display, each naming what to do about it.
public struct DisplayError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
