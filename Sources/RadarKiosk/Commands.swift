#if canImport(Glibc)
import Glibc
#endif
import Display
import JSON
import Raster
import RasterIO
import Typography

/// The `radar-kiosk` command line: every command, its flags and its help.
public enum RadarKioskCommand {
    public static let commands: [CommandSpec] = [
        CommandSpec("run", "Run the kiosk: on a free DRM output if there is one, else on the headless display.", flags: [
            .init("--display", value: "auto|drm|headless", "where to show the kiosk (default auto)"),
            .init("--output", value: "NAME", "DRM connector name (HDMI-A-1, DSI-1, Virtual-1) or /dev/dri/by-path entry"),
            .init("--config", value: "FILE", "configuration file (default /etc/radar-kiosk/radar-kiosk.conf if it exists)"),
            .init("--size", value: "WxH", "headless size, or the DRM mode to choose (default 1920x1080 headless)"),
            .init("--refresh", value: "HZ", "headless refresh rate, or the DRM mode's (default 60)"),
            .init("--rotate", value: "0|90|180|270", "turn the picture clockwise (a panel mounted sideways or upside down)"),
            .init("--pixel-format", value: "xrgb8888|rgb565", "the DRM scanout format (default xrgb8888)"),
            .init("--autoplay", value: "FILE|demo", "play timed commands from FILE, or the built-in demo"),
            .init("--record", value: "FILE.y4m", "record every shown frame to a Y4M video"),
            .init("--frames", value: "N", "stop after N frames"),
            .init("--fonts", value: "DIR", "directory holding the B612 fonts"),
            .init("--socket", value: "PATH", "serve JSON commands on a unix socket (mode 0660)"),
            .init("--feed", value: "FILE|http://HOST/PATH|sbs://HOST:PORT", "live aircraft: aircraft.json (file or HTTP), or SBS-1 over TCP"),
            .init("--station", value: "LAT,LON", "the kiosk's position, for distances and bearings"),
            .init("--radius", value: "NM", "overhead radius in nautical miles (default 3)"),
            .init("--ceiling", value: "FT", "overhead ceiling in feet (default 10000)"),
            .init("--include-ground", "show aircraft on the ground too"),
        ]),
        CommandSpec("outputs", "List DRM cards, connectors, their status, modes and the current mode.", flags: [
            .init("--free", "print nothing; exit 0 if a connected output is free to take, 1 if not"),
        ]),
        CommandSpec("check-config", positional: "FILE", "Check a configuration file; report every problem with its line.", flags: []),
        CommandSpec("render", "Render one state, or one moment of a transition, to a PNG.", flags: [
            .init("--state", value: "FILE.json", "the state to show"),
            .init("--from", value: "FILE.json", "the state the transition starts from"),
            .init("--at", value: "SECONDS", "time since the transition started"),
            .init("--size", value: "WxH", "picture size (default 1920x1080)"),
            .init("--out", value: "FILE.png", "where to write the PNG"),
            .init("--fonts", value: "DIR", "directory holding the B612 fonts"),
        ]),
        CommandSpec("scenes", positional: "FILE.y4m", "Print the animation windows of a recording.", flags: [
            .init("--threshold", value: "SCORE", "scene-change score a frame must pass (default 0.002)"),
        ]),
        CommandSpec("contact-sheet", positional: "FILE.y4m", "Tile frames of each animation window into one PNG.", flags: [
            .init("--out", value: "FILE.png", "where to write the sheet"),
            .init("--threshold", value: "SCORE", "scene-change score (default 0.002)"),
        ]),
        CommandSpec("reference-frame", "Draw frame N of the reference scene (design/reference-scene.md) to a PNG.", flags: [
            .init("--frame", value: "N", "frame number (sweep angle 6N degrees; default 0)"),
            .init("--size", value: "WxH", "picture size (default 1920x1080)"),
            .init("--out", value: "FILE.png", "where to write the PNG"),
            .init("--fonts", value: "DIR", "directory holding the B612 fonts"),
        ]),
        CommandSpec("bench", positional: "reference|text|app|copy", "Time the renderer: median and percentiles over many frames.", flags: [
            .init("--size", value: "WxH", repeatable: true, "sizes to time (default 1920x1080 and 800x480)"),
            .init("--frames", value: "N", "timed frames (default 300)"),
            .init("--warmup", value: "N", "untimed frames first (default 30)"),
            .init("--fonts", value: "DIR", "directory holding the B612 fonts"),
        ]),
        CommandSpec("soak", "Run the headless kiosk through simulated time; check memory stays flat and frames keep their budget.", flags: [
            .init("--minutes", value: "N", "simulated minutes (default 60)"),
            .init("--size", value: "WxH", "picture size (default 800x480)"),
            .init("--refresh", value: "HZ", "simulated refresh rate (default 60)"),
            .init("--fonts", value: "DIR", "directory holding the B612 fonts"),
        ]),
        CommandSpec("audit", "Check text contrast, sizes and decorative tagging of the scene at a size.", flags: [
            .init("--size", value: "WxH", repeatable: true, "sizes to audit (default all supported layouts)"),
            .init("--fonts", value: "DIR", "directory holding the B612 fonts"),
        ]),
    ]

    public static var topLevelHelp: String {
        var lines = ["usage: radar-kiosk COMMAND [FLAGS]", "",
                     "A fullscreen radar kiosk for Linux boards: DRM/KMS display, own rasterizer, FreeType text.", "",
                     "Commands:"]
        let width = commands.map(\.name.count).max() ?? 0
        for c in commands { lines.append("  " + c.name.padding(to: width + 2) + c.summary) }
        lines.append("")
        lines.append("'radar-kiosk COMMAND --help' describes a command's flags.")
        return lines.joined(separator: "\n")
    }

    /// Runs the command line; returns the process exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        guard let name = arguments.first else {
            print(topLevelHelp)
            return 2
        }
        if name == "--help" || name == "-h" || name == "help" {
            print(topLevelHelp)
            return 0
        }
        guard let spec = commands.first(where: { $0.name == name }) else {
            printError("radar-kiosk: unknown command '\(name)'")
            printError("usage: radar-kiosk COMMAND [FLAGS]; commands: " + commands.map(\.name).joined(separator: ", "))
            return 2
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            print(spec.help)
            return 0
        }
        do {
            let args = try ParsedArguments.parse(rest, for: spec)
            return try run(spec.name, args)
        } catch let error as UsageError {
            printError(error.message)
            printError(error.usage)
            return 2
        } catch {
            printError("radar-kiosk \(name): \(error)")
            return 1
        }
    }

    static func run(_ name: String, _ args: ParsedArguments) throws -> Int32 {
        switch name {
        case "reference-frame":
            let size = try parseSize(args.value("--size") ?? "1920x1080")
            let frame = try parseInt(args.value("--frame"), flag: "--frame", default: 0, range: 0...1_000_000)
            guard let out = args.value("--out") else { throw ArgumentError("--out FILE.png is required") }
            let fonts = try FontSet(directory: args.value("--fonts"))
            let reference = try ReferenceFrame(width: size.width, height: size.height, fonts: fonts)
            reference.draw(frame: frame)
            try PNGFile.write(reference.buffer, to: out)
            print("wrote \(out) (\(size.width)x\(size.height), frame \(frame))")
            return 0
        case "bench":
            return try Benchmarks.run(args)
        case "render":
            return try renderCommand(args)
        case "outputs":
            return outputsCommand(free: args.has("--free"))
        case "audit":
            return try Audit.run(args)
        case "soak":
            return try Soak.run(args)
        case "check-config":
            guard let path = args.positional.first, args.positional.count == 1 else { throw ArgumentError("check-config needs one FILE") }
            let (_, problems) = KioskConfiguration.parse(try readTextFile(path), name: path)
            for p in problems { print(p) }
            print(problems.isEmpty ? "\(path): ok" : "\(path): \(problems.count) problem\(problems.count == 1 ? "" : "s")")
            return problems.isEmpty ? 0 : 1
        case "run":
            return try KioskRun.run(args)
        case "scenes":
            guard let path = args.positional.first, args.positional.count == 1 else { throw ArgumentError("scenes needs one FILE.y4m") }
            let threshold = try parseDouble(args.value("--threshold"), flag: "--threshold", default: 0.002, range: 0...1)
            let reader = try Y4MReader(path: path)
            let m = SceneAnalysis.measure(reader)
            let windows = SceneAnalysis.windows(m, threshold: threshold)
            print("\(path): \(m.scores.count) frames at \(reader.framesPerSecond) fps, \(windows.count) animation windows above \(threshold)")
            for (i, w) in windows.enumerated() {
                let peak = m.scores[w].max() ?? 0
                print("window \(i + 1): frames \(w.lowerBound)-\(w.upperBound) (\(SceneAnalysis.seconds(m.times[w.lowerBound]))-"
                      + "\(SceneAnalysis.seconds(m.times[w.upperBound])) s), peak score \((peak * 10000).rounded() / 10000)")
            }
            return 0
        case "contact-sheet":
            guard let path = args.positional.first, args.positional.count == 1 else { throw ArgumentError("contact-sheet needs one FILE.y4m") }
            guard let out = args.value("--out") else { throw ArgumentError("--out FILE.png is required") }
            let threshold = try parseDouble(args.value("--threshold"), flag: "--threshold", default: 0.002, range: 0...1)
            let (sheet, windows) = try SceneAnalysis.contactSheet(path: path, threshold: threshold, fonts: FontSet())
            try PNGFile.write(sheet, to: out)
            print("wrote \(out): \(min(windows.count, 10)) of \(windows.count) animation windows")
            return 0
        default:
            printError("radar-kiosk \(name): not available in this build yet")
            return 1
        }
    }
}

/// Writes one line to standard error (fd 2); C's shared `stderr` is not safe under Swift 6.
func parseDouble(_ text: String?, flag: String, default value: Double, range: ClosedRange<Double>) throws -> Double {
    guard let text else { return value }
    guard let v = Double(text), range.contains(v) else {
        throw ArgumentError("\(flag) \(text): expected a number in \(range.lowerBound)...\(range.upperBound)")
    }
    return v
}

/// `render --state FILE.json [--from FILE.json --at SECONDS] --size WxH --out FILE.png`
func renderCommand(_ args: ParsedArguments) throws -> Int32 {
    guard let statePath = args.value("--state") else { throw ArgumentError("--state FILE.json is required") }
    guard let out = args.value("--out") else { throw ArgumentError("--out FILE.png is required") }
    let size = try parseSize(args.value("--size") ?? "1920x1080")
    let at = try parseDouble(args.value("--at"), flag: "--at", default: 0, range: 0...3600)
    let target = try readState(statePath)
    let from = try args.value("--from").map(readState)
    let fonts = try FontSet(directory: args.value("--fonts"))
    let controller = KioskController(layout: KioskLayout(width: size.width, height: size.height),
                                     renderer: KioskRenderer(fonts: fonts), initial: from ?? target)
    if from != nil { controller.apply(target, at: 0) }
    _ = controller.prepareFrame(at: at)
    let buffer = PixelBuffer(width: size.width, height: size.height)
    controller.draw(into: Canvas(target: buffer))
    try PNGFile.write(buffer, to: out)
    print("wrote \(out) (\(size.width)x\(size.height), \(from == nil ? "state" : "transition at \(at) s"))")
    return 0
}

/// `outputs`: every card's connectors with status and modes; `--free` only answers
/// by exit status whether a connected output can be taken (no desktop holds it).
func outputsCommand(free: Bool) -> Int32 {
    let cards = DRMDevice.cardPaths()
    if cards.isEmpty {
        if !free { print("no DRM devices (/dev/dri has no card)") }
        return 1
    }
    var anyFree = false
    for path in cards {
        let device: DRMDevice
        do { device = try DRMDevice(path: path) } catch {
            if !free { print("\(path): \(error)") }
            continue
        }
        let master = device.becomeMaster()
        if master { device.dropMaster() }
        let connectors = device.connectors()
        if connectors.contains(where: { $0.connected && !$0.modes.isEmpty }) && master { anyFree = true }
        if free { continue }
        print("\(path)\(master ? "" : " (held by another program)")")
        for c in connectors {
            let crtc = device.currentCRTC(of: c)
            let current = crtc.flatMap { device.currentMode(ofCRTC: $0) }
            print("  \(c.name): \(c.connected ? "connected" : "disconnected")" + (current.map { ", showing \($0)" } ?? ""))
            for m in c.modes { print("    \(m)") }
        }
    }
    return free ? (anyFree ? 0 : 1) : 0
}

/// Reads a state file: one JSON object.
func readState(_ path: String) throws -> KioskState {
    let text = try readTextFile(path)
    do {
        return try KioskState(json: try JSONParser.parse(text))
    } catch let e as JSONError {
        throw ArgumentError("\(path): malformed JSON at \(e)")
    } catch {
        throw ArgumentError("\(path): \(error)")
    }
}

/// A whole (small) file as UTF-8 text; errors name the path.
func readTextFile(_ path: String, limit: Int = 16 << 20) throws -> String {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw ArgumentError("\(path): cannot open (\(String(cString: strerror(errno))))") }
    defer { close(fd) }
    var data: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 { if errno == EINTR { continue }; throw ArgumentError("\(path): read failed (\(String(cString: strerror(errno))))") }
        if n == 0 { break }
        data.append(contentsOf: chunk[0..<n])
        if data.count > limit { throw ArgumentError("\(path): larger than \(limit) bytes") }
    }
    return String(decoding: data, as: UTF8.self)
}

func printError(_ line: String) {
    let text = line + "\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
}
