import Display
import Raster
import RasterIO

/// Plays timed commands into the kiosk on the headless display with a
/// simulated clock (faster than real time), presenting a frame only when one
/// is needed: with nothing changing, nothing new is recorded.
public final class HeadlessRecording {
    public let display: HeadlessDisplay
    public let controller: KioskController
    let canvas: Canvas
    public private(set) var framesDrawn = 0
    public private(set) var framesSkipped = 0
    /// Replies to get commands, and screenshots, are reported here (one line each).
    public var log: (String) -> Void = { print($0) }

    public init(display: HeadlessDisplay, controller: KioskController) {
        self.display = display
        self.controller = controller
        canvas = Canvas(target: display.frame)
    }

    /// Runs `script` until `duration` seconds (or `frameLimit` frames presented).
    public func run(_ script: [TimedCommand], duration: Double, frameLimit: Int? = nil) throws {
        var next = 0
        var frame = 0
        while true {
            let t = Double(frame) / display.refreshRate
            if t > duration { break }
            if let limit = frameLimit, framesDrawn >= limit { break }
            while next < script.count && script[next].at <= t {
                try perform(script[next].command, at: t)
                next += 1
            }
            if controller.prepareFrame(at: t) {
                controller.draw(into: canvas)
                try display.present(damage: canvas.damage, at: t)
                framesDrawn += 1
            } else {
                framesSkipped += 1
            }
            frame += 1
        }
    }

    func perform(_ command: KioskCommand, at t: Double) throws {
        switch command {
        case let .set(state):
            controller.apply(state, at: t)
        case .get:
            log(KioskCommand.stateReply(controller.state, animating: controller.graph.sample(at: t)))
        case let .screenshot(path):
            try PNGFile.write(display.frame, to: path)
            log("screenshot \(path)")
        }
    }
}

