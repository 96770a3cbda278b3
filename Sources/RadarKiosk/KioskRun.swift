#if canImport(Glibc)
import JSON
import Glibc
#endif
import Display
import Raster
import RasterIO
import Feed
import Input

/// `radar-kiosk run`: picks the display, then plays the autoplay script or
/// serves commands until stopped.
enum KioskRun {
    static func run(_ args: ParsedArguments) throws -> Int32 {
        let configPath = args.value("--config") ?? (access(KioskConfiguration.defaultPath, F_OK) == 0 ? KioskConfiguration.defaultPath : nil)
        var config = try configPath.map(loadConfiguration) ?? KioskConfiguration()
        // Flags override the file.
        if let v = args.value("--display") { config.display = v }
        guard ["auto", "drm", "headless"].contains(config.display) else {
            throw ArgumentError("--display \(config.display): expected auto, drm or headless")
        }
        if let v = args.value("--output") { config.output = v }
        if let v = args.value("--size") { config.size = v }
        if let v = args.value("--refresh") { config.refresh = try parseDouble(v, flag: "--refresh", default: 60, range: 1...240) }
        if let v = args.value("--fonts") { config.fonts = v }
        if let v = args.value("--socket") { config.socket = v }
        if let v = args.value("--feed") { config.feed = v }
        if let v = args.value("--station") { config.station = try parseStation(v) }
        if let v = args.value("--radius") { config.radiusNM = try parseDouble(v, flag: "--radius", default: 3, range: 0.1...100) }
        if let v = args.value("--ceiling") { config.ceilingFeet = try parseInt(v, flag: "--ceiling", default: 10_000, range: 0...60_000) }
        if args.has("--include-ground") { config.includeGround = true }
        if let v = args.value("--rotate") {
            guard let r = Int(v), DisplayRotation(degrees: r) != nil else { throw ArgumentError("--rotate \(v): expected 0, 90, 180 or 270") }
            config.rotation = r
        }
        if let v = args.value("--pixel-format") {
            guard ScanoutPixelFormat(rawValue: v) != nil else { throw ArgumentError("--pixel-format \(v): expected xrgb8888 or rgb565") }
            config.pixelFormat = v
        }
        let rotation = DisplayRotation(degrees: config.rotation) ?? .upright
        let format = ScanoutPixelFormat(rawValue: config.pixelFormat) ?? .xrgb8888

        let size = try config.size.map { try parseSize($0) }
        // Headless shows what the viewer of the turned panel sees.
        let panelSize = size ?? (1920, 1080)
        let headlessSize = rotation.swapsAxes ? (panelSize.1, panelSize.0) : panelSize
        let refresh = config.refresh ?? 60
        let frames = try args.value("--frames").map { try parseInt($0, flag: "--frames", default: 0, range: 1...100_000_000) }
        let fonts = try FontSet(directory: config.fonts)
        var script: [TimedCommand] = []
        var duration = Double.infinity
        if let autoplay = args.value("--autoplay") {
            if autoplay == "demo" {
                script = Demo.script
                duration = Demo.duration
            } else {
                script = try TimedCommand.parseScript(try readTextFile(autoplay), name: autoplay)
                duration = (script.last?.at ?? 0) + 3
            }
        }
        let feed = try makeFeed(config)
        let socket = try config.socket.map { try CommandSocket(path: $0) }
        func configure(_ loop: KioskLoop) {
            loop.stdinCommands = isatty(0) == 0
            // Run by hand in a terminal (not on the kiosk's own VT under systemd): keys from it.
            if isatty(0) != 0 && getenv("NOTIFY_SOCKET") == nil { loop.terminal = TerminalKeys(fd: 0) }
            loop.socket = socket
            loop.feed = feed
            loop.screenshotDirectory = config.screenshotDirectory
            if config.keyboard != "none" {
                let keyboards = KeyboardSet(grab: config.keyboardGrab, only: config.keyboard == "auto" ? nil : config.keyboard)
                keyboards.log = printError
                keyboards.scan()
                loop.keyboards = keyboards
            }
            if let spec = config.gpioLine {
                do {
                    let line = try GPIOLine(spec: spec, activeLow: config.gpioActiveLow, bias: GPIOLine.Bias(rawValue: config.gpioBias) ?? .asIs,
                                            debounceMilliseconds: config.gpioDebounceMilliseconds)
                    loop.gpio = line
                    printError("radar-kiosk: GPIO \(line.name) (\(line.chip) line \(line.offset))")
                    // The level at start decides the first frame: no edge needed.
                    loop.applyGPIOLevel(initial: true)
                } catch {
                    printError("radar-kiosk: \(error); running without it")
                }
            }
            loop.keyMap = Dictionary(config.keys.compactMap { name, action in KeyNames.code(for: name).map { ($0, action) } },
                                     uniquingKeysWith: { a, _ in a })
            loop.reload = {
                guard let path = configPath else {
                    printError("radar-kiosk: no configuration file to reload")
                    return
                }
                do {
                    let fresh = try loadConfiguration(path)
                    if let feed, let station = fresh.station { feed.selector.settings = fresh.selectorSettings(station: station) }
                    if fresh.feed != config.feed || fresh.display != config.display || fresh.output != config.output
                        || fresh.size != config.size || fresh.socket != config.socket {
                        printError("radar-kiosk: \(path): display, socket and feed changes take effect after a restart")
                    }
                    printError("radar-kiosk: \(path): reloaded")
                } catch {
                    printError("radar-kiosk: \(error); keeping the running configuration")
                }
            }
        }
        // The configured output, mode, turn and format: at start, and again when a display appears.
        func openDRMDisplay() throws -> DRMDisplay {
            try DRMDisplay(outputName: config.output, size: size, refresh: config.refresh, rotation: rotation, format: format)
        }
        if config.display == "drm" || config.display == "auto" {
            do {
                let display = try openDRMDisplay()
                defer { display.restore() }
                let controller = KioskController(layout: KioskLayout(width: display.width, height: display.height),
                                                 renderer: KioskRenderer(fonts: fonts))
                printError("radar-kiosk: showing on \(display.name)")
                // On a real display the kiosk keeps going after its script.
                let loop = try KioskLoop(display: display, controller: controller, script: script, frameLimit: frames)
                configure(loop)
                loop.hotplug = HotplugMonitor()
                display.enableVTSwitching(signal: SIGUSR2)
                if loop.hotplug == nil { printError("radar-kiosk: no netlink uevents (\(String(cString: strerror(errno)))); display hotplug is not followed") }
                try loop.run()
                return 0
            } catch let error as DisplayError where config.display == "auto" {
                printError("radar-kiosk: no DRM display (\(error)); using the headless display")
            }
        }
        let display = try HeadlessDisplay(width: headlessSize.0, height: headlessSize.1, refreshRate: refresh, recordTo: args.value("--record"))
        let controller = KioskController(layout: KioskLayout(width: headlessSize.0, height: headlessSize.1), renderer: KioskRenderer(fonts: fonts))
        printError("radar-kiosk: showing on \(display.name)" + (display.recorder.map { ", recording to \($0.path)" } ?? ""))
        if duration.isInfinite {
            // Headless in real time: commands, the socket and the feed drive it.
            let loop = try KioskLoop(display: display, controller: controller, script: script, frameLimit: frames)
            configure(loop)
            defer { loop.drm?.restore() }
            if config.display == "auto" {
                // No display now (a board booted with the cable out, a driver still
                // loading): the first one that appears is taken.
                loop.hotplug = HotplugMonitor()
                loop.takeDisplay = {
                    do {
                        return try openDRMDisplay()
                    } catch {
                        printError("radar-kiosk: a display changed but none can be taken: \(error)")
                        return nil
                    }
                }
            }
            try loop.run()
            return 0
        }
        let recording = HeadlessRecording(display: display, controller: controller)
        try recording.run(script, duration: duration, frameLimit: frames)
        printError("radar-kiosk: \(recording.framesDrawn) frames drawn, \(recording.framesSkipped) refreshes with nothing to draw")
        return 0
    }

    /// Reads and checks a configuration file; a bad one is one error listing every problem.
    static func loadConfiguration(_ path: String) throws -> KioskConfiguration {
        let (config, problems) = KioskConfiguration.parse(try readTextFile(path), name: path)
        guard problems.isEmpty else {
            throw ArgumentError(problems.joined(separator: "\n") + "\n\(path): \(problems.count) problem\(problems.count == 1 ? "" : "s")")
        }
        return config
    }

    static func parseStation(_ text: String) throws -> GeoPoint {
        let parts = text.split(separator: ",").compactMap { Double($0) }
        guard parts.count == 2, abs(parts[0]) <= 90, abs(parts[1]) <= 180 else {
            throw ArgumentError("--station \(text): expected LAT,LON in decimal degrees")
        }
        return GeoPoint(latitude: parts[0], longitude: parts[1])
    }
}

extension KioskRun {
    /// The live feed from the configuration (file or sbs://host:port).
    static func makeFeed(_ config: KioskConfiguration) throws -> FeedController? {
        guard var spec = config.feed else { return nil }
        if spec == "auto" {
            // readsb's file, else dump1090-fa's; the first is watched if neither exists yet.
            spec = FeedDefaults.paths.first { access($0, F_OK) == 0 } ?? FeedDefaults.paths[0]
        }
        guard let station = config.station else {
            throw ArgumentError("a feed needs the station (--station LAT,LON or station = in the configuration)")
        }
        let source: FeedSource
        if spec.hasPrefix("sbs://") {
            let hostPort = spec.dropFirst(6).split(separator: ":")
            guard hostPort.count == 2, let port = UInt16(hostPort[1]) else {
                throw ArgumentError("--feed \(spec): expected sbs://HOST:PORT")
            }
            source = SBSFeed(host: String(hostPort[0]), port: port)
        } else if spec.hasPrefix("http://") {
            source = try HTTPFeed(url: spec)
        } else {
            source = try FileFeed(path: spec)
        }
        let controller = FeedController(source: source, selector: OverheadSelector(settings: config.selectorSettings(station: station)))
        if let routes = config.routes { controller.routes = try RouteTable.load(routes) }
        return controller
    }
}

/// Callsign → route, from a file of lines `CALLSIGN ROUTE` (`#` comments).
enum RouteTable {
    static func load(_ path: String) throws -> [String: String] {
        var table: [String: String] = [:]
        for (i, raw) in try readTextFile(path).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmed(" \t\r")
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let space = line.firstIndex(of: " ") else { throw ArgumentError("\(path):\(i + 1): expected 'CALLSIGN ROUTE'") }
            table[String(line[..<space]).uppercased()] = line[space...].trimmed(" ")
        }
        return table
    }
}

/// Where local receivers write aircraft.json (design/adsb-and-devices.md §1.1).
enum FeedDefaults {
    static let paths = ["/run/readsb/aircraft.json", "/run/dump1090-fa/aircraft.json"]
}
