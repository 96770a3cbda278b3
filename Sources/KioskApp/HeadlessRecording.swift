import Display
import KioskModel
import KioskRendering

/// Plays timed commands into the kiosk on the headless display with a
/// simulated clock (faster than real time), presenting a frame only when one
/// is needed: with nothing changing, nothing new is recorded.
public final class HeadlessRecording {
    public let tick: FrameTick
    public private(set) var framesDrawn = 0
    public private(set) var framesSkipped = 0
    /// Replies to scripted commands (a `get`'s state) go here, one line each.
    public var log: (String) -> Void = { print($0) }
    /// Asked now and then: true ends the recording early (a SIGINT, say).
    public var shouldStop: () -> Bool = { false }

    public init(display: HeadlessDisplay, controller: KioskController, renderer: KioskRenderer) {
        tick = FrameTick(controller: controller, renderer: renderer, presenter: display)
    }

    /// Runs `script` until `duration` seconds (or `frameLimit` frames presented).
    public func run(_ script: [TimedCommand], duration: Double, frameLimit: Int? = nil) throws {
        let rate = tick.presenter?.refreshRate ?? 60
        var next = 0
        var frame = 0
        while true {
            let t = Double(frame) / rate
            if t > duration { break }
            if let limit = frameLimit, framesDrawn >= limit { break }
            if frame % 16 == 0 && shouldStop() { break }
            while next < script.count && script[next].at <= t {
                tick.complete(tick.controller.handle(.scripted(script[next].command), at: t), reply: log)
                next += 1
            }
            if try tick.run(at: t) { framesDrawn += 1 } else { framesSkipped += 1 }
            frame += 1
        }
    }
}
