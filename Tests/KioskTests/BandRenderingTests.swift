import Testing
#if canImport(Glibc)
import Glibc
#endif
import Raster
import Feed
@testable import KioskModel
@testable import KioskRendering
@testable import KioskTools

/// A whole frame drawn in bands by several threads is the frame one thread
/// draws, byte for byte: shapes, gradients, the sweep's conic ramp, text and
/// blips cross the bands' edges, and every band is drawn by its own renderer.
@Suite struct BandRenderingTests {
    /// A frame tick at `size` drawing whole frames on `threads` threads.
    static func tick(_ width: Int, _ height: Int, threads: Int, fonts: FontSet) throws -> FrameTick {
        let renderer = KioskRenderer(fonts: fonts)
        renderer.drawWholeFrames(threads: threads)
        #expect(renderer.threads == threads)
        return FrameTick(controller: KioskController(layout: KioskLayout(width: width, height: height), measure: renderer),
                         renderer: renderer, buffer: PixelBuffer(width: width, height: height))
    }

    /// The rows where two frames differ.
    static func differingRows(_ a: PixelBuffer, _ b: PixelBuffer) -> [Int] {
        (0..<a.height).filter { memcmp(a.row($0), b.row($0), a.width * 4) != 0 }
    }

    /// Every `step`th frame at 60 Hz for `seconds`, drawn by one thread and by
    /// 2, 3 and 4 (`events` happen to each tick alike at their times): every
    /// frame alike, and whole frames drawn in bands.
    func check(width: Int, height: Int, seconds: Double, step: Int, threads: [Int] = [2, 3, 4],
               events: [(at: Double, happen: (FrameTick, Double) -> Void)]) throws -> [FrameTick] {
        let fonts = try FontSet()
        let ticks = try ([1] + threads).map { try Self.tick(width, height, threads: $0, fonts: fonts) }
        var next = 0, differing: [String] = []
        for frame in stride(from: 0, to: Int(seconds * 60), by: step) {
            let t = Double(frame) / 60
            while next < events.count && events[next].at <= t {
                for tick in ticks { events[next].happen(tick, t) }
                next += 1
            }
            for tick in ticks { tick.draw(at: t) }
            for tick in ticks.dropFirst() {
                let rows = Self.differingRows(ticks[0].frame, tick.frame)
                if !rows.isEmpty { differing.append("t=\(t) \(tick.renderer.threads) threads: rows \(rows[0])...\(rows[rows.count - 1]) (\(rows.count))") }
            }
        }
        #expect(differing.count == 0, "\(width)x\(height): \(differing.count) frames differ: \(differing.prefix(8))")
        for tick in ticks.dropFirst() {
            let banded = tick.renderer.bands?.framesDrawn ?? 0
            #expect(banded >= 20, "\(width)x\(height), \(tick.renderer.threads) threads: \(banded) frames drawn in bands")
        }
        return ticks
    }

    /// The debug build draws some thirty times slower than the release one,
    /// which checks every frame: there, every `n`th, every transition still crossed.
    static func step(debug n: Int) -> Int {
        #if DEBUG
        return n
        #else
        return 1
        #endif
    }

    /// The demo's script: an overflight, numbers rolling, one aircraft for
    /// another, back to standby, a change of mind mid-glide.
    var demo: [(at: Double, happen: (FrameTick, Double) -> Void)] {
        Demo.script.map { entry in (entry.at, { tick, t in _ = tick.controller.perform(entry.command, at: t) }) }
    }

    @Test func theDemoIsTheSameOnOneThreadAndOnSeveralAt800x480() throws {
        _ = try check(width: 800, height: 480, seconds: Demo.duration, step: Self.step(debug: 3), events: demo)
    }

    @Test func theDemoIsTheSameOnOneThreadAndOnSeveralAt1920x1080() throws {
        _ = try check(width: 1920, height: 1080, seconds: Demo.duration, step: Self.step(debug: 8), events: demo)
    }

    /// Fifty aircraft on the sweeping dial, then one overhead and back: the
    /// blips are drawn as shapes in whole frames, the range glides.
    @Test func trafficIsTheSameOnOneThreadAndOnSeveral() throws {
        let traffic = SyntheticTraffic(count: 50)
        var events: [(at: Double, happen: (FrameTick, Double) -> Void)] = [(0, { tick, _ in
            tick.controller.feed = FeedInterpreter(sourceName: "test", selector: OverheadSelector(settings: .init(station: traffic.station)))
            tick.controller.showsTraffic = true
        })]
        for second in 0..<6 {
            events.append((Double(second), { tick, t in _ = tick.controller.handle(.feed([.snapshot(traffic.snapshot(at: Double(second)))]), at: t) }))
            if second == 2 { events.append((2.5, { tick, t in tick.controller.apply(Demo.sampleOverflight, at: t) })) }
            if second == 4 { events.append((4.5, { tick, t in tick.controller.apply(.standby, at: t) })) }
        }
        let ticks = try check(width: 800, height: 480, seconds: 6, step: Self.step(debug: 2), threads: [3], events: events)
        #expect(ticks[0].controller.traffic.blips.count >= 45, "the traffic is on the dial")
    }
}
