import AnimationCore
import KioskModel
import Raster
import SystemIO

/// Whole frames drawn by several threads at once, a band of rows each: the
/// loop's renderer draws the first band (the frame's outermost rows) on the
/// loop's thread, and each crew thread another with a renderer of its own
/// (its own FreeType faces, glyph cache and scratch memory), into the same
/// frame through a canvas clipped to its band and skipping the rows of the
/// bands inside it. Every band is drawn from the same render list by the
/// same code, and no pixel's value depends on where the clip is, so the
/// frame is the one a single thread draws, byte for byte.
///
/// The cuts between bands follow the work (`BandSplit`): each frame's bands
/// are timed and the next frame's cut where they would take the same time.
/// They are cut by distance from the dial's centre, so that each band holds
/// the disc's rows below the centre with their mirror rows above.
///
/// Only whole frames are drawn so (a transition's, a new render list's): a
/// sweep frame redraws a few boxes from the loop renderer's cache, too little
/// work to hand out.
public final class FrameBands {
    /// How many bands, and threads, a frame is drawn in.
    let count: Int
    private unowned let loop: KioskRenderer
    private let helpers: [KioskRenderer]
    /// One canvas per helper, made for the first frame's buffer and retargeted each frame.
    private var canvases: [Canvas] = []
    private var crew: WorkerCrew?
    /// Where the bands are cut, moved after every frame.
    let split: BandSplit
    /// Frames drawn in bands so far (bench and tests read it).
    private(set) var framesDrawn = 0

    /// The frame being drawn, for the crew's threads (set before they run, read-only meanwhile).
    private var items: [RenderItem] = []
    private var sweepBearing = 0.0
    private var traffic: TrafficPicture?
    private var minimumTextSize: Float = 0
    private var loopCanvas: Canvas?
    private var width = 0
    /// The rows paired in a band are r and mirrorSum - r: about the dial's centre.
    private var mirrorSum = 0

    init(count: Int, loop: KioskRenderer) throws {
        precondition(count >= 2, "bands are for two threads or more")
        self.count = count
        self.loop = loop
        split = BandSplit(count: count, height: 0)
        helpers = try (1..<count).map { _ in KioskRenderer(fonts: try FontSet(sameFilesAs: loop.fonts)) }
        crew = try WorkerCrew(size: count, name: "radar-band") { [unowned self] index in drawBand(index) }
    }

    /// Draws `items` as a whole frame into `canvas`'s buffer, every band at
    /// once; the canvas's damage is then the union of the bands'.
    func draw(_ items: [RenderItem], sweepBearing: Double, traffic: TrafficPicture?, minimumTextSize: Float, into canvas: Canvas) {
        let buffer = canvas.target
        for (i, helper) in helpers.enumerated() {
            helper.sweep = loop.sweep
            helper.ringLabels = loop.ringLabels
            helper.screenBrightness = loop.screenBrightness
            if canvases.count == i { canvases.append(Canvas(target: buffer)) } else { canvases[i].retarget(buffer) }
        }
        self.items = items
        self.sweepBearing = sweepBearing
        self.traffic = traffic
        self.minimumTextSize = minimumTextSize
        loopCanvas = canvas
        width = buffer.width
        split.fit(height: buffer.height)
        // The disc's rows pair about its centre as GradientPainter pairs them;
        // without a dial, about the frame's middle (any pairing draws the same pixels).
        let dial = items.first { KioskStyle($0.style) == .dial }?.frame
        mirrorSum = dial.map { Int((2 * $0.midY).rounded()) - 1 } ?? buffer.height - 1
        crew?.run()
        split.rebalance()
        framesDrawn += 1
        for helper in canvases { canvas.includeDamage(helper.damage) }
        // Nothing of the frame is kept past it.
        self.items = []
        self.traffic = nil
        loopCanvas = nil
    }

    /// Draws band `index`, on its own thread.
    private func drawBand(_ index: Int) {
        guard let loopCanvas else { return }
        let renderer = index == 0 ? loop : helpers[index - 1]
        let canvas = index == 0 ? loopCanvas : canvases[index - 1]
        let band = split.band(index, width: width, mirrorSum: mirrorSum)
        split.measure(index) {
            renderer.drawBand(band.rows, skipping: band.skipped, items, sweepBearing: sweepBearing, traffic: traffic,
                              minimumTextSize: minimumTextSize, into: canvas)
        }
    }
}
