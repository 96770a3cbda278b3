import Raster

/// A display with no screen: a simulated refresh at a set rate, every presented
/// frame optionally appended to a Y4M video. Its clock is whatever the loop
/// says, so a recording can run faster than real time.
public final class HeadlessDisplay: Presenter {
    public let width: Int
    public let height: Int
    public let refreshRate: Double
    public let frame: PixelBuffer
    public let recorder: Y4MWriter?
    public private(set) var framesPresented = 0
    /// A picture in a file has no size on a screen.
    public var physicalSize: (width: Int, height: Int)? { nil }
    public var name: String { "headless \(width)x\(height)@\(refreshRate.formatted)" }

    public init(width: Int, height: Int, refreshRate: Double, recordTo path: String? = nil) throws {
        self.width = width
        self.height = height
        self.refreshRate = refreshRate
        frame = PixelBuffer(width: width, height: height)
        recorder = try path.map { try Y4MWriter(path: $0, width: width, height: height, framesPerSecond: Int(refreshRate.rounded())) }
    }

    @discardableResult
    public func present(damage: IntRect, at time: Double) throws -> Double {
        try recorder?.append(frame, time: time)
        framesPresented += 1
        return time
    }

    // Ready unless blanked, paced by the caller's clock, with no events of its own.
    public var isReadyToPresent: Bool { isScreenOn }
    public private(set) var isScreenOn = true
    public func setScreenOn(_ on: Bool) { isScreenOn = on }
    public var pacesWithTimer: Bool { true }
    public var eventDescriptor: Int32? { nil }
    public func handleEvents() {}
    public func reprobe() -> PresenterChange? { nil }
    public var pacingSummary: String { "" }
    public func restore() {}
}

extension Double {
    var formatted: String {
        self == rounded() ? String(Int(self)) : String((self * 100).rounded() / 100)
    }
}
