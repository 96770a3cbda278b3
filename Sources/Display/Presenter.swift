import Raster

/// Where frames go: a DRM/KMS output or the headless display. It says
/// everything the event loop needs of a display, so the loop never asks which
/// kind it has: whether a frame may be presented now, how presents are paced,
/// the descriptor of its own events, and what a hotplug did. What outputs
/// share (DRM master, the VT) is their `DisplaySession`'s.
/// It knows nothing of what is drawn: it hands out a frame in ordinary cached
/// memory, shows it at the next refresh, and says when it did.
public protocol Presenter: AnyObject {
    /// The frame's size (the mode's, turned for a panel mounted sideways).
    var width: Int { get }
    var height: Int { get }
    /// Refreshes per second of the mode (or the simulated rate).
    var refreshRate: Double { get }
    /// The picture's visible size on the screen as the display reports it,
    /// mm, turned with the picture; nil when it does not say (headless).
    var physicalSize: (width: Int, height: Int)? { get }
    /// A human-readable name for logs and STATUS= (connector, or "headless").
    var name: String { get }
    /// The frame to draw the next picture into. Its contents are the last
    /// presented picture, so a partial redraw only touches the damage.
    var frame: PixelBuffer { get }
    /// Whether `present` may be called now: the output is connected, ours, and
    /// the previous flip has completed.
    var isReadyToPresent: Bool { get }
    /// True when presents complete at once (headless, or a driver without
    /// vblank), so the loop paces frames with its own timer at `refreshRate`;
    /// false when the completion event of each flip paces them.
    var pacesWithTimer: Bool { get }
    /// A descriptor to poll for the presenter's own events (a flip completing), if any now.
    var eventDescriptor: Int32? { get }
    /// Reads the events that made `eventDescriptor` readable.
    func handleEvents()
    /// Shows `frame` at the next refresh; `damage` is what changed since the
    /// last present. Returns the time (monotonic seconds) the picture is expected on screen.
    @discardableResult
    func present(damage: IntRect, at time: Double) throws -> Double
    /// Re-reads the output after a hotplug event.
    func reprobe() -> PresenterChange?
    /// Whether the screen shows the picture; false while blanked.
    var isScreenOn: Bool { get }
    /// Blanks the screen (nothing is presented then) or wakes it: the first
    /// present after waking shows a fresh picture, never the old or a black one.
    func setScreenOn(_ on: Bool) throws
    /// One line on how frames were paced, for the summary at exit ("" if nothing to say).
    var pacingSummary: String { get }
    /// Gives the output back as it was found, after any pending flip.
    func restore()
}

/// What happened to a presenter's output, for the loop to act on.
public enum PresenterChange: Equatable, Sendable {
    /// Another VT is in front: nothing may be drawn until it is back.
    case released
    /// Back on our VT: everything must be drawn again.
    case reacquired
    /// The connector went away (cable out, monitor off).
    case disconnected
    /// The connector is back: everything must be drawn again.
    case reconnected

    /// Whether the whole picture must be drawn again.
    public var needsRepaint: Bool { self == .reacquired || self == .reconnected }
}

/// Errors of a display, each naming what to do about it, with what kind of
/// trouble it is: `display = auto` falls back to the headless display only
/// when no display is to be had, never when the one there was asked for
/// the wrong thing.
public struct DisplayError: Error, CustomStringConvertible {
    /// What kind of trouble it is.
    public enum Kind: Sendable {
        /// No display to be had here: no card, nothing connected, the named
        /// output absent, held by another program, or not ours to open.
        case unavailable
        /// The display is there but cannot do what the configuration asks (a size or refresh it does not offer).
        case badConfiguration
        /// The device failed (a buffer, a modeset, a flip, a write).
        case failed
    }

    public let kind: Kind
    public let description: String
    public init(_ description: String, kind: Kind = .failed) {
        self.kind = kind
        self.description = description
    }
}
