#if canImport(Glibc)
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
        let choice = args.value("--display") ?? "auto"
        guard ["auto", "drm", "headless"].contains(choice) else {
            throw ArgumentError("--display \(choice): expected auto, drm or headless")
        }
        let size = try parseSize(args.value("--size") ?? "1920x1080")
        let refresh = try parseDouble(args.value("--refresh"), flag: "--refresh", default: 60, range: 1...240)
        let frames = try args.value("--frames").map { try parseInt($0, flag: "--frames", default: 0, range: 1...100_000_000) }
        let fonts = try FontSet(directory: args.value("--fonts"))
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
        let feed = try makeFeed(args)
        let socket = try args.value("--socket").map { try CommandSocket(path: $0) }
        if choice == "drm" || choice == "auto" {
            do {
                let size = args.value("--size").map { _ in size }
                let display = try DRMDisplay(outputName: args.value("--output"), size: size,
                                             refresh: args.value("--refresh").map { _ in refresh })
                defer { display.restore() }
                let controller = KioskController(layout: KioskLayout(width: display.width, height: display.height),
                                                 renderer: KioskRenderer(fonts: fonts))
                printError("radar-kiosk: showing on \(display.name)")
                // On a real display the kiosk keeps going after its script.
                let loop = try KioskLoop(display: display, controller: controller, script: script, frameLimit: frames)
                loop.stdinCommands = isatty(0) == 0
                loop.socket = socket
                loop.feed = feed
                try loop.run()
                return 0
            } catch let error as DisplayError where choice == "auto" {
                printError("radar-kiosk: no DRM display (\(error)); using the headless display")
            }
        }
        if duration.isInfinite {
            // Headless in real time: commands, the socket and the feed drive it.
            let display = try HeadlessDisplay(width: size.width, height: size.height, refreshRate: refresh, recordTo: args.value("--record"))
            let controller = KioskController(layout: KioskLayout(width: size.width, height: size.height), renderer: KioskRenderer(fonts: fonts))
            printError("radar-kiosk: showing on \(display.name)" + (display.recorder.map { ", recording to \($0.path)" } ?? ""))
            let loop = try KioskLoop(display: display, controller: controller, script: script, frameLimit: frames)
            loop.stdinCommands = isatty(0) == 0
            loop.socket = socket
            loop.feed = feed
            try loop.run()
            return 0
        }
        let display = try HeadlessDisplay(width: size.width, height: size.height, refreshRate: refresh, recordTo: args.value("--record"))
        let controller = KioskController(layout: KioskLayout(width: size.width, height: size.height), renderer: KioskRenderer(fonts: fonts))
        printError("radar-kiosk: showing on \(display.name)" + (display.recorder.map { ", recording to \($0.path)" } ?? ""))
        let recording = HeadlessRecording(display: display, controller: controller)
        try recording.run(script, duration: duration, frameLimit: frames)
        printError("radar-kiosk: \(recording.framesDrawn) frames drawn, \(recording.framesSkipped) refreshes with nothing to draw")
        return 0
    }
}

extension KioskRun {
    /// `--feed PATH | sbs://HOST:PORT` with `--station LAT,LON` and the overhead settings.
    static func makeFeed(_ args: ParsedArguments) throws -> FeedController? {
        guard let spec = args.value("--feed") else { return nil }
        guard let stationText = args.value("--station") else {
            throw ArgumentError("--feed needs --station LAT,LON (the kiosk's position; receiver.json's may be rounded)")
        }
        let parts = stationText.split(separator: ",").compactMap { Double($0) }
        guard parts.count == 2, abs(parts[0]) <= 90, abs(parts[1]) <= 180 else {
            throw ArgumentError("--station \(stationText): expected LAT,LON in decimal degrees")
        }
        var settings = OverheadSelector.Settings(station: GeoPoint(latitude: parts[0], longitude: parts[1]))
        settings.radiusNM = try parseDouble(args.value("--radius"), flag: "--radius", default: 3, range: 0.1...100)
        settings.exitRadiusNM = settings.radiusNM + 0.5
        settings.ceilingFeet = try parseInt(args.value("--ceiling"), flag: "--ceiling", default: 10_000, range: 0...60_000)
        settings.includeGround = args.has("--include-ground")
        let source: FeedSource
        if spec.hasPrefix("sbs://") {
            let hostPort = spec.dropFirst(6).split(separator: ":")
            guard hostPort.count == 2, let port = UInt16(hostPort[1]) else {
                throw ArgumentError("--feed \(spec): expected sbs://HOST:PORT")
            }
            source = SBSFeed(host: String(hostPort[0]), port: port)
        } else {
            source = try FileFeed(path: spec)
        }
        return FeedController(source: source, selector: OverheadSelector(settings: settings))
    }
}
