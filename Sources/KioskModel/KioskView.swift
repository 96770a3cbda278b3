import AnimationCore

/// One output's picture of the controller's state: the layout for that
/// output's size and rotation, the animated scene laid out for it, the
/// sweep's timeline, what must be repainted, and what is drawn where now
/// (`hitTest`). The controller decides and every view shows its decision,
/// so a TV and a small panel glide from the one state, each at its own
/// size; a tap is tested against what its own output shows at that moment.
public final class KioskView {
    public private(set) var layout: KioskLayout
    /// The decisions this view shows: the state, the aircraft, the traffic.
    private unowned let controller: KioskController
    private let graph = SceneGraph()
    /// The sweep's clock: it runs while the face sweeps and is paused while
    /// the face is still (`.animation(paused:)`).
    private var timeline: Timeline
    private var needsFullFrame = true
    /// The scene was updated, or animated, since the last frame drawn.
    private var sceneChanged = true
    private var lastSampleTime = 0.0
    private var animating = false

    init(controller: KioskController, layout: KioskLayout, at time: Double) {
        self.controller = controller
        self.layout = layout
        timeline = Timeline(minimumInterval: 1.0 / 240, paused: false, at: 0)
        graph.update(to: leaves(), transaction: Transaction(), at: time)
    }

    /// The scene for the controller's state as this view lays it out.
    private func leaves() -> [LeafDescription] {
        let leaves = KioskScene.leaves(for: controller.state, shown: controller.shownAircraft, layout: layout, measure: controller.measure, units: controller.units,
                          rangeNM: controller.dialRangeNM, attribution: controller.attribution,
                          facing: controller.facing, stationElevationFeet: controller.stationElevationFeet, standbyInfo: controller.standbyInfo,
                          noData: controller.feedIsDown, cardNumbers: controller.cardNumbers, cardNeverShown: cardNeverShown,
                          interruptedWord: statusComesBack ? overflightWord : nil, cardUp: cardUp)
        if controller.state.mode == .overflight { overflightWord = leaves.first { $0.id.path == "status" }?.id.explicit }
        return leaves
    }
    /// The status word of the last overflight laid out (OVERFLIGHT, an alert's, ...).
    private var overflightWord: String?

    /// Whether the card has been up long enough to be fully in (the time of the update being shown).
    private var cardUp: Bool {
        guard controller.state.mode == .overflight, let began = controller.overflightBegan else { return false }
        return updateTime - began >= KioskScene.cardDelay(layout) + 0.25
    }
    /// The time of the update being laid out.
    private var updateTime = 0.0

    /// Whether the last overflight ended before this view's card came in.
    private var cardNeverShown: Bool {
        guard controller.state.mode == .standby, let began = controller.overflightBegan, let ended = controller.overflightEnded,
              ended >= began else { return false }
        return ended - began < KioskScene.cardDelay(layout)
    }

    /// Whether the update being laid out is such a change of mind as it
    /// happens (or within the status word's swap of it): later word changes
    /// in the same standby (NO DATA) wait for the old word as usual.
    private var statusComesBack: Bool {
        guard cardNeverShown, let ended = controller.overflightEnded else { return false }
        return updateTime - ended < KioskScene.cardFadeOut + 0.25
    }

    // MARK: following the controller

    /// Shows the controller's state as it now is, under `transaction`. A
    /// face turning back to standby sweeps again from this moment.
    func showState(transaction: Transaction, at time: Double) {
        updateTime = time
        if controller.sweepRuns { timeline.setPaused(false, at: time) }
        graph.update(to: leaves(), transaction: transaction, at: time)
        sceneChanged = true
    }

    /// Lays the scene out for a new size (a rotation, another display), at once.
    public func resize(_ newLayout: KioskLayout, at time: Double) {
        layout = newLayout
        var transaction = Transaction()
        transaction.disablesAnimations = true
        graph.update(to: leaves(), transaction: transaction, at: time)
        sceneChanged = true
        needsFullFrame = true
    }

    // MARK: frames

    /// Samples the scene at `time` and answers the one question of the loop:
    /// must this output draw a frame now? Yes while something animates,
    /// while the sweep runs, and once after the screen needs repainting.
    public func frameNeeded(at time: Double) -> Bool {
        sample(at: time)
        return animating || !timeline.isPaused || needsFullFrame
    }

    /// Whether anything animates at `time` (samples the scene).
    public func isAnimating(at time: Double) -> Bool {
        sample(at: time)
        return animating
    }

    private func sample(at time: Double) {
        animating = graph.sample(at: time)
        if animating { sceneChanged = true }
        if controller.showsTraffic {
            // The traffic is the controller's; sampling it again at the same time changes nothing.
            controller.traffic.sample(at: time)
            // The rings' labels change with the range: whole frames until it settles.
            if controller.traffic.rangeIsChanging(at: time) { sceneChanged = true }
        }
        lastSampleTime = time
        // The face is still once the dial has settled on the overflight layout: the sweep pauses.
        // With no sweep at all (sweep = off), or no data, a settled standby draws nothing
        // either, unless traffic moves on it (the still face keeps it, dimmed): then the
        // clock runs for the blips alone.
        let trafficMoves = controller.showsTraffic && !controller.traffic.blips.isEmpty
        if !controller.sweepRuns && !trafficMoves && !graph.isAnimating(KioskScene.dialID) {
            timeline.setPaused(true, at: time)
        } else if trafficMoves && timeline.isPaused {
            timeline.setPaused(false, at: time)
        }
    }

    /// The sampled scene, in paint order (valid after `frameNeeded`).
    public var renderList: [RenderItem] { graph.renderList }

    /// The sweep's bearing at the last sample, from the timeline's date.
    public var sweepBearing: Double {
        (timeline.date(at: lastSampleTime) * controller.sweep.degreesPerSecond).truncatingRemainder(dividingBy: 360)
    }

    /// The controller's sweep settings changed: a sweep turned on runs in
    /// standby, and the whole picture is drawn again in the new look.
    func sweepChanged(at time: Double) {
        if controller.sweepRuns { timeline.setPaused(false, at: time) }
        needsFullFrame = true
    }

    /// Whether the sweep's timeline runs (the loop keeps drawing while it does).
    public var isSweeping: Bool { !timeline.isPaused }

    /// Asks for the whole picture to be drawn again (its brightness changed, the screen was lost).
    public func requestRepaint() {
        needsFullFrame = true
    }

    /// A frame was drawn: the repaint asked for is done.
    public func frameDrawn() {
        needsFullFrame = false
        // A frame drawn mid-animation differs from the settled one that follows.
        sceneChanged = animating
    }

    /// Whether the render list is the one the last frame drew, so that only
    /// the sweep can have moved since: nothing animates, the scene was not
    /// updated, no repaint was asked for. The renderer then redraws the sweep alone.
    public var renderListUnchanged: Bool { !animating && !sceneChanged && !needsFullFrame }

    // MARK: what is where

    /// How far from a point a finger may land and still touch it, px: about
    /// a fingertip on a 7" 800x480 panel, more on a larger screen.
    public var touchSlop: Double { max(24, 0.05 * Double(min(layout.width, layout.height))) }

    /// What is drawn at (`x`, `y`) (px of this output) in the frame last
    /// sampled, mid-glide included: the aircraft marker or a traffic blip
    /// within `touchSlop` of the point, else the topmost visible leaf that
    /// covers it (the card and its lines are the card), else nothing.
    public func hitTest(x: Double, y: Double) -> HitTarget {
        let items = graph.renderList
        guard let dial = items.first(where: { $0.id == KioskScene.dialID }) else { return .nothing }
        let frame = dial.frame.scaled(aboutCenterBy: dial.scale)
        let center = (x: frame.midX, y: frame.midY), radius = frame.width / 2
        var nearest = (target: HitTarget.nothing, distance: touchSlop)
        forEachMark { target, px, py in
            let d = ((px - x) * (px - x) + (py - y) * (py - y)).squareRoot()
            if d <= nearest.distance { nearest = (target, d) }
        }
        if nearest.target != .nothing { return nearest.target }
        for item in items.reversed() where item.opacity > Self.visible && item.scale > 0.01 {
            guard let style = KioskStyle(item.style) else { continue }
            let box = item.frame.scaled(aboutCenterBy: item.scale)
            switch style {
            case .dial:
                let dx = x - center.x, dy = y - center.y
                if dx * dx + dy * dy <= radius * radius { return .dial }
            case _ where style.isCard:
                if box.contains(x: x, y: y) { return .card }
            default:
                break
            }
        }
        return .nothing
    }

    /// Every aircraft's mark drawn on the dial in the frame last sampled, and
    /// where (px of this output): the shown aircraft's marker, held inside
    /// the rim, and the traffic's blips, dimmed on the still face.
    public func forEachMark(_ body: (HitTarget, Double, Double) -> Void) {
        let items = graph.renderList
        guard let dial = items.first(where: { $0.id == KioskScene.dialID }) else { return }
        let frame = dial.frame.scaled(aboutCenterBy: dial.scale)
        let center = (x: frame.midX, y: frame.midY), radius = frame.width / 2
        for item in items where item.id.path == "dial/marker" && item.opacity > Self.faintMark {
            let dx = item.frame.x - center.x, dy = item.frame.y - center.y
            let reach = (dx * dx + dy * dy).squareRoot()
            let held = reach > radius && reach > 0 ? radius / reach : 1
            if let name = item.id.explicit { body(.aircraft(name), center.x + dx * held, center.y + dy * held) }
        }
        let channels = DialChannels(dial.custom)
        guard controller.showsTraffic && channels.trafficOpacity * dial.opacity > Self.faintMark else { return }
        // The card's aircraft gives way to its marker as the face stills; the others stay, dimmed.
        for blip in controller.traffic.blips
        where blip.opacity * (blip.highlighted ? 1 - channels.stillness : channels.trafficOpacity) > Self.faintMark {
            guard let address = controller.traffic.address(ofSerial: blip.serial) else { continue }
            body(.traffic(address: address), center.x + blip.x * radius, center.y - blip.y * radius)
        }
    }

    /// Below this opacity a leaf is not there to be touched (it is fading in or out).
    static let visible = 0.25
    /// An aircraft's mark takes a tap down to this opacity: mid-glide its
    /// blip fades with the sweep as its marker fades in, and the finger
    /// aimed at it a moment before, when it was brighter.
    static let faintMark = 0.05
}

/// What a point of an output shows: what a tap there means.
public enum HitTarget: Equatable, Sendable {
    /// The marker of the aircraft the card shows, by its callsign.
    case aircraft(String)
    /// A blip of the traffic on the sweeping dial, by the aircraft's ICAO address.
    case traffic(address: String)
    /// The aircraft card (its background or any line on it).
    case card
    /// The dial's disc away from any blip.
    case dial
    case nothing
}
