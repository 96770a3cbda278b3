import Testing
#if canImport(Glibc)
import Glibc
#endif
import Raster
import Feed
@testable import KioskModel
@testable import KioskRendering

/// A calm sweep: its speed, its look (a wedge, the edge alone, none) and its
/// brightness as configured, and no frames at all in standby without one.
@Suite struct SweepSettingsTests {
    private func tick(_ sweep: SweepSettings, fonts: FontSet) -> FrameTick {
        let renderer = KioskRenderer(fonts: fonts)
        let tick = FrameTick(controller: KioskController(layout: KioskLayout(width: 800, height: 480), measure: renderer), renderer: renderer,
                             buffer: PixelBuffer(width: 800, height: 480))
        tick.controller.setSweep(sweep, at: 0)
        return tick
    }

    @Test func theSweepTurnsOnceAPeriod() throws {
        let fonts = try FontSet()
        for (period, after) in [(6.0, 90.0), (3.0, 180.0), (12.0, 45.0)] {
            let t = tick(SweepSettings(style: .wedge, periodSeconds: period, opacity: 0.6), fonts: fonts)
            _ = t.view.frameNeeded(at: 1.5)
            #expect(abs(t.view.sweepBearing - after) < 0.01, "a turn in \(period) s: \(t.view.sweepBearing)° after 1.5 s")
        }
    }

    @Test func withoutASweepStandbyDrawsNothingUntilSomethingChanges() throws {
        let t = tick(SweepSettings(style: .off, periodSeconds: 6, opacity: 0.6), fonts: try FontSet())
        t.draw(at: 0)
        #expect(!t.view.frameNeeded(at: 0.1) && !t.view.frameNeeded(at: 5), "a still standby: no frames")
        t.controller.apply(Demo.sampleOverflight, at: 5)
        #expect(t.view.frameNeeded(at: 5.2), "the glide is drawn")
        t.controller.apply(.standby, at: 8)
        #expect(t.view.frameNeeded(at: 8.2))
        for frame in 0..<90 { t.draw(at: 8.2 + Double(frame) / 30) }
        #expect(!t.view.frameNeeded(at: 12), "back in standby, still again")
        t.controller.setSweep(SweepSettings(), at: 12)
        #expect(t.view.frameNeeded(at: 12.1) && t.view.isSweeping, "a sweep turned on by a reload runs at once")
    }

    /// At a point 30° behind the edge (inside the wedge), what the sweep adds
    /// to the face: the wedge's share, in proportion to its opacity; none for the edge alone.
    @Test func theWedgeTheEdgeAloneAndTheBrightness() throws {
        let fonts = try FontSet()
        func green(_ sweep: SweepSettings) -> Int {
            let t = tick(sweep, fonts: fonts)
            t.draw(at: 1.5)   // 90°·period/6: the bearing depends on the period, so all use 6 s
            let dial = t.controller.view.layout.dialFrame(.standby)
            // 30° behind the edge, half way out.
            let bearing = (t.view.sweepBearing - 30) * Double.pi / 180
            let x = Int(dial.midX + sin(bearing) * dial.width / 4), y = Int(dial.midY - cos(bearing) * dial.width / 4)
            return Int((t.frame[x, y] >> 8) & 0xFF)
        }
        let none = green(SweepSettings(style: .off, periodSeconds: 6, opacity: 1))
        let full = green(SweepSettings(style: .wedge, periodSeconds: 6, opacity: 1)) - none
        let calm = green(SweepSettings(style: .wedge, periodSeconds: 6, opacity: 0.6)) - none
        let faint = green(SweepSettings(style: .wedge, periodSeconds: 6, opacity: 0.3)) - none
        let edge = green(SweepSettings(style: .line, periodSeconds: 6, opacity: 1)) - none
        #expect(full > 40, "the full wedge adds \(full) to the green there")
        #expect(abs(Double(calm) - 0.6 * Double(full)) <= 3 && abs(Double(faint) - 0.3 * Double(full)) <= 3, "\(full), \(calm), \(faint)")
        #expect(edge == 0, "the edge alone leaves the face behind it as it is (\(edge))")
    }

    /// The traffic is the face's, not the sweep's: its blips are as bright
    /// under a faint sweep or none as under a full one, and without a sweep
    /// they still move (frames come while there is traffic, none once it has gone).
    @Test func theTrafficIsDrawnAndMovesWhateverTheSweep() throws {
        let fonts = try FontSet()
        let capture = try TrafficTests.capture()
        func run(_ sweep: SweepSettings) -> (FrameTick, [(x: Int, y: Int)]) {
            let renderer = KioskRenderer(fonts: fonts)
            let tick = FrameTick(controller: TrafficTests.controller(measure: renderer), renderer: renderer, buffer: PixelBuffer(width: 800, height: 480))
            tick.controller.setSweep(sweep, at: 0)
            _ = tick.controller.handle(.feed([.snapshot(TrafficTests.replay(capture, at: 0))]), at: 0)
            for frame in 0...60 { tick.draw(at: Double(frame) / 30) }
            let dial = tick.controller.view.layout.dialFrame(.standby)
            let centres = tick.controller.traffic.blips.filter { $0.opacity >= 1 && !$0.highlighted }.map {
                (x: Int(dial.midX + $0.x * dial.width / 2), y: Int(dial.midY - $0.y * dial.width / 2))
            }
            return (tick, centres)
        }
        let (edge, centres) = run(SweepSettings(style: .line, periodSeconds: 6, opacity: 1))
        let (faint, _) = run(SweepSettings(style: .line, periodSeconds: 6, opacity: 0.3))
        let (off, _) = run(SweepSettings(style: .off, periodSeconds: 6, opacity: 1))
        #expect(centres.count >= 40, "blips: \(centres.count)")
        // Away from the edge (2° either side covers its width at the rim of an 800x480 dial).
        let bearing = edge.view.sweepBearing
        let dial = edge.controller.view.layout.dialFrame(.standby)
        var compared = 0, differing = 0
        for c in centres {
            let b = atan2(Double(c.x) - dial.midX, dial.midY - Double(c.y)) * 180 / .pi
            guard abs((b - bearing + 540).truncatingRemainder(dividingBy: 360) - 180) > 5 else { continue }
            compared += 1
            if edge.frame[c.x, c.y] != faint.frame[c.x, c.y] || edge.frame[c.x, c.y] != off.frame[c.x, c.y] { differing += 1 }
        }
        #expect(compared >= 30 && differing == 0, "\(differing) of \(compared) blips drawn differently under a faint sweep or none")
        #expect(off.view.frameNeeded(at: 2.1), "without a sweep, the traffic still moves")
        _ = off.controller.handle(.feed([.snapshot(AircraftSnapshot(now: 100, aircraft: []))]), at: 2.1)
        for frame in 0..<30 { off.draw(at: 2.1 + Double(frame) / 30) }
        #expect(!off.view.frameNeeded(at: 4), "the traffic gone, a still standby: no frames")
    }
}
