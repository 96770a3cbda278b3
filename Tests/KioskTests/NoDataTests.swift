#if canImport(Glibc)
import Glibc
#endif
import Testing
import Feed
import Raster
import AnimationCore
@testable import KioskModel
@testable import KioskRendering

/// A feed that is down is not an empty sky: NO DATA on a still dial, and
/// STANDBY sweeping again when the data comes back.
@Suite struct NoDataTests {
    /// The status word drawn now.
    func word(_ c: KioskController) -> String? {
        c.renderList.first { $0.id.path == "status" && $0.opacity > 0.99 }.flatMap { if case let .text(s) = $0.content { s } else { nil } }
    }

    /// How many of 72 points around the dial, half way out, are clearly greener than the median.
    func greenArc(in frame: PixelBuffer, dial: AnimatableRect) -> Int {
        let greens = (0..<72).map { step -> Int in
            let angle = Double(step) * 5 * Double.pi / 180
            let (x, y) = (Int(dial.midX + sin(angle) * dial.width / 4), Int(dial.midY - cos(angle) * dial.width / 4))
            return Int((frame[x, y] >> 8) & 0xFF)
        }
        let median = greens.sorted()[36]
        return greens.filter { $0 > median + 20 }.count
    }

    @Test func aFeedThatIsDownSaysNoDataAndTheSweepStops() throws {
        let renderer = KioskRenderer(fonts: try FontSet())
        let controller = TrafficTests.controller(measure: renderer)
        let tick = FrameTick(controller: controller, renderer: renderer, buffer: PixelBuffer(width: 800, height: 480))
        for frame in 0..<30 { tick.draw(at: Double(frame) / 30) }
        #expect(word(controller) == "STANDBY" && controller.view.isSweeping)
        let sweeping = PixelBuffer(width: 800, height: 480)
        sweeping.copy(IntRect(x: 0, y: 0, width: 800, height: 480), from: tick.frame)

        // A receiver that never answers: down at once (no good picture to hold).
        let log = controller.handle(.feed([.failed("replay: connection refused")]), at: 1).log
        #expect(log.contains { $0.contains("showing NO DATA and retrying") }, "\(log)")
        for frame in 0..<45 { tick.draw(at: 1 + Double(frame) / 30) }
        #expect(word(controller) == "NO DATA" && controller.state.mode == .standby)
        #expect(!controller.view.frameNeeded(at: 3) && !controller.view.frameNeeded(at: 20), "a still dial: nothing to draw while it waits")
        // No sweep on the face: around the circle half way out, no arc is greener than the face (the wedge was, just now).
        let dial = controller.view.layout.dialFrame(.standby)
        #expect(greenArc(in: sweeping, dial: dial) > 3, "the measure sees the wedge in the sweeping frame")
        #expect(greenArc(in: tick.frame, dial: dial) <= 3, "no wedge on the still face")

        // The data back: STANDBY, sweeping.
        _ = controller.handle(.feed([.snapshot(TrafficTests.replay(try TrafficTests.capture(), at: 20))]), at: 20)
        for frame in 0..<30 { tick.draw(at: 20 + Double(frame) / 30) }
        #expect(word(controller) == "STANDBY" && controller.view.isSweeping && controller.view.frameNeeded(at: 21.1))
    }

    @Test func anOverflightShownMeanwhileIsShownAsSuch() {
        let controller = TrafficTests.controller()
        _ = controller.handle(.feed([.failed("replay: connection refused")]), at: 0)
        controller.apply(Demo.sampleOverflight, at: 1)
        _ = controller.frameNeeded(at: 5)
        #expect(word(controller) == "OVERFLIGHT", "a GPIO line or a command still shows the card")
    }
}
