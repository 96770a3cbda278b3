#if canImport(Glibc)
import Glibc
#endif
import Display
import Input
import KioskModel
import KioskRendering
import SystemIO

/// The running kiosk as a service: the event loop with its sources, the
/// frame tick on the chosen presenter, and what only a service does with an
/// event: replies to their senders, screenshots, reloading the
/// configuration, following the display, and telling systemd.
final class KioskService {
    let loop: EventLoop
    let controller: KioskController
    let notifier: ServiceNotifier
    var configuration: KioskConfiguration
    /// Re-reads the configuration (the file, with the flags over it) on SIGHUP.
    var reread: (() throws -> KioskConfiguration)?
    /// Opens a DRM card's outputs if they can be had now: set while running headless for want of them.
    var takeDisplay: (() -> DRMCard?)?
    /// The card shown on (master, the VT), while there is one: it outlives its outputs' ticks.
    private(set) var session: DisplaySession?
    var socket: SocketSource?
    /// One line per overflight, when configured.
    var overflightLog: OverflightLog?
    /// An output line driven active while an alert shows, when configured.
    var alertLine: GPIOLine?
    /// Blanks, lights and dims the display as the controller decides.
    var screen: ScreenControl?
    /// The kiosk on an MQTT broker, when configured.
    var mqtt: HomeAssistantLink?
    var standbyCorner: StandbyCorner?
    private var alertDriven = false
    let screenshots: ScreenshotWriter
    private let output = StandardOutputReplies()
    private var lastStatus = ""

    init(tick: FrameTick, configuration: KioskConfiguration, notifier: ServiceNotifier) {
        controller = tick.controller
        self.configuration = configuration
        self.notifier = notifier
        screenshots = ScreenshotWriter(directory: configuration.screenshotDirectory)
        loop = EventLoop(tick: tick, framePeriod: 1 / (tick.presenter?.refreshRate ?? 60))
        loop.dispatch = { [unowned self] event, time in self.dispatch(event, at: time) }
        loop.framePresented = { [unowned self] count in self.framePresented(count) }
        loop.add(screenshots)
    }

    var presenter: Presenter? { loop.tick.presenter }

    /// Shows the kiosk on `card`'s outputs: the first output's tick takes the
    /// first (it may have shown the headless display until now), and each
    /// further output gets a view of its own, laid out for its size, and a tick.
    func show(_ card: DRMCard, at time: Double) {
        session = card
        let outputs = card.outputs
        if loop.tick.presenter !== outputs[0] { loop.tick.adopt(outputs[0], layout: configuration.layout(for: outputs[0], output: 0), at: time) }
        for (index, output) in outputs.enumerated().dropFirst() {
            let view = controller.addView(layout: configuration.layout(for: output, output: index), at: time)
            let renderer = KioskRenderer(fonts: loop.tick.renderer.fonts)
            renderer.drawWholeFrames(threads: loop.tick.renderer.threads)
            loop.add(FrameTick(controller: controller, view: view, renderer: renderer, presenter: output))
        }
        screen?.ticks = loop.ticks
    }

    /// Every output's name, for the log and STATUS=.
    var outputNames: String { loop.ticks.compactMap { $0.presenter?.name }.joined(separator: " and ") }

    /// Runs until a stop; the display is given back by the caller.
    func run() throws {
        let cpuStart = MonotonicClock.processCPUTime()
        defer {
            if alertDriven { try? alertLine?.setActive(false) }
            screen?.restore()
            mqtt?.close(at: loop.now)
            overflightLog?.close()
            logSummary(cpu: MonotonicClock.processCPUTime() - cpuStart)
        }
        // Dark from the start at night or with nothing overhead: no frame flashes
        // first, and systemd hears READY now, as no frame will say it.
        if let screen {
            let now = loop.now
            for event in screen.service(now: now) { _ = dispatch(event, at: now) }
            screen.apply(at: now)
            if presenter?.isScreenOn == false {
                Log.line("radar-kiosk: running on \(outputNames), screen off")
                notifier.send("READY=1\n" + ServiceNotifier.status(status + ", screen off"))
            }
        }
        try loop.run()
    }

    private func framePresented(_ count: Int) {
        if count == 1 {
            Log.line("radar-kiosk: first frame on \(outputNames)")
            notifier.send("READY=1\n" + ServiceNotifier.status(status))
            lastStatus = status
        }
    }

    /// "OVERFLIGHT BAW283 on Virtual-1 …", for systemctl status.
    var status: String { controller.statusLine + " on \(outputNames)" }

    /// Tells home automation what the kiosk shows now, and its screen.
    func publishState(at time: Double) {
        mqtt?.observe(controller.state, screen: controller.screen, power: controller.screenPower(at: time),
                      feeds: controller.feed?.sourceStatuses, wallClock: WallClock.now())
    }

    /// Acts on one event; false stops the kiosk.
    func dispatch(_ event: KioskEvent, at time: Double) -> Bool {
        if case let .signal(signal) = event { return handle(signal, at: time) }
        var response = controller.handle(event, at: time)
        if overflightLog?.observe(controller.state, now: time) != nil { standbyCorner?.overflightEnded() }
        standbyCorner?.isShown = controller.state.mode == .standby
        driveAlertLine()
        screen?.apply(at: time)
        publishState(at: time)
        let client: CommandClient
        switch event {
        case let .commandLine(_, sender), let .screenshotWritten(_, sender): client = sender
        default: client = .nobody
        }
        if let name = response.screenshotPath {
            // Written off the loop; the reply comes with .screenshotWritten. Not
            // for whoever can publish on the broker: a file a second would fill
            // the state directory (the socket, its owner's, and SIGUSR1 may).
            response.screenshotPath = nil
            let overMQTT = if case .mqtt = client { true } else { false }
            response.reply = overMQTT ? KioskCommand.errorReply("screenshot: not taken over MQTT (the socket or SIGUSR1 take one)")
                : screenshots.request(name, of: loop.tick.frame, for: client, at: time)
        }
        for line in response.log { Log.line(line) }
        if let answer = response.reply {
            switch client {
            case let .socket(id): socket?.socket.reply(to: id, answer)
            case .standardInput: output.send(answer)
            case .mqtt: mqtt?.reply(answer)
            case .nobody: if answer != KioskCommand.okReply { Log.line("radar-kiosk: \(answer)") }
            }
        }
        if loop.framesPresented > 0 && status != lastStatus {
            lastStatus = status
            notifier.send(ServiceNotifier.status(status))
        }
        return !response.quit
    }

    /// The alert line follows the card: active while an alert shows.
    private func driveAlertLine() {
        guard let line = alertLine else { return }
        let alert = controller.state.mode == .overflight && controller.state.aircraft?.alert != nil
        guard alert != alertDriven else { return }
        do {
            try line.setActive(alert)
            alertDriven = alert
            Log.line("radar-kiosk: alert line \(line.name) \(alert ? "active" : "inactive")")
        } catch {
            Log.line("radar-kiosk: \(error)")
            alertDriven = alert   // said once; the next change tries again
        }
    }

    private func handle(_ signal: ServiceSignal, at time: Double) -> Bool {
        switch signal {
        case let .terminate(number):
            Log.line("radar-kiosk: signal \(number), restoring the console" + (controller.isAnimating(at: time) ? " (mid-transition)" : ""))
            notifier.send("STOPPING=1")
            return false
        case .reload:
            Log.line("radar-kiosk: SIGHUP, reloading the configuration")
            notifier.send("RELOADING=1")
            reload()
            notifier.send("READY=1")
        case .screenshot:
            if let refused = screenshots.request(nil, of: loop.tick.frame, for: .nobody, at: time) {
                Log.line("radar-kiosk: SIGUSR1: \(refused)")
            }
        case .switchTerminal:
            guard let change = session?.handleSwitchSignal() else { return true }
            Log.line(change == .released ? "radar-kiosk: another VT is in front: display released" : "radar-kiosk: back on our VT: repainting")
            _ = controller.handle(.display(change), at: time)
        }
        return true
    }

    /// SIGHUP: what can change live is applied; the rest is named as needing a restart.
    private func reload() {
        guard let reread else {
            Log.line("radar-kiosk: no configuration file to reload")
            return
        }
        do {
            let fresh = try reread()
            var later: [String] = []
            for key in ConfigurationKey.all where !key.appliesLive && !fresh.agrees(with: configuration, on: key.name) {
                later.append(key.name)
            }
            // An aggregator is asked for the aircraft around the station it started with.
            if !fresh.agrees(with: configuration, on: "station"), configuration.feed?.sources.contains(where: { if case .aggregator = $0 { true } else { false } }) == true {
                later.append("station (for the aggregator's area)")
            }
            configuration.adoptLiveSettings(from: fresh)
            let live = configuration
            // Without a station set, the one taken at start (the receiver's) stays.
            if let feed = controller.feed { feed.selector.settings = live.selectorSettings(station: live.station ?? feed.selector.settings.station) }
            controller.keyMap = live.keyMap
            controller.screen.adoptSettings(from: live.screen)
            screen?.schedule = live.night
            standbyCorner?.choice = live.standbyInfo
            controller.setSweep(live.sweep, at: loop.now)
            controller.showsAirports = live.showsAirports
            controller.placeAirports()
            if let station = live.station { screen?.station = station }
            controller.setStationView(facing: live.facing, elevationFeet: live.stationElevationFeet, at: loop.now)
            screenshots.directory = configuration.screenshotDirectory
            Log.line("radar-kiosk: configuration reloaded" + (later.isEmpty ? "" : "; \(later.joined(separator: ", ")) take effect after a restart"))
        } catch {
            Log.line("radar-kiosk: \(error); keeping the running configuration")
        }
    }

    /// A DRM hotplug: each output re-probed, or, while headless, a display taken.
    func hotplug(at time: Double) -> [KioskEvent] {
        if let takeDisplay {
            guard let card = takeDisplay() else { return [] }
            self.takeDisplay = nil
            show(card, at: time)
            loop.framePeriod = 1 / card.outputs[0].refreshRate
            card.enableTerminalSwitching(signal: SIGUSR2)
            Log.line("radar-kiosk: a display appeared: showing on \(outputNames)")
            notifier.send(ServiceNotifier.status(status))
            return []
        }
        // Each output on its own: one TV going to sleep leaves the other screen running.
        for tick in loop.ticks {
            guard let presenter = tick.presenter, let change = presenter.reprobe() else { continue }
            Log.line("radar-kiosk: \(presenter.name) \(change == .reconnected ? "is back: repainting" : "is gone: display off until it returns")")
            if change.needsRepaint { tick.view.requestRepaint() }
        }
        return []
    }

    private func logSummary(cpu: Double) {
        let seconds = loop.now, frames = loop.framesPresented
        func r(_ v: Double) -> Double { (v * 100).rounded() / 100 }
        Log.line("radar-kiosk: \(frames) frames in \(r(seconds)) s (\(r(Double(frames) / max(seconds, 1e-9))) fps, "
                 + "mode \(r(presenter?.refreshRate ?? 0)) Hz\(presenter?.pacingSummary ?? "")), CPU \(r(cpu * 1000 / Double(max(frames, 1)))) ms per frame")
    }
}
