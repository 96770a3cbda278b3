import JSON
import KioskModel
import KioskRendering
import Raster
import RasterIO
import SystemIO

/// `render --state FILE.json [--from FILE.json --at SECONDS] --size WxH --out FILE.png`:
/// one state, or one moment of the transition from another, drawn as the
/// live kiosk draws it.
public enum Render {
    public static func run(_ args: ParsedArguments) throws -> Int32 {
        let statePath = try args.required("--state", "FILE.json")
        let out = try args.required("--out", "FILE.png")
        let size = try args.size(default: "1920x1080")
        let at = try args.number("--at", default: 0, range: 0...3600)
        let target = try readState(statePath)
        let from = try args.value("--from").map(readState)
        let fonts = try FontSet(directory: args.value("--fonts"))
        let controller = KioskController(layout: KioskLayout(width: size.width, height: size.height), initial: from ?? target)
        if from != nil { controller.apply(target, at: 0) }
        let tick = FrameTick(controller: controller, renderer: KioskRenderer(fonts: fonts), buffer: PixelBuffer(width: size.width, height: size.height))
        // Sampled at the live loop's 60 Hz up to the moment: springs are
        // integrated as the kiosk integrates them, never across one long step.
        var t = 0.0
        while t + 1.0 / 60 < at {
            _ = controller.frameNeeded(at: t)
            t += 1.0 / 60
        }
        tick.draw(at: at)
        try PNGFile.write(tick.frame, to: out)
        print("wrote \(out) (\(size.width)x\(size.height), \(from == nil ? "state" : "transition at \(at) s"))")
        return 0
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
