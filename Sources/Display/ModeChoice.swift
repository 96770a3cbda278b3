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
    /// Why this mode rather than the one on the screen or the preferred one, for the log (nil when it is either).
    public var reason: String?

    /// The largest picture the kiosk draws by itself, px: a 4K TV's
    /// 3840x2160 is four times the pixels of 1080p for a software
    /// rasterizer, for nothing one reads from across a room.
    public static var largestChosenArea: Int { 1920 * 1080 }
    /// The slowest refresh taken by itself where a faster one of the size
    /// is offered, Hz: a 4K TV offers 3840x2160 at 30 Hz first, at which
    /// the glide steps visibly.
    public static var slowestChosenRefresh: Double { 49.5 }

    /// Whether the kiosk draws a mode's picture without being asked to: at
    /// most 1920x1080 in pixels, either way up.
    static func fits(_ m: Mode) -> Bool { m.width * m.height <= largestChosenArea && max(m.width, m.height) <= 1920 }

    /// A mode the kiosk keeps without being asked: one that fits, at 50 Hz or
    /// more unless nothing of its size is faster (a panel or a virtual
    /// display that offers its size only at 30 Hz keeps it).
    static func isComfortable(_ m: Mode, among offered: [Mode]) -> Bool {
        guard fits(m) else { return false }
        return m.refreshRate >= slowestChosenRefresh
            || !offered.contains { $0.width == m.width && $0.height == m.height && $0.refreshRate >= slowestChosenRefresh }
    }

    /// The current mode when it matches `size` and `refresh`; else the first
    /// offered mode that matches (nil when none does). With nothing asked
    /// for: the current mode when it is comfortable (no flicker of a mode
    /// change), else the preferred one when it is, else the largest mode
    /// that fits at its highest refresh, 50 Hz or more where there is one;
    /// with nothing that fits, the preferred one.
    public static func choose(current: Mode?, offered: [Mode], preferred: Mode?,
                              size: (width: Int, height: Int)?, refresh: Double?) -> ModeChoice? {
        func matches(_ m: Mode) -> Bool {
            (size.map { m.width == $0.width && m.height == $0.height } ?? true)
                && (refresh.map { abs(m.refreshRate - $0) < 0.5 } ?? true)
        }
        if size != nil || refresh != nil {
            if let current, matches(current) { return ModeChoice(mode: current, keepsCurrent: true) }
            return offered.first(where: matches).map { ModeChoice(mode: $0, keepsCurrent: false) }
        }
        if let current, isComfortable(current, among: offered) { return ModeChoice(mode: current, keepsCurrent: true) }
        if let preferred, isComfortable(preferred, among: offered) { return ModeChoice(mode: preferred, keepsCurrent: false) }
        // 50 Hz or more first, then the most pixels, then the fastest.
        func better(_ a: Mode, than b: Mode) -> Bool {
            let (fastA, fastB) = (a.refreshRate >= slowestChosenRefresh, b.refreshRate >= slowestChosenRefresh)
            if fastA != fastB { return fastA }
            return a.width * a.height != b.width * b.height ? a.width * a.height > b.width * b.height : a.refreshRate > b.refreshRate + 0.5
        }
        var best: Mode?
        for m in offered where fits(m) {
            if best.map({ better(m, than: $0) }) ?? true { best = m }
        }
        guard let best else { return preferred.map { ModeChoice(mode: $0, keepsCurrent: false) } }
        let passedOver = current ?? preferred
        let why = passedOver.map { "\($0.width)x\($0.height)@\(Int($0.refreshRate.rounded())) passed over: " } ?? ""
        return ModeChoice(mode: best, keepsCurrent: false,
                          reason: why + "the largest mode up to 1920x1080 at 50 Hz or more (set size and refresh to choose another)")
    }
}
