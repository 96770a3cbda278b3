import Feed
import JSON
import KioskModel
import KioskRendering
import Raster
import RasterIO
import StandingData
import SystemIO

/// `render --state FILE.json [--from FILE.json --at SECONDS] --size WxH --out FILE.png`:
/// one state, or one moment of the transition from another, drawn as the
/// live kiosk draws it; or, with `--feed FILE.json --station LAT,LON`, the
/// card the kiosk shows for a receiver's snapshot, with the traffic on the
/// dial (drawn a second after the snapshot came, unless `--at` says when);
/// `--facing` turns the dial as `station.facing_deg` does; `--overflight-log`
/// puts standby's corner as it reads 12 minutes after the log's last overflight;
/// `--brightness PERCENT` draws it as night dims a panel without a backlight.
public enum Render {
    /// How a screen of `size` is seen, from `--panel-mm WxH` (as the mode stands, as `panel_mm`) and
    /// `--viewing-distance M`; nil without a panel size.
    static func viewing(_ size: PixelSize, _ args: ParsedArguments) throws -> ViewingGeometry? {
        guard let text = args.value("--panel-mm") else { return nil }
        let panel: PanelSize
        do { panel = try ConfigurationKey.panelSize(text, "--panel-mm").standing(width: size.width, height: size.height) } catch {
            throw ArgumentError("\(error)")
        }
        let distance = try args.number("--viewing-distance", default: ViewingGeometry.defaultDistanceMetres, range: ViewingGeometry.plausibleDistance)
        guard let viewing = ViewingGeometry(distanceMetres: distance, widthMM: panel.width, heightMM: panel.height,
                                            width: size.width, height: size.height) else {
            throw ArgumentError("--panel-mm \(text): not a panel of \(size.width)x\(size.height) pixels (a pixel 0.04 to 2.5 mm, square)")
        }
        return viewing
    }

    public static func run(_ args: ParsedArguments) throws -> Int32 {
        let out = try args.required("--out", "FILE.png")
        let size = try args.size(default: "1920x1080")
        let feed = try args.value("--feed").map { try feedState($0, args) }
        let at = try args.number("--at", default: feed == nil ? 0 : 1, range: 0...3600)
        let target = try feed?.state ?? readState(try args.required("--state", "FILE.json"))
        let from = try args.value("--from").map(readState)
        let fonts = try FontSet(directory: args.value("--fonts"))
        let renderer = KioskRenderer(fonts: fonts)
        let controller = KioskController(layout: KioskLayout(width: size.width, height: size.height, viewing: try viewing(size, args)), initial: from ?? target, measure: renderer)
        let view = try stationView(args)
        controller.setStationView(facing: view.facing, elevationFeet: view.stationElevationFeet, at: 0)
        if let log = args.value("--overflight-log") { controller.setStandbyInfo(try standbyInfo(log: log), at: 0) }
        if from != nil { controller.apply(target, at: 0) }
        if let feed {
            controller.feed = feed.interpreter
            _ = controller.handle(.feed([.snapshot(feed.snapshot)]), at: 0)
        }
        let tick = FrameTick(controller: controller, renderer: renderer, buffer: PixelBuffer(width: size.width, height: size.height))
        // As night dims a panel without a backlight.
        let brightness = try args.number("--brightness", default: 100, range: 1...100) / 100
        renderer.screenBrightness = brightness
        if brightness < 1 { tick.dimming = LinearDimming(brightness: brightness) }
        // Sampled at the live loop's 60 Hz up to the moment: springs are
        // integrated as the kiosk integrates them, never across one long step.
        var t = 0.0
        while t + 1.0 / 60 < at {
            _ = controller.frameNeeded(at: t)
            t += 1.0 / 60
        }
        tick.draw(at: at)
        try PNGFile.write(tick.frame, to: out)
        let shown = args.value("--feed") == nil ? "" : target.aircraft.map { a in
            ": " + [a.callsign, a.route, a.airline, a.model ?? a.type].compactMap { $0 }.joined(separator: " · ")
        } ?? ": nothing overhead"
        print("wrote \(out) (\(size.width)x\(size.height), \(from == nil ? "state" : "transition at \(at) s")\(shown))")
        return 0
    }

    /// Standby's corner for the overflight log at `path`, 12 minutes after its last overflight ended (local time).
    static func standbyInfo(log path: String) throws -> StandbyInfo {
        // A day after every line: read back to the first line, which gives the last overflight.
        guard let last = OverflightDay(log: path, today: "9999-12-31").last else { throw ArgumentError("\(path): no overflight in the log") }
        let now = last.end + 12 * 60
        let local = WallClock.local(now)
        return StandbyInfo(.clockAndToday, hour: local.hour, minute: local.minute, today: OverflightDay(log: path, today: WallClock.day(now)),
                           now: now, units: DisplayUnits())
    }

    /// `--facing DEGREES|POINT` and `--elevation FEET`, read as the
    /// configuration's station.facing_deg and station.elevation_ft are.
    static func stationView(_ args: ParsedArguments) throws -> KioskConfiguration {
        let text = (args.value("--facing").map { "station.facing_deg = \($0)\n" } ?? "")
            + (args.value("--elevation").map { "station.elevation_ft = \($0)\n" } ?? "")
        let (config, problems) = KioskConfiguration.parse(text, name: "render")
        guard problems.isEmpty else { throw ArgumentError(problems.joined(separator: "; ")) }
        return config
    }

    /// What the kiosk shows for one aircraft.json snapshot at a station: the
    /// overhead choice and its card, with the shipped standing data.
    static func feedState(_ path: String, _ args: ParsedArguments) throws
        -> (state: KioskState, interpreter: FeedInterpreter, snapshot: AircraftSnapshot) {
        let station = try args.required("--station", "LAT,LON")
        let text = "station = \(station)\n" + (args.value("--radius").map { "overhead.radius_nm = \($0)\n" } ?? "")
        let (config, problems) = KioskConfiguration.parse(text, name: "render")
        guard problems.isEmpty, let position = config.station else { throw ArgumentError(problems.joined(separator: "; ")) }
        let snapshot: AircraftSnapshot
        do { snapshot = try AircraftJSON.parse(try FileContents.bytes(path)) } catch { throw ArgumentError("\(path): \(error)") }
        let interpreter = FeedInterpreter(sourceName: path, selector: OverheadSelector(settings: config.selectorSettings(station: position)))
        interpreter.identity.standingData = try? StandingData.locate()
        interpreter.alerts = config.alerts
        let state = interpreter.state(after: [.snapshot(snapshot)], now: 0, log: { Log.line($0) }) ?? .standby
        return (state, interpreter, snapshot)
    }

    /// Reads a state file: one JSON object.
    public static func readState(_ path: String) throws -> KioskState {
        let text = try FileContents.text(path)
        do {
            return try KioskState(json: try JSONParser.parse(text))
        } catch let e as JSONError {
            throw ArgumentError("\(path): malformed JSON at \(e)")
        } catch {
            throw ArgumentError("\(path): \(error)")
        }
    }
}
