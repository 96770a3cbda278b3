/// How standby's dial sweeps: what is drawn (a wedge fading behind its
/// edge, the edge alone, or nothing), how long a turn takes, and how bright
/// it is. Calm by default: a turn every six seconds at six tenths of the
/// reference scene's brightness, so the sweep is not the loudest thing in
/// the room; `off` stops it, and a standby screen then draws nothing at all
/// until something changes.
public struct SweepSettings: Equatable, Sendable {
    public enum Style: String, Sendable, CaseIterable {
        case wedge, line, off
    }

    public var style = Style.wedge
    /// Seconds a turn takes.
    public var periodSeconds = 6.0
    /// 0...1 of the reference scene's sweep.
    public var opacity = 0.6

    public init() {}

    public init(style: Style, periodSeconds: Double, opacity: Double) {
        self.style = style
        self.periodSeconds = periodSeconds
        self.opacity = opacity
    }

    /// The sweep's speed, degrees a second.
    public var degreesPerSecond: Double { 360 / periodSeconds }

    /// Whether anything sweeps.
    public var sweeps: Bool { style != .off }
}
