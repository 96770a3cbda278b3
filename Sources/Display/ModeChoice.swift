/// What a display mode is, for choosing one: its size and refresh.
public protocol DisplayModeShape {
    var width: Int { get }
    var height: Int { get }
    var refreshRate: Double { get }
}

/// Which mode the kiosk shows on a connector, and whether that is the mode
/// already on it: keeping the current mode when it fits what was asked for
/// means taking over the screen without the flicker of a mode change.
public struct ModeChoice<Mode: DisplayModeShape> {
    public let mode: Mode
    /// True when `mode` is the connector's current mode.
    public let keepsCurrent: Bool

    /// The current mode when it matches `size` and `refresh` (or nothing was
    /// asked for); else the first offered mode that matches; with nothing asked
    /// for and nothing current, the preferred one. Nil when nothing matches.
    public static func choose(current: Mode?, offered: [Mode], preferred: Mode?,
                              size: (width: Int, height: Int)?, refresh: Double?) -> ModeChoice? {
        func matches(_ m: Mode) -> Bool {
            (size.map { m.width == $0.width && m.height == $0.height } ?? true)
                && (refresh.map { abs(m.refreshRate - $0) < 0.5 } ?? true)
        }
        if let current, matches(current) { return ModeChoice(mode: current, keepsCurrent: true) }
        if size != nil || refresh != nil { return offered.first(where: matches).map { ModeChoice(mode: $0, keepsCurrent: false) } }
        return preferred.map { ModeChoice(mode: $0, keepsCurrent: false) }
    }
}
