#if canImport(Glibc)
import Glibc
#endif
import Display
import Feed
import Input
import JSON
import KioskModel
import KioskRendering
import StandingData
import SystemIO

/// `radar-kiosk run`: reads the configuration, picks the display, wires the
/// inputs to the controller, and runs the service until it is stopped; or,
/// with a script on the headless display, records it on a simulated clock.
public enum KioskRun {
    /// The flags of `run` besides the configuration keys' own.
    public static let flags: [CommandSpec.Flag] = [
        .init("--config", value: "FILE", "configuration file (default \(KioskConfiguration.defaultPath) if it exists)"),
        .init("--autoplay", value: "FILE|demo", "play timed commands from FILE, or the built-in demo"),
        .init("--record", value: "FILE.y4m", "record every shown frame to a Y4M video"),
        .init("--frames", value: "N", "stop after N frames"),
    ] + KioskConfiguration.flags

    public static func run(_ args: ParsedArguments) throws -> Int32 {
        // First of all, so that a SIGTERM while fonts load or a display opens is handled, not fatal.
        let signals = try Signals.watch([SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2])
        let configPath = args.value("--config") ?? (access(KioskConfiguration.defaultPath, F_OK) == 0 ? KioskConfiguration.defaultPath : nil)
        var config = try KioskConfiguration.load(path: configPath, flags: args)
        // `auto` is decided once, at start (it may probe the loopback for a feeder's web server).
        let askedFeed = config.feed
        config.feed = config.feed.map { resolved($0, hasStation: config.station != nil) }
        let frames = try args.value("--frames").map { _ in try args.integer("--frames", default: 0, range: 1...100_000_000) }
        let fonts = try FontSet(directory: config.fonts)
        var script: [TimedCommand] = []
        var duration = Double.infinity
        if let autoplay = args.value("--autoplay") {
            if autoplay == "demo" {
                (script, duration) = (Demo.script, Demo.duration)
            } else {
                script = try TimedCommand.parseScript(try FileContents.text(autoplay), name: autoplay)
                duration = (script.last?.at ?? 0) + 3
            }
        }
        let interpreter = try config.feed.map { _ in try makeFeedInterpreter(config) }
        let socket = try config.socket.map { try CommandSocket(path: $0) }

        // The display: DRM when asked for (failing if there is none), or when
        // auto finds one; else headless. Only opening is caught here: a display
        // that fails later ends the run with an error, and systemd restarts it.
        let panel = config.size ?? PixelSize(width: 1920, height: 1080)
        let headlessSize = config.rotation.swapsAxes ? PixelSize(width: panel.height, height: panel.width) : panel
        func openDRM() throws -> DRMCard {
            let requests = (0..<config.outputCount).map { index in
                let asked = config.outputSettings(index)
                return DRMCard.OutputRequest(name: asked.name, size: asked.size.map { ($0.width, $0.height) }, refresh: asked.refresh,
                                             rotation: asked.rotation)
            }
            return try DRMCard(showing: requests, format: config.pixelFormat)
        }
        func openHeadless() throws -> HeadlessDisplay {
            try HeadlessDisplay(width: headlessSize.width, height: headlessSize.height, refreshRate: config.refresh ?? 60,
                                recordTo: args.value("--record"))
        }
        var card: DRMCard?
        var headless: HeadlessDisplay?
        switch config.display {
        case .drm:
            card = try openDRM()
        case .auto:
            do { card = try openDRM() } catch let error as DisplayError where error.kind == .unavailable {
                // Only "no display here": a display that cannot do what was asked is said, not hidden behind a headless one.
                Log.line("radar-kiosk: no DRM display (\(error)); using the headless display")
                headless = try openHeadless()
            }
        case .headless:
            headless = try openHeadless()
        }
        let presenters: [Presenter] = card?.outputs ?? [headless!]
        let presenter = presenters[0]
        defer {
            card?.restore()
            headless?.restore()
        }
        let renderer = KioskRenderer(fonts: fonts)
        renderer.drawWholeFrames(threads: config.renderThreads ?? KioskConfiguration.automaticRenderThreads(available: Processors.available))
        let controller = KioskController(layout: config.layout(for: presenter, output: 0), measure: renderer,
                                         units: config.units, attribution: config.feed?.attribution)
        controller.keyMap = config.keyMap
        controller.feed = interpreter
        controller.showsTraffic = config.showsTraffic && interpreter != nil
        controller.gpioAction = config.gpioAction
        controller.traffic.setFixedRange(config.trafficRangeNM, at: 0)
        controller.showsAirports = config.showsAirports
        controller.placeAirports()
        controller.setSweep(config.sweep, at: 0)
        for (index, shown) in presenters.enumerated() {
            Log.line("radar-kiosk: showing on \(shown.name)" + (headless?.recorder.map { ", recording to \($0.path)" } ?? "")
                     + config.layout(for: shown, output: index).readingSummary)
        }
        let timeZone = getenv("TZ").map { String(cString: $0) }
        if let problem = TimeZoneSetting.problem(timeZone, zoneDirectory: getenv("TZDIR").map { String(cString: $0) } ?? "/usr/share/zoneinfo") {
            Log.line("radar-kiosk: \(problem)")
        }

        if let headless, duration.isFinite {
            let recording = HeadlessRecording(display: headless, controller: controller, renderer: renderer)
            recording.shouldStop = { Signals.next(from: signals).map { $0 == SIGINT || $0 == SIGTERM } ?? false }
            try recording.run(script, duration: duration, frameLimit: frames)
            Log.line("radar-kiosk: \(recording.framesDrawn) frames drawn, \(recording.framesSkipped) refreshes with nothing to draw")
            return 0
        }

        let notifier = ServiceNotifier()
        controller.keysMayQuit = !notifier.isActive   // under systemd, q does not stop a kiosk
        let service = KioskService(tick: FrameTick(controller: controller, renderer: renderer, presenter: presenter),
                                   configuration: config, notifier: notifier)
        if let card { service.show(card, at: 0) }
        service.reread = configPath.map { path in { try KioskConfiguration.load(path: path, flags: args) } }
        service.loop.frameLimit = frames
        let loop = service.loop
        loop.add(SignalSource(signals))
        if let path = config.overflightLog.path(stateDirectory: getenv("STATE_DIRECTORY").map { String(cString: $0) }) {
            let log = OverflightLog(path: path)
            service.overflightLog = log
            loop.add(log)
            Log.line("radar-kiosk: logging overflights to \(path)")
        }
        let corner = StandbyCorner(choice: config.standbyInfo, units: config.units, logPath: service.overflightLog?.path,
                                   unwritten: { [unowned service] in service.overflightLog?.unwritten ?? [] })
        service.standbyCorner = corner
        loop.add(corner)
        let screen = ScreenControl(ticks: service.loop.ticks, schedule: config.night, station: config.station ?? interpreter.map { $0.selector.settings.station },
                                   backlight: backlight(config.backlight))
        controller.screen = config.screen
        service.screen = screen
        loop.add(screen)
        if let night = config.night { Log.line("radar-kiosk: night from \(night.from) until \(night.until): screen \(config.screen.nightAction == .dim ? "dimmed" : "off")") }
        if config.screen.overheadOnly { Log.line("radar-kiosk: the screen is on only while an aircraft is shown (and \(Int(config.screen.lingerSeconds)) s after)") }
        if let broker = config.mqttAddress {
            do {
                let password = try config.mqttPasswordFile.map { try FileContents.text($0, limit: 4096).textLines.first.map { $0.trimmed(" \t\r") } ?? "" }
                let link = HomeAssistantLink(broker: broker, tls: config.mqttTLS ? .init(caFile: config.mqttCAFile, certificateFile: config.mqttCertificateFile, keyFile: config.mqttKeyFile) : nil, base: config.mqttTopic,
                                             clientID: config.mqttClientID, username: config.mqttUsername,
                                             password: password, discoveryPrefix: config.mqttDiscovery ? config.mqttDiscoveryPrefix : nil,
                                             device: .init(name: config.mqttName ?? (["Radar kiosk"] + [HostName.current()].compactMap { $0 }).joined(separator: " "),
                                                           hardware: BoardModel.read(), area: config.mqttArea),
                                             overflightLog: service.overflightLog?.path)
                service.mqtt = link
                loop.add(link)
                screen.changed = { [unowned service] time in service.publishState(at: time) }
                Log.line("radar-kiosk: mqtt broker \(broker)\(config.mqttTLS ? " over TLS" : ""), topics \(config.mqttTopic)/…" + (config.mqttDiscovery ? ", Home Assistant discovery under \(config.mqttDiscoveryPrefix)/" : ""))
            } catch {
                Log.line("radar-kiosk: mqtt.password_file: \(error); running without MQTT")
            }
        }
        if let interval = notifier.watchdogInterval { loop.add(WatchdogSource(notifier, interval: interval)) }
        if !script.isEmpty { loop.add(ScriptSource(script)) }
        if isatty(0) == 0 { loop.add(StandardInputSource()) }
        // Run by hand in a terminal (not on the kiosk's own VT under systemd): keys from it.
        let terminal = isatty(0) != 0 && !notifier.isActive ? TerminalKeys(fd: 0) : nil
        defer { terminal?.restore() }
        if let terminal { loop.add(TerminalSource(terminal)) }
        if let socket {
            let source = SocketSource(socket)
            service.socket = source
            loop.add(source)
        }
        let feedSource = try interpreter.flatMap { _ in try makeFeedSource(config) }
        if let interpreter, let feedSource {
            loop.add(FeedInput(feedSource, interpreter: interpreter))
            if let merged = feedSource as? MergedFeed { interpreter.memberStatuses = { [unowned merged] in merged.statuses } }
        }
        Log.line("radar-kiosk: " + feedLine(asked: askedFeed, resolved: config.feed, source: feedSource))
        controller.touchMapping = config.touchMapping
        controller.touchMapping.rotation = config.rotation
        controller.touchLingerSeconds = config.touchLingerSeconds
        controller.setStationView(facing: config.facing, elevationFeet: config.stationElevationFeet, at: 0)
        if config.keyboard != .none || config.touch {
            let only: String? = if case let .device(path) = config.keyboard { path } else { nil }
            let devices = InputDevices(grab: config.keyboardGrab, keyboards: config.keyboard != .none, touchscreens: config.touch, onlyKeyboard: only)
            devices.log = { Log.line($0) }
            devices.scan()
            loop.add(InputDeviceSource(devices, controller: controller))
        }
        if let spec = config.alertGPIOLine {
            do {
                let line = try GPIOLine(outputSpec: spec, activeLow: config.alertGPIOActiveLow)
                service.alertLine = line
                Log.line("radar-kiosk: alert line \(line.name) (\(line.chip) line \(line.offset)), inactive")
            } catch {
                Log.line("radar-kiosk: \(error); running without the alert line")
            }
        }
        if let spec = config.gpioLine {
            do {
                let line = try GPIOLine(spec: spec, activeLow: config.gpioActiveLow, bias: config.gpioBias,
                                        debounceMilliseconds: config.gpioDebounceMilliseconds)
                Log.line("radar-kiosk: GPIO \(line.name) (\(line.chip) line \(line.offset))")
                // The level at start decides the first frame: no edge needed.
                _ = service.dispatch(.gpio(active: try line.isActive(), line: line.name, initial: true), at: 0)
                loop.add(GPIOSource(line, settle: controller.keyDebounce))
            } catch {
                Log.line("radar-kiosk: \(error); running without it")
            }
        }
        if config.display != .headless {
            if let monitor = HotplugMonitor() {
                loop.add(HotplugSource(monitor) { [unowned service] in service.hotplug(at: service.loop.now) })
            } else {
                Log.line("radar-kiosk: no netlink uevents (\(SystemError.lastReason)); display hotplug is not followed")
            }
        }
        card?.enableTerminalSwitching(signal: SIGUSR2)
        if config.display == .auto && headless != nil {
            // No display now (a board booted with the cable out, a driver still
            // loading): the first one that appears is taken. Nobody sees the
            // headless frames meanwhile: one a second keeps screenshots and `get`
            // current without a sweep at the full rate on a board's CPU.
            loop.framePeriod = 1
            service.takeDisplay = {
                do { return try openDRM() } catch {
                    Log.line("radar-kiosk: a display changed but none can be taken: \(error)")
                    return nil
                }
            }
        }
        try service.run()
        if let taken = service.session, taken !== card { taken.restore() }
        return 0
    }

    /// The backlight asked for; one that cannot be read is a log line (dimming then darkens the picture).
    static func backlight(_ choice: BacklightChoice) -> Backlight? {
        switch choice {
        case .none: return nil
        case .auto:
            let found = Backlight.first()
            if let found { Log.line("radar-kiosk: backlight \(found.directory) (0...\(found.maximum))") }
            return found
        case let .directory(path):
            do {
                let found = try Backlight(directory: path)
                Log.line("radar-kiosk: backlight \(found.directory) (0...\(found.maximum))")
                return found
            } catch {
                Log.line("radar-kiosk: \(error); dimming darkens the picture instead")
                return nil
            }
        }
    }

    /// The feed's interpretation: overhead settings, routes and names.
    static func makeFeedInterpreter(_ config: KioskConfiguration) throws -> FeedInterpreter {
        let station = try config.station ?? receiverStation(config.feed)
        let interpreter = FeedInterpreter(sourceName: config.feed?.description ?? "",
                                          selector: OverheadSelector(settings: config.selectorSettings(station: station)))
        if let routes = config.routes { interpreter.identity.routes = try RouteTable.parse(try FileContents.text(routes), name: routes) }
        interpreter.identity.standingData = standingData(config.standingData)
        var alerts = config.alerts
        if let path = config.alertWatchList { alerts.watchList = try AlertRules.watchList(try FileContents.text(path), name: path) }
        if alerts.emergencies || alerts.military || !alerts.watchList.isEmpty { interpreter.alerts = alerts }
        if case .file? = config.feed, let skyAware = SkyAwareDatabase.installed() {
            interpreter.identity.skyAware = skyAware
            Log.line("radar-kiosk: PiAware's aircraft database \(skyAware.directory): types by address")
        }
        return interpreter
    }

    /// The station when the configuration names none: the receiver's own
    /// position, from the receiver.json beside a local aircraft.json.
    static func receiverStation(_ feed: FeedSpec?) throws -> GeoPoint {
        let missing = "a feed needs the station (--station LAT,LON or station = in the configuration)"
        guard case let .file(path)? = feed?.sources.first else { throw ArgumentError(missing) }
        do {
            let station = try ReceiverLocation.station(besideAircraftJSON: path)
            Log.line("radar-kiosk: station \(station.latitude), \(station.longitude), the receiver's (no station in the configuration)")
            return station
        } catch {
            throw ArgumentError("\(missing); \(error)")
        }
    }

    /// The standing data asked for. The card works without it (no routes or
    /// names from it), so a missing or bad file is one log line, not a stop.
    static func standingData(_ choice: StandingDataChoice) -> StandingData? {
        let started = MonotonicClock.now()
        do {
            let data: StandingData
            switch choice {
            case .none: return nil
            case .auto: data = try StandingData.locate()
            case let .file(path): data = try StandingData(path: path)
            }
            Log.line("radar-kiosk: standing data \(data.path): \(data.routeCount) routes, \(data.airportCount) airports "
                     + "(opened in \(Int(((MonotonicClock.now() - started) * 1000).rounded())) ms)")
            return data
        } catch {
            Log.line("radar-kiosk: \(error); the card shows no routes or names from the standing data")
            return nil
        }
    }

    /// `auto` as the feed it stands for: the first receiver file that exists
    /// (readsb, dump1090-fa, dump1090-mutability, skyaware978); with none, the
    /// local feeder web server's aircraft.json if one answers; else readsb's
    /// file, watched until it appears.
    /// A feeder's web server is taken only with the station set: over HTTP
    /// there is no receiver.json beside the file to take it from.
    static func resolved(_ spec: FeedSpec, hasStation: Bool = true, candidates: [String] = FeedSpec.automaticPaths,
                         serverAnswers: () -> Bool = { TCPConnection.accepts(host: "127.0.0.1", port: 8080, within: 0.3) }) -> FeedSpec {
        if case let .several(specs) = spec {
            return .several(specs.map { resolved($0, hasStation: hasStation, candidates: candidates, serverAnswers: serverAnswers) })
        }
        guard spec == .auto else { return spec }
        if let found = candidates.first(where: { access($0, F_OK) == 0 }) { return .file(found) }
        return hasStation && serverAnswers() ? FeedSpec.automaticURL : .file(candidates[0])
    }

    /// The one line at start saying where aircraft come from, so that an
    /// empty dial is never a mystery: what `auto` found, or that it found
    /// nothing and what it watches, or that no feed is set.
    static func feedLine(asked: FeedSpec?, resolved: FeedSpec?, source: (any FeedSource)?, exists: (String) -> Bool = { access($0, F_OK) == 0 }) -> String {
        guard let resolved, let source else {
            return "no feed is set: the dial shows no aircraft (feed = auto finds a receiver on this board)"
        }
        var line = "feed \(source.name)"
        if let web = source as? HTTPFeed, web.url != web.name { line += " (\(web.url), one request every \(web.interval) s)" }
        guard asked == .auto else { return line }
        if case let .file(path) = resolved, !exists(path) {
            return "feed = auto: no receiver found on this board; watching \(path) until it appears"
        }
        return line + ", found by feed = auto"
    }

    /// The live source for the configured feed.
    static func makeFeedSource(_ config: KioskConfiguration) throws -> (any FeedSource)? {
        try makeFeedSource(config.feed, config)
    }

    private static func makeFeedSource(_ spec: FeedSpec?, _ config: KioskConfiguration) throws -> (any FeedSource)? {
        switch spec {
        case nil, .auto?: return nil
        case let .several(specs)?:
            return MergedFeed(try specs.compactMap { member in
                let isDelayed = if case .aggregator = member { true } else { false }
                return try makeFeedSource(member, config).map { MergedFeed.Member($0, isDelayed: isDelayed) }
            })
        case let .file(path)?: return try FileFeed(path: path)
        case let .sbs(host, port)?: return SBSFeed(host: host, port: port)
        case let .aggregator(service)?:
            guard let station = config.station else { throw ArgumentError("feed \(service.rawValue) needs the station (station = LAT,LON)") }
            // The dial's widest range (or the fixed one), and the alerts' radius.
            let radius = max(config.trafficRangeNM ?? TrafficPicture.rangeSteps(config.units.distance).last!, config.alerts.radiusNM, config.radiusNM)
            let feed = HTTPFeed(url: service.url(station: station, radiusNM: radius, origin: Aggregator.originOverride),
                                name: service.rawValue, caFile: config.feedCAFile)
            // A margin over the documented rate: one request taking longer
            // than the next must not bring two arrivals closer than it allows.
            feed.interval = service.minimumInterval * 1.05
            return feed
        case let web?: return HTTPFeed(url: web.description, caFile: config.feedCAFile)
        }
    }
}
