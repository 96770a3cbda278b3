#if canImport(Glibc)
import Glibc
#endif
import Display
import KioskApp
import KioskModel
import KioskTools
import StandingData
import SystemIO

/// The `radar-kiosk` command line: every command, its flags and its help.
enum RadarKioskCommand {
    // Flags several commands share, said once.
    static let fonts = CommandSpec.Flag("--fonts", value: "DIR", "directory holding the B612 fonts")
    static let pictureSize = CommandSpec.Flag("--size", value: "WxH", "picture size (default 1920x1080)")
    static let pngOut = CommandSpec.Flag("--out", value: "FILE.png", "where to write the PNG")

    static let commands: [CommandSpec] = [
        CommandSpec("run", "Run the kiosk: on a free DRM output if there is one, else on the headless display.", flags: KioskRun.flags),
        CommandSpec("outputs", "List DRM cards, connectors, their status, modes and the current mode.", flags: [
            .init("--free", "print nothing; exit 0 if a connected output is free to take, 1 if not"),
        ]),
        CommandSpec("check-config", positional: "FILE", "Check a configuration file; report every problem with its line.", flags: []),
        CommandSpec("log", "Print a day's overflights from the overflight log, and counts.", flags: [
            .init("--file", value: "FILE", "the log (default: the service's, /var/lib/radar-kiosk/overflights.jsonl)"),
            .init("--day", value: "YYYY-MM-DD", "the day (default today, local time)"),
        ]),
        CommandSpec("import-standing-data", positional: "DIR",
                    "Build the routes, airlines and aircraft types file from a checkout of Virtual Radar Server's standing data.", flags: [
            .init("--out", value: "FILE", "where to write it (default Data/standing-data.rksd)"),
        ]),
        CommandSpec("render", "Render one state, or one moment of a transition, to a PNG.", flags: [
            .init("--state", value: "FILE.json", "the state to show"),
            .init("--feed", value: "FILE.json", "or: what the kiosk shows for this aircraft.json snapshot (needs --station)"),
            .init("--station", value: "LAT,LON", "with --feed: the kiosk's position"),
            .init("--radius", value: "NM", "with --feed: the overhead radius (default 3)"),
            .init("--facing", value: "DEGREES|POINT", "the dial's top is this way (station.facing_deg)"),
            .init("--elevation", value: "FEET", "the station's height above sea level (station.elevation_ft)"),
            .init("--from", value: "FILE.json", "the state the transition starts from"),
            .init("--at", value: "SECONDS", "time since the transition started"),
            .init("--overflight-log", value: "FILE", "standby's corner as it reads 12 minutes after this log's last overflight"),
            .init("--brightness", value: "PERCENT", "drawn as night dims a panel without a backlight (1-100)"),
            .init("--panel-mm", value: "WxH", "the panel's visible size in mm (panel_mm): the card's type sized for --viewing-distance"),
            .init("--viewing-distance", value: "M", "with --panel-mm: how far away it is read (viewing_distance_m, default 2.5)"),
            pictureSize, pngOut,
            fonts,
        ]),
        CommandSpec("scenes", positional: "FILE.y4m", "Print the animation windows of a recording.", flags: [
            .init("--threshold", value: "SCORE", "scene-change score a frame must pass (default 0.0002)"),
            .init("--scores", "also print every frame's score, as ffmpeg's select filter computes it"),
        ]),
        CommandSpec("contact-sheet", positional: "FILE.y4m", "Tile frames of each animation window into one PNG.", flags: [
            .init("--out", value: "FILE.png", "where to write the sheet"),
            fonts,
            .init("--threshold", value: "SCORE", "scene-change score (default 0.0002)"),
        ]),
        CommandSpec("reference-frame", "Draw frame N of the reference scene (design/reference-scene.md) to a PNG.", flags: [
            .init("--frame", value: "N", "frame number (sweep angle 6N degrees; default 0)"),
            pictureSize, pngOut,
            fonts,
        ]),
        CommandSpec("bench", positional: "reference|text|app|copy", "Time the renderer: median and percentiles over many frames.", flags: [
            .init("--size", value: "WxH", repeatable: true, "sizes to time (default 1920x1080 and 800x480)"),
            .init("--frames", value: "N", "timed frames (default 300)"),
            .init("--warmup", value: "N", "untimed frames first (default 30)"),
            .init("--threads", value: "N", "threads drawing whole frames, each a band; timed against one in the same run (default: the processors the process may use, 2 to 4)"),
            .init("--band", value: "K/N", "reference only: draw band K (0 to N-1) of N bands alone, on one thread, as one of N threads would (for counting a band's instructions)"),
            fonts,
        ]),
        CommandSpec("soak", "Run the headless kiosk through simulated time; check memory stays flat and frames keep their budget.", flags: [
            .init("--minutes", value: "N", "simulated minutes (default 60)"),
            .init("--size", value: "WxH", "picture size (default 800x480)"),
            .init("--refresh", value: "HZ", "simulated refresh rate (default 60)"),
            fonts,
        ]),
        CommandSpec("audit", "Check text contrast, sizes and decorative tagging of the scene at a size.", flags: [
            .init("--size", value: "WxH", repeatable: true, "sizes to audit (default all supported layouts)"),
            .init("--panel-mm", value: "WxH", "with one --size: the panel's size in mm; the callsign and altitude must read at --viewing-distance"),
            .init("--viewing-distance", value: "M", "with --panel-mm: how far away it is read (default 2.5)"),
            fonts,
        ]),
    ]

    static var topLevelHelp: String {
        var lines = ["usage: radar-kiosk COMMAND [FLAGS]", "",
                     "A fullscreen radar kiosk for Linux boards: DRM/KMS display, own rasterizer, FreeType text.", "",
                     "Commands:"]
        let width = commands.map(\.name.count).max() ?? 0
        for c in commands { lines.append("  " + c.name.padding(to: width + 2) + c.summary) }
        lines.append("")
        lines.append("'radar-kiosk COMMAND --help' describes a command's flags; 'radar-kiosk --version' names the release.")
        return lines.joined(separator: "\n")
    }

    /// Runs the command line; returns the process exit status.
    static func main(_ arguments: [String]) -> Int32 {
        guard let name = arguments.first else {
            print(topLevelHelp)
            return 2
        }
        if name == "--help" || name == "-h" || name == "help" {
            print(topLevelHelp)
            return 0
        }
        if name == "--version" {
            print("radar-kiosk \(RadarKioskVersion.string)")
            return 0
        }
        guard let spec = commands.first(where: { $0.name == name }) else {
            Log.line("radar-kiosk: unknown command '\(name)'")
            Log.line("usage: radar-kiosk COMMAND [FLAGS]; commands: " + commands.map(\.name).joined(separator: ", "))
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
            Log.line(error.message)
            Log.line(error.usage)
            return stopped(name, because: [error.message])
        } catch let error as DisplayError where error.kind == .badConfiguration {
            // Restarting cannot help: the configuration must change (the unit does not restart on 2).
            let line = "radar-kiosk \(name): \(error)"
            Log.line(line)
            return stopped(name, because: [line])
        } catch let error as ArgumentError {
            // A configuration or argument mistake (every problem of a file, one line each): 2, not restarted.
            let lines = "\(error)".split(separator: "\n").map { "radar-kiosk \(name): \($0)" }
            for line in lines { Log.line(line) }
            return stopped(name, because: lines)
        } catch {
            // Our own multi-line errors (every problem of a configuration file) stay one line each.
            for line in "\(error)".split(separator: "\n") { Log.line("radar-kiosk \(name): \(line)") }
            return 1
        }
    }

    /// Exit status 2, a configuration the kiosk cannot run with. A `run`
    /// stopping so also says why on its console, the screen's only words
    /// once the unit has given up (it does not restart on 2).
    private static func stopped(_ name: String, because lines: [String]) -> Int32 {
        if name == "run" {
            let next = getenv("INVOCATION_ID") != nil ? "change it, then: sudo systemctl restart radar-kiosk" : "change it and start the kiosk again"
            ConsoleNotice.show(lines + ["", "RadarKiosk has stopped: its configuration cannot work; " + next])
        }
        return 2
    }

    static func run(_ name: String, _ args: ParsedArguments) throws -> Int32 {
        switch name {
        case "run": return try KioskRun.run(args)
        case "outputs": return outputsCommand(free: args.has("--free"))
        case "check-config":
            let path = try args.onlyPositional("check-config", "FILE")
            let (_, problems) = KioskConfiguration.parse(try FileContents.text(path, limit: KioskConfiguration.maximumFileSize), name: path)
            for p in problems { print(p) }
            print(problems.isEmpty ? "\(path): ok" : "\(path): \(problems.count) problem\(problems.count == 1 ? "" : "s")")
            return problems.isEmpty ? 0 : 1
        case "log": return try OverflightReport.run(args)
        case "import-standing-data":
            let directory = try args.onlyPositional("import-standing-data", "DIR")
            let out = args.value("--out") ?? "Data/" + StandingData.fileName
            let s = try StandingDataImport.run(from: directory, to: out)
            print("wrote \(out): \(s.routes) routes (\(s.skippedRoutes) skipped: an airport without a position), \(s.airports) airports, "
                  + "\(s.airlines) airlines, \(s.types) aircraft types, \(s.aircraft) aircraft, \(s.addressBlocks) address blocks; \(s.bytes) bytes")
            return 0
        case "render": return try Render.run(args)
        case "reference-frame": return try ReferenceFrame.run(args)
        case "bench": return try Benchmarks.run(args)
        case "audit": return try Audit.run(args)
        case "soak": return try Soak.run(args)
        case "scenes": return try SceneAnalysis.scenesCommand(args)
        case "contact-sheet": return try SceneAnalysis.contactSheetCommand(args)
        default:
            Log.line("radar-kiosk \(name): not available in this build yet")
            return 1
        }
    }
}
