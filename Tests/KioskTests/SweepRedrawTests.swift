import Testing
#if canImport(Glibc)
import Glibc
#endif
import AnimationCore
import Raster
@testable import KioskModel
@testable import KioskRendering

/// While only the sweep moves, a frame redraws the sweep's part of the dial
/// from a cache of the dial under it: every such frame must be the whole
/// frame's pixels, and its damage must hold every pixel that changed.
@Suite struct SweepRedrawTests {
    /// Standby at `size`: `frames` frames `step` seconds apart, a whole turn
    /// of the sweep (90° a second), each drawn the cached way and as a whole frame.
    func check(width: Int, height: Int, frames: Int, step: Double) throws {
        let fonts = try FontSet()
        let layout = KioskLayout(width: width, height: height)
        let cachedRenderer = KioskRenderer(fonts: fonts)
        let cached = FrameTick(controller: KioskController(layout: layout, measure: cachedRenderer), renderer: cachedRenderer,
                               buffer: PixelBuffer(width: width, height: height))
        let wholeRenderer = KioskRenderer(fonts: fonts)
        let wholeController = KioskController(layout: layout, measure: wholeRenderer)
        let whole = Canvas(target: PixelBuffer(width: width, height: height))
        let previous = PixelBuffer(width: width, height: height)

        var partialFrames = 0, differingFrames = 0, undamagedChanges = 0
        var largestDamage = 0
        for frame in 0..<frames {
            let t = 0.5 + Double(frame) * step
            previous.copy(previous.bounds, from: cached.frame)
            cached.draw(at: t)
            _ = wholeController.frameNeeded(at: t)
            wholeRenderer.draw(wholeController.renderList, sweepBearing: wholeController.sweepBearing,
                               minimumTextSize: Float(layout.minimumTextSize), unchanged: false, into: whole)
            wholeController.frameDrawn()

            let damage = cached.canvas.damage
            if damage.area < width * height { partialFrames += 1; largestDamage = max(largestDamage, damage.area) }
            var differs = false
            for y in 0..<height {
                let a = cached.frame.row(y), b = whole.target.row(y), p = previous.row(y)
                if memcmp(a, b, width * 4) != 0 { differs = true }
                // Rows alike are skipped pixel by pixel (the debug build is slow at it).
                if frame > 0 && memcmp(a, p, width * 4) != 0 {
                    for x in 0..<width where a[x] != p[x] && !damage.contains(IntRect(x: x, y: y, width: 1, height: 1)) {
                        undamagedChanges += 1
                    }
                }
            }
            if differs { differingFrames += 1 }
        }
        #expect(differingFrames == 0, "\(width)x\(height): \(differingFrames) of \(frames) frames differ from the whole frame")
        #expect(undamagedChanges == 0, "\(width)x\(height): \(undamagedChanges) changed pixels outside the damage")
        // The cached way is taken once the scene is still: all but the first few frames.
        #expect(partialFrames >= frames - 4, "\(width)x\(height): \(partialFrames) of \(frames) frames redrew the sweep alone")
        #expect(largestDamage * 3 < width * height, "\(width)x\(height): damage up to \(largestDamage) of \(width * height) pixels")
    }

    // 3° apart at 800x480 and in portrait; 7.5° at 1080p, where the old and new
    // sweeps are further apart (a slow frame, a low refresh rate).
    @Test func sweepFramesAreWholeFramesAt800x480() throws { try check(width: 800, height: 480, frames: 120, step: 1.0 / 30) }
    @Test func sweepFramesAreWholeFramesAt1920x1080() throws { try check(width: 1920, height: 1080, frames: 48, step: 1.0 / 12) }
    @Test func sweepFramesAreWholeFramesInPortrait() throws { try check(width: 480, height: 800, frames: 120, step: 1.0 / 30) }

    /// A leaf drawn over the dial after it (here the note, moved across the
    /// disc; in an overflight the aircraft's marker) is drawn again where a
    /// sweep frame copies the dial back: the frames are still redrawn in
    /// boxes, and each is the whole frame's pixels. With more such leaves
    /// than the cache keeps, whole frames.
    @Test(arguments: [1, 5])
    func aLeafOverTheDialIsDrawnAgainWithTheSweep(leaves: Int) throws {
        let fonts = try FontSet()
        let (width, height) = (800, 480)
        let layout = KioskLayout(width: width, height: height)
        let cachedRenderer = KioskRenderer(fonts: fonts), wholeRenderer = KioskRenderer(fonts: fonts)
        let controller = KioskController(layout: layout, measure: cachedRenderer)
        let cached = Canvas(target: PixelBuffer(width: width, height: height)), whole = Canvas(target: PixelBuffer(width: width, height: height))
        var partialFrames = 0, differingFrames = 0
        for frame in 0..<60 {
            let t = 0.5 + Double(frame) / 30
            _ = controller.frameNeeded(at: t)
            var items = controller.renderList
            let note = try #require(items.firstIndex { $0.id == NodeID("note") })
            let dial = try #require(items.first { $0.id == KioskScene.dialID })
            items[note].opacity = 1
            items[note].content = .text("Receiver 192.168.1.20:30005 not answering; retrying every 5 s")
            for k in 0..<leaves {
                var leaf = items[note]
                leaf.frame.y = dial.frame.midY - 40 + 20 * Double(k)
                if k == 0 { items[note] = leaf } else { items.append(leaf) }
            }
            for (renderer, canvas) in [(cachedRenderer, cached), (wholeRenderer, whole)] {
                renderer.draw(items, sweepBearing: controller.sweepBearing, minimumTextSize: Float(layout.minimumTextSize),
                              unchanged: renderer === cachedRenderer && controller.view.renderListUnchanged, into: canvas)
            }
            controller.view.frameDrawn()
            if cached.damage.area < width * height { partialFrames += 1 }
            for y in 0..<height where memcmp(cached.target.row(y), whole.target.row(y), width * 4) != 0 { differingFrames += 1; break }
        }
        #expect(differingFrames == 0, "\(leaves) over the dial: \(differingFrames) of 60 frames differ from the whole frame")
        if leaves <= 4 {
            #expect(partialFrames >= 56, "\(partialFrames) of 60 frames redrew the sweep alone")
        } else {
            #expect(partialFrames == 0, "\(leaves) leaves over the dial: \(partialFrames) frames redrawn in boxes")
        }
    }

    @Test func aStillDialLooksItsSweepsAnglesUp() throws {
        let fonts = try FontSet()
        let renderer = KioskRenderer(fonts: fonts)
        let tick = FrameTick(controller: KioskController(layout: KioskLayout(width: 800, height: 480), measure: renderer),
                             renderer: renderer, buffer: PixelBuffer(width: 800, height: 480))
        tick.draw(at: 0)
        #expect(renderer.sweepDirections.box.isEmpty, "a dial drawn once: no map yet")
        for frame in 1..<4 { tick.draw(at: Double(frame) / 60) }
        let dial = try #require(tick.controller.renderList.first { KioskStyle($0.style) == .dial })
        let box = renderer.sweepDirections.box
        #expect(box.width > 300 && box.contains(IntRect(x: Int(dial.frame.midX), y: Int(dial.frame.midY), width: 1, height: 1)),
                "the map covers the still dial: \(box)")
    }

    @Test func aChangeOfStateDrawsAWholeFrame() throws {
        let fonts = try FontSet()
        let renderer = KioskRenderer(fonts: fonts)
        let tick = FrameTick(controller: KioskController(layout: KioskLayout(width: 800, height: 480), measure: renderer),
                             renderer: renderer, buffer: PixelBuffer(width: 800, height: 480))
        for frame in 0..<10 { tick.draw(at: Double(frame) / 60) }
        #expect(tick.canvas.damage.area < 800 * 480, "steady: the sweep alone")
        tick.controller.apply(Demo.sampleOverflight, at: 10.0 / 60)
        tick.draw(at: 11.0 / 60)
        #expect(tick.canvas.damage == IntRect(x: 0, y: 0, width: 800, height: 480), "a change: the whole frame")
    }
}
