#if canImport(Glibc)
import Glibc
#endif
import KioskModel
import KioskRendering
import Raster
import RasterIO
import SystemIO
import Typography

/// The fixed benchmark frame of the reference scene (design/reference-scene.md):
/// the radar dial and the aircraft card, drawn from scratch every frame with no
/// caching of layers, so it times the same work as cairo, Skia and Blend2D.
public final class ReferenceFrame {
    public let width: Int
    public let height: Int
    public let buffer: PixelBuffer
    let canvas: Canvas
    let text: TextRenderer
    private var path = Path()
    private var dial = DialPainter()
    private let fonts: (label: Font, range: Font, f28: Font, f72: Font, f32: Font, f40: Font)

    /// The rows drawn, when the frame is drawn in bands (nil: all of them), less `skipped`.
    private var rows: IntRect?
    private var skipped: Range<Int> = 0..<0

    /// Draws into a buffer of its own, or into `buffer`'s band `rows` only,
    /// less the rows `skipped` (`Banded` has each band drawn by a thread of its own).
    public init(width: Int, height: Int, fonts fontSet: FontSet, text: TextRenderer? = nil, into buffer: PixelBuffer? = nil,
                rows: IntRect? = nil, skipping skipped: Range<Int> = 0..<0) throws {
        self.width = width
        self.height = height
        self.buffer = buffer ?? PixelBuffer(width: width, height: height)
        self.rows = rows
        self.skipped = skipped
        canvas = Canvas(target: self.buffer)
        self.text = text ?? TextRenderer()
        let s = Float(height) / 1080
        let face = fontSet.regular
        fonts = (try Font(face: face, size: 24 * s), try Font(face: face, size: 16 * s),
                 try Font(face: face, size: 28 * s), try Font(face: face, size: 72 * s),
                 try Font(face: face, size: 32 * s), try Font(face: face, size: 40 * s))
    }

    public func draw(frame n: Int) {
        let W = Float(width), H = Float(height)
        let s = H / 1080
        let green = Color(hex: 0x2FA37A)
        let bright = Color(hex: 0x6CFFB5)
        canvas.resetDamage()
        canvas.save()
        defer { canvas.restore() }
        if let rows { canvas.clip(to: Rect(x: Float(rows.x), y: Float(rows.y), width: Float(rows.width), height: Float(rows.height))) }
        canvas.skippedRows = skipped
        canvas.clear(Color(hex: 0x0B1016))
        dial.draw(DialPainter.Parameters(center: Point(0.30 * W, 0.50 * H), radius: 0.42 * H, scale: s,
                                         sweepBearing: Float((n * 6) % 360), sweepOpacity: 1, showsBlips: true,
                                         marker: nil, rangeLabels: ("5", "10", "15")),
                  labelFont: fonts.label, rangeFont: fonts.range, text: text, in: canvas)

        // Card.
        let card = Rect(x: 0.58 * W, y: 0.20 * H, width: 0.36 * W, height: 0.60 * H)
        path.removeAll()
        path.addRoundedRect(card, cornerRadius: 24 * s)
        canvas.fill(path, with: .solid(Color(hex: 0x121C26, alpha: 0.92)))
        canvas.stroke(path, style: StrokeStyle(width: 1 * s), with: .solid(green.withAlpha(0.5)))
        let x = card.x + 40 * s
        let white = Color(hex: 0xE8F1F2)
        text.draw("OVERFLIGHT", font: fonts.f28, at: Point(x, card.y + 60 * s), color: bright, in: canvas)
        text.draw("BAW283", font: fonts.f72, at: Point(x, card.y + 150 * s), color: white, in: canvas)
        text.draw("B789 · LHR → LAX", font: fonts.f32, at: Point(x, card.y + 200 * s), color: Color(hex: 0x9FB3BF), in: canvas)
        text.draw("ALT 36,000 ft", font: fonts.f40, at: Point(x, card.y + 280 * s), color: white, in: canvas)
        text.draw("GS 487 kt", font: fonts.f40, at: Point(x, card.y + 340 * s), color: white, in: canvas)
        text.draw("DIST 3.2 NM", font: fonts.f40, at: Point(x, card.y + 400 * s), color: white, in: canvas)
        text.draw("BRG 274°", font: fonts.f40, at: Point(x, card.y + 460 * s), color: white, in: canvas)
    }

    /// The rows the dial's disc mirrors about (its centre is half way down).
    public static func mirrorSum(height: Int) -> Int { height - 1 }

    /// The same frame drawn in `threads` bands at once, each by a reference
    /// frame of its own (its own faces and canvas) on its own thread, cut
    /// where the work is (`BandSplit`), as the kiosk draws its whole frames:
    /// `bench reference` times it against one thread.
    public final class Banded {
        public let buffer: PixelBuffer
        private var bands: [ReferenceFrame] = []
        private var crew: WorkerCrew?
        private let split: BandSplit
        private var frame = 0

        public init(width: Int, height: Int, threads: Int, fonts: FontSet) throws {
            buffer = PixelBuffer(width: width, height: height)
            split = BandSplit(count: threads, height: height)
            bands = try (0..<threads).map { i in
                try ReferenceFrame(width: width, height: height, fonts: i == 0 ? fonts : FontSet(sameFilesAs: fonts), into: buffer)
            }
            crew = try WorkerCrew(size: threads, name: "radar-reference") { [unowned self] i in
                let band = bands[i]
                (band.rows, band.skipped) = split.band(i, width: band.width, mirrorSum: ReferenceFrame.mirrorSum(height: band.height))
                split.measure(i) { band.draw(frame: frame) }
            }
        }

        public func draw(frame n: Int) {
            frame = n
            crew?.run()
            split.rebalance()
        }
    }

    /// `reference-frame --frame N --size WxH --out FILE.png`.
    public static func run(_ args: ParsedArguments) throws -> Int32 {
        let size = try args.size(default: "1920x1080")
        let frame = try args.integer("--frame", default: 0, range: 0...1_000_000)
        let out = try args.required("--out", "FILE.png")
        let reference = try ReferenceFrame(width: size.width, height: size.height, fonts: FontSet(directory: args.value("--fonts")))
        reference.draw(frame: frame)
        try PNGFile.write(reference.buffer, to: out)
        print("wrote \(out) (\(size), frame \(frame))")
        return 0
    }
}
