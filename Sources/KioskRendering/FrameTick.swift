import Display
import KioskModel
import Raster

/// One output's frame, the same everywhere it is drawn (the live loop,
/// the headless recorder, soak, bench, audit, render): the output's view
/// samples its scene, the renderer draws it into the canvas, and the
/// presenter (when there is one) shows it. One tick per output; the
/// renderer is the output's own (its sweep cache is of its pictures).
public final class FrameTick {
    public let controller: KioskController
    /// What this output shows of the controller's state.
    public let view: KioskView
    public let renderer: KioskRenderer
    public private(set) var presenter: Presenter?
    public private(set) var canvas: Canvas

    /// Frames of `view` (the controller's first by default) drawn into a presenter's frame and shown by it.
    public init(controller: KioskController, view: KioskView? = nil, renderer: KioskRenderer, presenter: Presenter) {
        self.controller = controller
        self.view = view ?? controller.view
        self.renderer = renderer
        self.presenter = presenter
        canvas = Canvas(target: presenter.frame)
    }

    /// Frames drawn into `buffer` only (bench, soak, audit, render).
    public init(controller: KioskController, view: KioskView? = nil, renderer: KioskRenderer, buffer: PixelBuffer) {
        self.controller = controller
        self.view = view ?? controller.view
        self.renderer = renderer
        canvas = Canvas(target: buffer)
    }

    /// A panel without a backlight dimmed at night: each frame's damage is
    /// dimmed so, in linear light. Change it with a repaint.
    public var dimming: LinearDimming?

    /// The picture drawn last.
    public var frame: PixelBuffer { canvas.target }

    /// Samples the scene at `time`; when a frame is needed, draws it and
    /// presents it. Returns whether a frame was drawn.
    @discardableResult
    public func run(at time: Double) throws -> Bool {
        guard view.frameNeeded(at: time) else { return false }
        draw()
        try presenter?.present(damage: canvas.damage, at: time)
        return true
    }

    /// Samples and draws at `time` whether or not anything changed (benchmarks, renders).
    public func draw(at time: Double) {
        _ = view.frameNeeded(at: time)
        draw()
    }

    private func draw() {
        renderer.sweep = controller.sweep
        renderer.ringLabels = controller.ringLabels
        renderer.draw(view.renderList, sweepBearing: view.sweepBearing, traffic: controller.showsTraffic ? controller.traffic : nil,
                      minimumTextSize: Float(view.layout.minimumTextSize), unchanged: view.renderListUnchanged, into: canvas)
        // After the sweep cache took the dial: the cache stays at full brightness.
        dimming?.apply(canvas.damage, of: canvas.target)
        view.frameDrawn()
    }

    /// Moves to another presenter (a display that appeared), laid out for it (`layout`) at once.
    public func adopt(_ next: Presenter, layout: KioskLayout, at time: Double) {
        presenter = next
        canvas = Canvas(target: next.frame)
        view.resize(layout, at: time)
    }
}
