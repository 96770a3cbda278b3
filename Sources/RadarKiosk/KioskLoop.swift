#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Display
import Feed
import Input
import Raster
import RasterIO

/// The kiosk's one event loop: poll() on the signal descriptor, the DRM device
/// while a flip is pending, command sources, the feed, and a frame timer.
/// Frames are drawn only when something moves; otherwise the loop sleeps until
/// an input, a scripted command or a feed wake-up.
final class KioskLoop {
    private(set) var display: Display
    private(set) var drm: DRMDisplay?
    let controller: KioskController
    private(set) var canvas: Canvas
    let signals: Int32
    var script: [TimedCommand]
    let frameLimit: Int?
    let duration: Double?
    var stdinCommands = false
    var socket: CommandSocket?
    var feed: FeedController?
    var keyboards: KeyboardSet?
    /// Keys from the terminal when run by hand.
    var terminal: TerminalKeys?
    /// A GPIO line: active means OVERFLIGHT, inactive STANDBY.
    var gpio: GPIOLine?
    /// After an edge, the level is read once things settle (the last one wins).
    private var gpioCheckAt: Double?
    private var gpioActive: Bool?
    /// DRM hotplug uevents: with a DRM display, to follow its connector; while
    /// headless, to take a display that appears (with `takeDisplay`).
    var hotplug: HotplugMonitor?
    /// Opens a DRM display if one is connected now; set while running headless
    /// because none was, so that a cable plugged in later shows the kiosk.
    var takeDisplay: (() -> DRMDisplay?)?
    /// Key code → action, from the configuration.
    var keyMap: [UInt16: KeyAction] = [:]
    /// A bouncing switch or a mashed key makes at most one transition per window.
    var debounce = 0.2
    private var lastKeyAction = -Double.infinity
    private var demoIndex = 0
    /// systemd's notification socket (silent when not run by systemd).
    var notifier = ServiceNotifier()
    /// Called on SIGHUP: re-reads the configuration and applies what it can.
    var reload: (() -> Void)?
    /// Where SIGUSR1 writes its screenshot.
    var screenshotDirectory = "/run/radar-kiosk"
    private var lastWatchdog = -Double.infinity
    private var lastStatus = ""
    private var stdinReader = LineReader()
    private(set) var framesPresented = 0
    private var nextScripted = 0
    private var firstFrameShown = false
    private var start = 0.0

    init(display: Display, controller: KioskController, script: [TimedCommand], frameLimit: Int?, duration: Double? = nil) throws {
        self.display = display
        drm = display as? DRMDisplay
        self.controller = controller
        self.script = script
        self.frameLimit = frameLimit
        self.duration = duration
        canvas = Canvas(target: display.frame)
        var wanted: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2]
        signals = radar_signalfd(&wanted, Int32(wanted.count))
        guard signals >= 0 else { throw DisplayError("cannot watch signals (\(String(cString: strerror(errno))))") }
    }

    deinit { close(signals) }

    var now: Double { MonotonicClock.now() - start }

    /// Runs until SIGINT/SIGTERM, the frame limit or the duration; the caller restores the display.
    func run() throws {
        start = MonotonicClock.now()
        // Headless while waiting for a display, nobody sees the frames: one a
        // second keeps screenshots and `get` current without spending a board's
        // CPU on a sweep at the full rate (a 1080p frame takes 10 ms on a Pi 4).
        var period: Double { drm == nil && takeDisplay != nil ? 1 : 1 / display.refreshRate }
        var nextFrame = 0.0
        var cpuStart = rusage()
        getrusage(RUSAGE_SELF.rawValue, &cpuStart)
        if stdinCommands { Descriptor.setNonBlocking(0) }
        var fds: [pollfd] = []
        fds.reserveCapacity(32)
        running: while true {
            var t = now
            if let duration, t > duration { break }
            while nextScripted < script.count && script[nextScripted].at <= t {
                _ = perform(script[nextScripted].command, at: t)
                nextScripted += 1
            }
            let flipPending = drm?.flipPending ?? false
            let connected = (drm?.isConnected ?? true) && (drm?.ownsDisplay ?? true)
            if connected && !flipPending && t >= nextFrame {
                if controller.prepareFrame(at: t) {
                    controller.draw(into: canvas)
                    try display.present(damage: canvas.damage, at: t)
                    framesPresented += 1
                    if !firstFrameShown {
                        firstFrameShown = true
                        printError("radar-kiosk: first frame on \(display.name)")
                        notifier.send("READY=1\nSTATUS=\(statusLine)")
                        lastStatus = statusLine
                    }
                    if let limit = frameLimit, framesPresented >= limit { break running }
                    // With vblank the flip event paces the loop; without it (or headless) a timer does.
                    let timerPaced = drm.map(\.completesFlipsImmediately) ?? true
                    nextFrame = timerPaced ? max(nextFrame + period, t - period / 2) : t
                }
            }
            // Keep-alive from the render loop itself: if the loop stops, systemd restarts us.
            if let interval = notifier.watchdogInterval, now - lastWatchdog >= interval {
                notifier.send("WATCHDOG=1")
                lastWatchdog = now
            }
            if firstFrameShown && statusLine != lastStatus {
                lastStatus = statusLine
                notifier.send("STATUS=\(lastStatus)")
            }
            let moving = controller.isSweeping || controller.graph.renderList.isEmpty || controller.prepareFrameNeeded
                || controller.graph.sample(at: t)
            // Sleep until the flip completes, the next frame, a command, or a feed wake-up.
            t = now
            var timeout: Double = -1
            func sooner(_ s: Double) { timeout = timeout < 0 ? max(s, 0) : min(timeout, max(s, 0)) }
            if drm?.flipPending ?? false { sooner(0.25) } else if moving { sooner(nextFrame - t) }
            if nextScripted < script.count { sooner(script[nextScripted].at - t) }
            if let wake = feed?.source.nextWake { sooner(wake - t) }
            if let deadline = feed?.deadline { sooner(deadline - t + 0.01) }
            if let duration { sooner(duration - t) }
            if let check = gpioCheckAt { sooner(check - t) }
            if let interval = notifier.watchdogInterval { sooner(lastWatchdog + interval - t) }
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: signals, events: Int16(POLLIN), revents: 0))
            fds.append(pollfd(fd: (drm?.flipPending ?? false) ? drm!.fileDescriptor : -1, events: Int16(POLLIN), revents: 0))
            fds.append(pollfd(fd: stdinCommands ? 0 : -1, events: Int16(POLLIN), revents: 0))
            fds.append(pollfd(fd: feed?.source.descriptor ?? -1, events: Int16(POLLIN), revents: 0))
            let socketStart = fds.count
            for fd in socket?.descriptors ?? [] { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            let keyboardStart = fds.count
            for fd in keyboards?.descriptors ?? [] { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            let hotplugIndex = fds.count
            fds.append(pollfd(fd: hotplug?.fd ?? -1, events: Int16(POLLIN), revents: 0))
            let gpioIndex = fds.count
            fds.append(pollfd(fd: gpio?.fd ?? -1, events: Int16(POLLIN), revents: 0))
            let terminalIndex = fds.count
            fds.append(pollfd(fd: terminal?.fd ?? -1, events: Int16(POLLIN), revents: 0))
            let ready = poll(&fds, nfds_t(fds.count), timeout < 0 ? -1 : Int32((timeout * 1000).rounded(.up)))
            if ready < 0 && errno != EINTR { throw DisplayError("poll failed (\(String(cString: strerror(errno))))") }
            if fds[0].revents != 0 {
                var info = signalfd_siginfo()
                _ = read(signals, &info, MemoryLayout<signalfd_siginfo>.size)
                switch Int32(info.ssi_signo) {
                case SIGHUP:
                    printError("radar-kiosk: SIGHUP, reloading the configuration")
                    notifier.send("RELOADING=1")
                    reload?()
                    notifier.send("READY=1")
                case SIGUSR1:
                    screenshot()
                case SIGUSR2:
                    // The VT switch protocol (VT_PROCESS): leaving or coming back.
                    if let drm {
                        if drm.handleSwitchSignal() {
                            printError("radar-kiosk: back on our VT: repainting")
                            controller.invalidate()
                            nextFrame = now
                        } else if !drm.ownsDisplay {
                            printError("radar-kiosk: another VT is in front: display released")
                        }
                    }
                default:
                    printError("radar-kiosk: signal \(info.ssi_signo), restoring the console")
                    notifier.send("STOPPING=1")
                    break running
                }
            }
            if fds[1].revents != 0 { _ = drm?.handleEvents() }
            if fds[2].revents != 0 { readStdin() }
            if let feed, fds[3].revents != 0 || (feed.source.nextWake.map { now >= $0 } ?? false)
                || (feed.deadline.map { now >= $0 } ?? false) {
                let events = feed.source.service(now: now)
                let next = events.isEmpty ? feed.reevaluate(now: now, log: printError) : feed.state(after: events, now: now, log: printError)
                if let state = next, state != controller.state {
                    let modeChanged = state.mode != controller.state.mode || state.aircraft?.callsign != controller.state.aircraft?.callsign
                    controller.apply(state, at: now)
                    if modeChanged { printError("radar-kiosk: state \(statusLine) (feed \(feed.source.name))") }
                }
            }
            if let socket, fds[socketStart..<keyboardStart].contains(where: { $0.revents != 0 }) {
                socket.service()
                for (client, line) in socket.takeQueue() { socket.reply(to: client, handle(line)) }
            }
            if let terminal, fds[terminalIndex].revents != 0 {
                for name in terminal.read() {
                    if let code = KeyNames.code(for: name), handleKey(code) == .quit { break running }
                }
            }
            if let gpio, fds[gpioIndex].revents != 0, gpio.drainEvents() > 0, gpioCheckAt == nil {
                gpioCheckAt = now + debounce
            }
            if let check = gpioCheckAt, now >= check {
                gpioCheckAt = nil
                applyGPIOLevel()
            }
            if let hotplug, fds[hotplugIndex].revents != 0, hotplug.drain() {
                if let drm {
                    if drm.reprobe() {
                        printError("radar-kiosk: \(drm.connector.name) \(drm.isConnected ? "is back: repainting" : "is gone: display off until it returns")")
                        if drm.isConnected { controller.invalidate(); nextFrame = now }
                    }
                } else if let taken = takeDisplay?() {
                    adopt(taken)
                    nextFrame = now
                }
            }
            if let keyboards, fds[keyboardStart..<hotplugIndex].contains(where: { $0.revents != 0 }) {
                for key in keyboards.service() where key.value == 1 {
                    if handleKey(key.code) == .quit { break running }
                }
            }
        }
        terminal?.restore()
        var cpuEnd = rusage()
        getrusage(RUSAGE_SELF.rawValue, &cpuEnd)
        let seconds = now
        let cpu = Self.seconds(cpuEnd.ru_utime) + Self.seconds(cpuEnd.ru_stime) - Self.seconds(cpuStart.ru_utime) - Self.seconds(cpuStart.ru_stime)
        let fps = Double(framesPresented) / max(seconds, 1e-9)
        let pacing = drm.map { d in
            (d.completesFlipsImmediately ? ", flips without vblank" : ", flips with vblank") + (d.pacing.rate.map { " at \(rounded($0)) Hz" } ?? "")
                + (d.pacing.medianInterval.map { " (median interval \(rounded($0 * 1000)) ms)" } ?? "")
        } ?? ""
        printError("radar-kiosk: \(framesPresented) frames in \(rounded(seconds)) s (\(rounded(fps)) fps, mode \(rounded(display.refreshRate)) Hz\(pacing)), "
                   + "CPU \(rounded(cpu * 1000 / Double(max(framesPresented, 1)))) ms per frame")
    }

    /// Moves from the headless display to `taken`: the scene is laid out for its
    /// size at once and drawn whole on it; the state carries over.
    private func adopt(_ taken: DRMDisplay) {
        takeDisplay = nil
        display = taken
        drm = taken
        canvas = Canvas(target: taken.frame)
        controller.resize(KioskLayout(width: taken.width, height: taken.height), at: now)
        taken.enableVTSwitching(signal: SIGUSR2)
        printError("radar-kiosk: a display appeared: showing on \(taken.name)")
        notifier.send("STATUS=\(statusLine)")
        lastStatus = statusLine
    }

    /// Applies a key's action; returns it (quit ends the loop when run by hand).
    @discardableResult
    func handleKey(_ code: UInt16) -> KeyAction? {
        guard let action = keyMap[code] else { return nil }
        let t = now
        if action == .quit {
            if notifier.isActive { return nil }   // under systemd, q does not stop a kiosk
            printError("radar-kiosk: quit (key \(KeyNames.name(for: code) ?? String(code)))")
            return .quit
        }
        guard t - lastKeyAction >= debounce else { return nil }
        lastKeyAction = t
        let demo = Demo.aircraft
        var state = controller.state
        switch action {
        case .toggle:
            state = state.mode == .overflight ? KioskState(mode: .standby) :
                KioskState(mode: .overflight, aircraft: controller.shownAircraft ?? demo[0])
        case .overflight:
            state = KioskState(mode: .overflight, aircraft: controller.shownAircraft ?? demo[0])
        case .standby:
            state = KioskState(mode: .standby)
        case .next:
            demoIndex = (demoIndex + 1) % demo.count
            state = KioskState(mode: .overflight, aircraft: demo[demoIndex])
        case .quit:
            break
        }
        controller.apply(state, at: t)
        printError("radar-kiosk: state \(statusLine) (key \(KeyNames.name(for: code) ?? String(code)))")
        return action
    }

    /// Reads the GPIO line and applies its level: active OVERFLIGHT, inactive STANDBY.
    func applyGPIOLevel(initial: Bool = false) {
        guard let gpio else { return }
        do {
            let active = try gpio.isActive()
            if active == gpioActive { return }
            gpioActive = active
            let state = active ? KioskState(mode: .overflight, aircraft: controller.shownAircraft ?? Demo.aircraft[0]) : KioskState(mode: .standby)
            // At start the level decides the first frame itself: no glide into it.
            controller.apply(state, at: initial ? 0 : now, animated: !initial)
            printError("radar-kiosk: state \(statusLine) (GPIO \(gpio.name) \(active ? "active" : "inactive"))")
        } catch {
            printError("radar-kiosk: \(error)")
        }
    }

    /// "OVERFLIGHT BAW283 on Virtual-1 …" for systemctl status.
    var statusLine: String {
        let state = controller.state
        let what = state.mode == .overflight ? "OVERFLIGHT \(state.aircraft?.callsign ?? "")" : "STANDBY"
        return what + (state.note.map { " (\($0))" } ?? "") + " on \(display.name)"
    }

    /// SIGUSR1: the picture on screen, from the cached frame (never the scanout buffer).
    private func screenshot() {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        let path = "\(screenshotDirectory)/screenshot-\(ts.tv_sec).png"
        do {
            try PNGFile.write(display.frame, to: path)
            printError("radar-kiosk: screenshot \(path)")
        } catch {
            printError("radar-kiosk: screenshot failed: \(error)")
        }
    }

    private func readStdin() {
        let (lines, closed) = stdinReader.read(from: 0)
        for line in lines { print(handle(line)) }
        if closed { stdinCommands = false }
    }

    /// Answers one command line with one JSON line; a bad one changes nothing.
    func handle(_ line: LineReader.Line) -> String {
        switch line {
        case let .tooLong(n):
            return KioskCommand.errorReply("command line too long (\(n) bytes)")
        case let .text(text):
            if text.allSatisfy({ $0 == " " || $0 == "\t" }) { return KioskCommand.errorReply("empty command line") }
            do { return perform(try KioskCommand.parse(text), at: now) } catch {
                return KioskCommand.errorReply("\(error)")
            }
        }
    }

    func perform(_ command: KioskCommand, at t: Double) -> String {
        switch command {
        case let .set(state):
            controller.apply(state, at: t)
            return KioskCommand.okReply
        case .get:
            return KioskCommand.stateReply(controller.state, animating: controller.graph.sample(at: t))
        case let .screenshot(path):
            do {
                try PNGFile.write(display.frame, to: path)
                return KioskCommand.okReply
            } catch {
                return KioskCommand.errorReply("\(error)")
            }
        }
    }

    static func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    func rounded(_ v: Double) -> Double { (v * 100).rounded() / 100 }
}
