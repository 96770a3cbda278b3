import Testing
import AllocationCounting
import Raster
@testable import KioskModel
@testable import KioskRendering
@testable import KioskTools
import Feed

/// The kiosk's own frames allocate nothing once warm: sweeping, and in the
/// middle of a transition. The first test shows the counter can see an
/// allocation at all, so a counter stuck at zero cannot pass the others.
@Suite(.serialized) struct FrameAllocationTests {
    @Test(.enabled(if: AllocationCounting.works, Comment(rawValue: AllocationCounting.why)))
    func theCounterSeesAnAllocation() {
        var kept: [[Int]] = []
        let n = AllocationCounting.count { kept.append([Int](repeating: 1, count: 100 + kept.count)) }
        #expect(n >= 1 && kept.count == 1)
    }

    func tick(_ width: Int, _ height: Int) throws -> FrameTick {
        FrameTick(controller: KioskController(layout: KioskLayout(width: width, height: height)),
                  renderer: KioskRenderer(fonts: try FontSet()), buffer: PixelBuffer(width: width, height: height))
    }

    @Test(.enabled(if: AllocationCounting.works, Comment(rawValue: AllocationCounting.why)))
    func sweepingFramesAllocateNothing() throws {
        let tick = try tick(800, 480)
        var t = 0.0
        for _ in 0..<30 { tick.draw(at: t); t += 1.0 / 60 }
        let n = AllocationCounting.count { for _ in 0..<60 { tick.draw(at: t); t += 1.0 / 60 } }
        #expect(n == 0, "\(n) allocations in 60 sweeping frames")
    }

    /// Standby's corner shown (the clock, today's four lines): its text is
    /// laid out when it changes, at the minute, and costs the sweep nothing.
    @Test(.enabled(if: AllocationCounting.works, Comment(rawValue: AllocationCounting.why)))
    func sweepingFramesWithTheStandbyCornerAllocateNothing() throws {
        let tick = try tick(800, 480)
        tick.controller.setStandbyInfo(Audit.longestStandbyInfo(DisplayUnits()), at: 0)
        var t = 0.0
        for _ in 0..<30 { tick.draw(at: t); t += 1.0 / 60 }
        let n = AllocationCounting.count { for _ in 0..<60 { tick.draw(at: t); t += 1.0 / 60 } }
        #expect(tick.controller.renderList.contains { $0.id.path == "standby/today3" && $0.opacity > 0.99 })
        #expect(n == 0, "\(n) allocations in 60 sweeping frames with the corner shown")
    }

    /// Fifty aircraft moving on the sweeping dial, across feed updates (the
    /// update, an event, may allocate; the frames between may not).
    @Test(.enabled(if: AllocationCounting.works, Comment(rawValue: AllocationCounting.why)))
    func sweepingFramesWithTrafficAllocateNothing() throws {
        let tick = try tick(800, 480)
        let traffic = SyntheticTraffic(count: 50)
        let feed = FeedInterpreter(sourceName: "test", selector: OverheadSelector(settings: .init(station: traffic.station)))
        feed.identity.standingData = TrafficTests.standingData()
        tick.controller.feed = feed
        #expect(tick.controller.traffic.airports.count >= 4, "the airports around Heathrow are drawn too")
        var t = 0.0
        var n: UInt64 = 0
        for second in 0..<4 {
            _ = tick.controller.handle(.feed([.snapshot(traffic.snapshot(at: Double(second)))]), at: t)
            // The first second warms the sprites, the glyphs of the new range's labels and the buffers.
            if second == 0 {
                for _ in 0..<60 { tick.draw(at: t); t += 1.0 / 60 }
            } else {
                n += AllocationCounting.count { for _ in 0..<60 { tick.draw(at: t); t += 1.0 / 60 } }
            }
        }
        #expect(tick.controller.traffic.blips.count >= 45)
        #expect(n == 0, "\(n) allocations in 180 sweeping frames with traffic")
    }

    /// An overflight over Irvine with the traffic dimmed around it, moving
    /// across feed updates: the frames between updates (blips redrawn in
    /// their boxes, the marker again where they reach it, the card's rolls)
    /// allocate nothing.
    @Test(.enabled(if: AllocationCounting.works, Comment(rawValue: AllocationCounting.why)))
    func stillFaceFramesWithTrafficAllocateNothing() throws {
        let renderer = KioskRenderer(fonts: try FontSet())
        let tick = FrameTick(controller: TrafficTests.overflightController(width: 800, height: 480, measure: renderer), renderer: renderer,
                             buffer: PixelBuffer(width: 800, height: 480))
        let capture = try TrafficTests.capture()
        var t = 0.0
        var n: UInt64 = 0
        for second in 0..<7 {
            _ = tick.controller.handle(.feed([.snapshot(TrafficTests.replay(capture, at: second))]), at: t)
            // The first seconds glide into the overflight and warm what its frames use.
            if second < 4 {
                for _ in 0..<60 { tick.draw(at: t); t += 1.0 / 60 }
            } else {
                n += AllocationCounting.count { for _ in 0..<60 { tick.draw(at: t); t += 1.0 / 60 } }
            }
        }
        #expect(tick.controller.state.mode == .overflight && tick.controller.traffic.blips.count >= 4)
        #expect(n == 0, "\(n) allocations in 180 frames of an overflight with traffic")
    }

    /// On one thread, and drawn in bands by three (each band's renderer warm).
    @Test(.enabled(if: AllocationCounting.works, Comment(rawValue: AllocationCounting.why)),
          arguments: [(800, 480, 1), (1920, 1080, 1), (800, 480, 3)])
    func framesInTheMiddleOfATransitionAllocateNothing(_ width: Int, _ height: Int, _ threads: Int) throws {
        let tick = try tick(width, height)
        tick.renderer.drawWholeFrames(threads: threads)
        #expect(tick.renderer.threads == threads)
        var t = 0.0
        // Warm both layouts and every glyph first.
        for state in [Demo.sampleOverflight, .standby, Demo.sampleOverflight, .standby] {
            tick.controller.apply(state, at: t)
            for _ in 0..<90 { tick.draw(at: t); t += 1.0 / 60 }
        }
        tick.controller.apply(Demo.sampleOverflight, at: t)
        tick.draw(at: t)
        t += 1.0 / 60
        let n = AllocationCounting.count { for _ in 0..<20 { tick.draw(at: t); t += 1.0 / 60 } }
        #expect(tick.controller.isAnimating(at: t), "still mid-transition")
        #expect(n == 0, "\(n) allocations in 20 transition frames on \(threads) threads")
    }
}
