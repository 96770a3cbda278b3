#if canImport(Glibc)
import Glibc
#endif
import Display
import Raster
import RasterIO

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
                let loop = try DisplayLoop(display: display, controller: controller, script: script, frameLimit: frames)
                try loop.run()
                return 0
            } catch let error as DisplayError where choice == "auto" {
                printError("radar-kiosk: no DRM display (\(error)); using the headless display")
            }
        }
        let display = try HeadlessDisplay(width: size.width, height: size.height, refreshRate: refresh, recordTo: args.value("--record"))
        let controller = KioskController(layout: KioskLayout(width: size.width, height: size.height), renderer: KioskRenderer(fonts: fonts))
        printError("radar-kiosk: showing on \(display.name)" + (display.recorder.map { ", recording to \($0.path)" } ?? ""))
        let recording = HeadlessRecording(display: display, controller: controller)
        if duration.isInfinite && frames == nil {
            throw ArgumentError("the headless display needs --autoplay FILE|demo or --frames N")
        }
        try recording.run(script, duration: duration, frameLimit: frames)
        printError("radar-kiosk: \(recording.framesDrawn) frames drawn, \(recording.framesSkipped) refreshes with nothing to draw")
        return 0
    }
}
