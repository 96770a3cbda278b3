import AnimationCore
import Raster

/// Owns the kiosk's state and its animated scene: applies states under the
/// right transaction, decides whether a frame is needed, and draws it.
public final class KioskController {
    public private(set) var state = KioskState.standby
    /// The aircraft the card shows (kept through standby while the card fades).
    public private(set) var shownAircraft: Aircraft?
    public private(set) var layout: KioskLayout
    public let graph = SceneGraph()
    public let renderer: KioskRenderer
    /// Sweep speed: one turn every four seconds.
    public static let sweepDegreesPerSecond = 90.0
    private var sweepClock = 0.0
    private var lastSampleTime: Double?
    private var needsFirstFrame = true

    public init(layout: KioskLayout, renderer: KioskRenderer, initial: KioskState = .standby, at time: Double = 0) {
        self.layout = layout
        self.renderer = renderer
        state = initial
        shownAircraft = initial.aircraft
        graph.update(to: KioskScene.leaves(for: initial, shown: shownAircraft, layout: layout), transaction: Transaction(), at: time)
    }

    /// Applies a new state at `time`. A change of mode glides on a spring; a
    /// change within a mode (numbers, another aircraft) eases.
    public func apply(_ newState: KioskState, at time: Double, animated: Bool = true) {
        guard newState != state else { return }
        let modeChanged = newState.mode != state.mode
        if let a = newState.aircraft { shownAircraft = a }
        state = newState
        let animation: Animation? = animated ? (modeChanged ? KioskScene.layoutAnimation : KioskScene.updateAnimation) : nil
        graph.update(to: KioskScene.leaves(for: state, shown: shownAircraft, layout: layout),
                     transaction: Transaction(animation: animation), at: time)
    }

    /// Lays the scene out for a new size (a rotation or another mode), at once.
    public func resize(_ newLayout: KioskLayout, at time: Double) {
        layout = newLayout
        graph.update(to: KioskScene.leaves(for: state, shown: shownAircraft, layout: layout), transaction: Transaction(), at: time)
        needsFirstFrame = true
    }

    /// Whether the sweep is visible, i.e. the timeline is running.
    public var isSweeping: Bool {
        guard let dial = graph.renderList.first(where: { $0.style == KioskStyle.dial.rawValue }) else { return true }
        return dial.custom.x < 99.999
    }

    /// Samples the scene at `time`; true when a frame should be drawn: something
    /// animates, the sweep is visible, or nothing has been drawn yet.
    public func prepareFrame(at time: Double) -> Bool {
        let animating = graph.sample(at: time)
        // The sweep's clock advances only while it is shown (the timeline pauses
        // when the face is fully still), so it resumes where it stopped.
        if let last = lastSampleTime, isSweeping { sweepClock += max(0, time - last) }
        lastSampleTime = time
        let needed = animating || isSweeping || needsFirstFrame
        return needed
    }

    /// Asks for a full frame even if nothing moves (the screen came back).
    public func invalidate() { needsFirstFrame = true }

    /// Whether a frame must still be drawn even though nothing moves (the first one).
    public var prepareFrameNeeded: Bool { needsFirstFrame }

    /// Draws the prepared frame into `canvas`.
    public func draw(into canvas: Canvas) {
        let bearing = (sweepClock * Self.sweepDegreesPerSecond).truncatingRemainder(dividingBy: 360)
        renderer.draw(graph.renderList, sweepBearing: bearing, into: canvas)
        needsFirstFrame = false
    }
}
