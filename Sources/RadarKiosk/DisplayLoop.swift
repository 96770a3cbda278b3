#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Display
import Raster
import RasterIO

/// The kiosk's one event loop on a real display: poll() on the signal
/// descriptor, the DRM device while a flip is pending, and a frame timer.
/// Frames are drawn only when something moves; otherwise the loop sleeps
/// until an input or the next scripted command.
final class DisplayLoop {
    let display: DRMDisplay
    let controller: KioskController
    let canvas: Canvas
    let signals: Int32
    var script: [TimedCommand]
    let frameLimit: Int?
    private(set) var framesPresented = 0
    private var nextScripted = 0
    private var firstFrameShown = false

    init(display: DRMDisplay, controller: KioskController, script: [TimedCommand], frameLimit: Int?) throws {
        self.display = display
        self.controller = controller
        self.script = script
        self.frameLimit = frameLimit
        canvas = Canvas(target: display.frame)
        var wanted: [Int32] = [SIGINT, SIGTERM]
        signals = radar_signalfd(&wanted, Int32(wanted.count))
        guard signals >= 0 else { throw DisplayError("cannot watch signals (\(String(cString: strerror(errno))))") }
    }

    deinit { close(signals) }

    /// Runs until SIGINT/SIGTERM or the frame limit; the caller restores the display.
    func run() throws {
        let start = MonotonicClock.now()
        let period = 1 / display.refreshRate
        var nextFrame = start
        var cpuStart = rusage()
        getrusage(RUSAGE_SELF.rawValue, &cpuStart)
        var pollSet = [pollfd](repeating: pollfd(), count: 2)
        running: while true {
            let now = MonotonicClock.now()
            let t = now - start
            while nextScripted < script.count && script[nextScripted].at <= t {
                perform(script[nextScripted].command, at: t)
                nextScripted += 1
            }
            var wantsFrame = false
            if !display.flipPending && now >= nextFrame {
                if controller.prepareFrame(at: t) {
                    controller.draw(into: canvas)
                    try display.present(damage: canvas.damage, at: now)
                    framesPresented += 1
                    if !firstFrameShown {
                        firstFrameShown = true
                        printError("radar-kiosk: first frame on \(display.name)")
                    }
                    if let limit = frameLimit, framesPresented >= limit { break running }
                    // Drivers without vblank complete flips at once: pace by timer.
                    // With vblank the flip event paces us and the timer stays out of the way.
                    nextFrame = display.completesFlipsImmediately ? max(nextFrame + period, now - period / 2) : now
                }
            }
            wantsFrame = controller.isSweeping || controller.graph.renderList.isEmpty
            // How long to sleep: until the flip completes, the next frame, or the next command.
            var timeout: Double = -1
            if display.flipPending {
                timeout = 0.25
            } else if wantsFrame || controller.prepareFrameNeeded {
                timeout = max(0, nextFrame - MonotonicClock.now())
            }
            if nextScripted < script.count {
                let untilCommand = max(0, script[nextScripted].at - (MonotonicClock.now() - start))
                timeout = timeout < 0 ? untilCommand : min(timeout, untilCommand)
            }
            pollSet[0] = pollfd(fd: signals, events: Int16(POLLIN), revents: 0)
            pollSet[1] = pollfd(fd: display.flipPending ? display.fileDescriptor : -1, events: Int16(POLLIN), revents: 0)
            let ms = timeout < 0 ? -1 : Int32((timeout * 1000).rounded(.up))
            let ready = poll(&pollSet, 2, ms)
            if ready < 0 && errno != EINTR { throw DisplayError("poll failed (\(String(cString: strerror(errno))))") }
            if pollSet[0].revents != 0 {
                var info = signalfd_siginfo()
                _ = read(signals, &info, MemoryLayout<signalfd_siginfo>.size)
                printError("radar-kiosk: signal \(info.ssi_signo), restoring the console")
                break running
            }
            if pollSet[1].revents != 0 { _ = display.handleEvents() }
        }
        var cpuEnd = rusage()
        getrusage(RUSAGE_SELF.rawValue, &cpuEnd)
        let seconds = MonotonicClock.now() - start
        let cpu = Self.seconds(cpuEnd.ru_utime) + Self.seconds(cpuEnd.ru_stime) - Self.seconds(cpuStart.ru_utime) - Self.seconds(cpuStart.ru_stime)
        let fps = Double(framesPresented) / max(seconds, 1e-9)
        printError("radar-kiosk: \(framesPresented) frames in \(rounded(seconds)) s (\(rounded(fps)) fps, mode \(rounded(display.refreshRate)) Hz, "
                   + "flips \(display.completesFlipsImmediately ? "without" : "with") vblank), CPU \(rounded(cpu * 1000 / Double(max(framesPresented, 1)))) ms per frame")
    }

    static func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    func rounded(_ v: Double) -> Double { (v * 100).rounded() / 100 }

    func perform(_ command: KioskCommand, at t: Double) {
        switch command {
        case let .set(state): controller.apply(state, at: t)
        case .get: print(KioskCommand.stateReply(controller.state, animating: controller.graph.sample(at: t)))
        case let .screenshot(path):
            do { try PNGFile.write(display.frame, to: path); print(KioskCommand.okReply) } catch {
                print(KioskCommand.errorReply("\(error)"))
            }
        }
    }
}
