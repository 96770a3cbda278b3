/// What the screen is to do now: show the picture at a brightness, or be off.
public enum ScreenPower: Equatable, Sendable, CustomStringConvertible {
    /// On, at a brightness in 0...1 (1 is full).
    case on(brightness: Double)
    case off

    public var isOn: Bool { self != .off }

    public var description: String {
        switch self {
        case .off: return "off"
        case let .on(b): return b >= 1 ? "on" : "on at \(Int((b * 100).rounded())) %"
        }
    }
}

/// A screen forced on or off by a command, or left to the schedule.
public enum ScreenOverride: String, Sendable, CaseIterable {
    case auto, on, off
}

/// What night does to the screen.
public enum NightAction: String, Sendable, CaseIterable {
    case off, dim
}

/// Decides whether the screen is on, and how bright, from the night
/// schedule, the state shown ("on only while overhead"), a wake by key,
/// line or command, and an override. Times are the loop's (monotonic
/// seconds); whether it is night is told from outside (the wall clock is
/// the service's).
public struct ScreenPolicy: Equatable, Sendable {
    /// What night does.
    public var nightAction = NightAction.off
    /// The brightness at night when dimming, in 0...1.
    public var nightBrightness = 0.3
    /// Whether the screen is off unless an aircraft is shown (or lingering after one).
    public var overheadOnly = false
    /// How long the screen stays on after an aircraft went, or after a wake.
    public var lingerSeconds = 60.0
    /// A command's override; `auto` follows the rest.
    public var override = ScreenOverride.auto
    /// Whether it is night now (the service says so from the schedule).
    public private(set) var isNight = false
    /// The brightness outside the night, in 0...1 (a command may change it).
    public var dayBrightness = 1.0
    /// Until when a wake (key, line, command) keeps the screen on, night or not.
    private var wokenUntil = -Double.infinity
    /// Until when the last aircraft keeps an "on only while overhead" screen on.
    private var lingerUntil = -Double.infinity

    public init() {}

    /// Takes the settings of `other` (a reloaded configuration), keeping the
    /// night, wakes, lingers, override and brightness a command set.
    public mutating func adoptSettings(from other: ScreenPolicy) {
        nightAction = other.nightAction
        nightBrightness = other.nightBrightness
        overheadOnly = other.overheadOnly
        lingerSeconds = other.lingerSeconds
    }

    /// Night began or ended.
    public mutating func setNight(_ night: Bool) { isNight = night }

    /// Someone asked to see it (a wake key, line or command): on for the linger time,
    /// at night too.
    public mutating func wake(at time: Double) { wokenUntil = max(wokenUntil, time + lingerSeconds) }

    /// The aircraft shown went: an "on only while overhead" screen lingers.
    public mutating func aircraftLeft(at time: Double) { lingerUntil = max(lingerUntil, time + lingerSeconds) }

    /// The screen's power at `time` with `overhead` saying whether an aircraft is shown.
    /// An aircraft does not wake a screen that night has switched off: a
    /// bedroom stays dark; a wake does.
    public func power(overhead: Bool, at time: Double) -> ScreenPower {
        switch override {
        case .on: return .on(brightness: dayBrightness)
        case .off: return .off
        case .auto: break
        }
        let woken = time < wokenUntil
        if overheadOnly && !(overhead || woken || time < lingerUntil) { return .off }
        guard isNight && !woken else { return .on(brightness: dayBrightness) }
        switch nightAction {
        case .off: return .off
        case .dim: return .on(brightness: min(nightBrightness, dayBrightness))
        }
    }

    /// When `power` may change by time alone (a wake or linger running out), if ever.
    public func deadline(after time: Double) -> Double? {
        // Asked every loop turn: no array for two numbers.
        let soonest = min(wokenUntil > time ? wokenUntil : .infinity, lingerUntil > time ? lingerUntil : .infinity)
        return soonest.isFinite ? soonest : nil
    }
}
