import Display
import KioskModel
import KioskRendering
import Raster
import RasterIO
import Typography

/// Finds the animation windows of a recording, the way the seed verified its
/// app headlessly with ffmpeg's select='gt(scene,…)'.
public enum SceneAnalysis {
    /// Per-frame measures of a recording.
    public struct Measures {
        /// ffmpeg's scene-change score (0 for the first frame).
        public var scores: [Double] = []
        /// Mean absolute luma difference from the previous frame, in 8-bit levels.
        public var mafd: [Double] = []
        /// Each frame's time: from its header when recorded, else index / fps.
        public var times: [Double] = []
    }

    /// ffmpeg's scene-change score for each frame, as vf_select's
    /// get_scene_score computes it for YUV input: on the luma plane only, the
    /// mean absolute difference from the previous frame (mafd, in levels); the
    /// score is min(mafd, |mafd − previous mafd|) / 100, clipped to 0...1 in single precision.
    public static func measure(_ reader: Y4MReader) -> Measures {
        var m = Measures()
        var previous: ArraySlice<UInt8>?
        var previousMAFD = 0.0
        let lumaCount = reader.width * reader.height
        while let frame = reader.nextFrame() {
            m.times.append(reader.lastFrameTime ?? Double(m.times.count) / reader.framesPerSecond)
            guard let prev = previous else {
                m.scores.append(0)
                m.mafd.append(0)
                previous = frame
                continue
            }
            var sad = 0
            var i = frame.startIndex, j = prev.startIndex
            let end = frame.startIndex + lumaCount
            while i < end {
                sad += abs(Int(frame[i]) - Int(prev[j]))
                i += 1; j += 1
            }
            let mafd = Double(sad) / Double(lumaCount)
            let diff = abs(mafd - previousMAFD)
            // av_clipf: ffmpeg's score passes through a Float.
            m.scores.append(Double(Float(min(max(min(mafd, diff) / 100, 0), 1))))
            m.mafd.append(mafd)
            previousMAFD = mafd
            previous = frame
        }
        return m
    }

    /// Animation windows: each starts at a frame whose scene score passes
    /// `threshold` while the picture is not at rest, and lasts until it has
    /// been at rest for `settle` seconds. At rest is still (a luma mafd under
    /// `stillChange` levels, or no frame recorded for a while: the recorder
    /// skips frames when nothing changes) or in steady motion, the sweep: a
    /// mafd of at least `steadyFloor` whose mean over the last `block` frames
    /// is within `steadyTolerance` of the mean over the block before. The
    /// sweep's own frame-to-frame wobble scores higher than a number rolling at
    /// 60 Hz, so the score alone cannot tell them apart. Windows less than
    /// `gap` seconds apart merge.
    public static func windows(_ m: Measures, threshold: Double, settle: Double = 0.15, gap: Double = 0.4) -> [ClosedRange<Int>] {
        let n = m.scores.count
        // Where each frame's run of recorded frames began (a pause in recording ends a run).
        var runStart = [Int](repeating: 0, count: n)
        for j in 1..<max(n, 1) { runStart[j] = m.times[j] - m.times[j - 1] >= settle ? j : runStart[j - 1] }
        func mean(_ range: Range<Int>) -> Double {
            var sum = 0.0
            for k in range { sum += m.mafd[k] }
            return sum / Double(range.count)
        }
        func steadyMotion(_ j: Int) -> Bool {
            let first = max(runStart[j], 1)
            let (recent, earlier): (Range<Int>, Range<Int>)
            if j - first + 1 >= 2 * block {
                recent = (j - block + 1)..<(j + 1); earlier = (j - 2 * block + 1)..<(j - block + 1)
            } else if j + 2 * block <= n && runStart[j + 2 * block - 1] == runStart[j] {
                // Too early in the run to look back: look ahead.
                recent = j..<(j + block); earlier = (j + block)..<(j + 2 * block)
            } else {
                return false
            }
            let a = mean(recent), b = mean(earlier)
            return a >= steadyFloor && abs(a - b) <= steadyTolerance * a
        }
        func atRest(_ j: Int) -> Bool { m.mafd[j] <= stillChange || steadyMotion(j) }
        var result: [ClosedRange<Int>] = []
        var i = 1
        while i < n {
            guard m.scores[i] > threshold, !atRest(i) else { i += 1; continue }
            var j = i + 1
            var restingSince: Int?
            while j < n {
                if let since = restingSince, m.times[j] - m.times[since] >= settle { break }
                if m.times[j] - m.times[j - 1] >= settle { restingSince = j; break }
                if atRest(j) { restingSince = restingSince ?? j } else { restingSince = nil }
                j += 1
            }
            let window = i...max(i, (restingSince ?? n) - 1)
            if let last = result.last, m.times[window.lowerBound] - m.times[last.upperBound] <= gap {
                result[result.count - 1] = last.lowerBound...window.upperBound
            } else {
                result.append(window)
            }
            i = j + 1
        }
        return result
    }

    /// A luma mafd under this many levels is a still picture.
    static let stillChange = 0.02
    /// The smallest mafd (levels) that counts as steady motion: the calm
    /// sweep's (a turn in 6 s at 60 %) is about 0.11 at 60 Hz and 0.2 at 30 Hz
    /// (the old one's, a turn in 4 s at full strength, 0.27 and 0.5). A rolling
    /// number's is under 0.16 but never steady from one block to the next.
    static let steadyFloor = 0.06
    static let steadyTolerance = 0.06
    static let block = 6
    /// The score a frame must pass to start a window: low enough for a number
    /// rolling at 60 Hz; what is not animation is told apart by `atRest`.
    public static let defaultThreshold = 0.0002

    /// Tiles evenly spaced frames of each window into one labelled image.
    public static func contactSheet(path: String, threshold: Double, fonts: FontSet, perWindow: Int = 6,
                                    thumbnailWidth: Int = 320, maximumWindows: Int = 10) throws -> (PixelBuffer, [ClosedRange<Int>]) {
        let measures = measure(try Y4MReader(path: path))
        let found = windows(measures, threshold: threshold)
        let shown = Array(found.prefix(maximumWindows))
        let reader = try Y4MReader(path: path)
        let thumbHeight = max(1, reader.height * thumbnailWidth / reader.width)
        let labelHeight = 34, captionHeight = 26, pad = 12
        let rowHeight = labelHeight + thumbHeight + captionHeight
        let sheetWidth = pad + perWindow * (thumbnailWidth + pad)
        let sheetHeight = pad + max(shown.count, 1) * (rowHeight + pad)
        let sheet = PixelBuffer(width: sheetWidth, height: sheetHeight)
        let canvas = Canvas(target: sheet)
        canvas.clear(Color(hex: 0x05080B))
        let text = TextRenderer()
        let labelFont = Font(face: fonts.regular, approximateSize: 18)
        let captionFont = Font(face: fonts.mono, approximateSize: 15)
        // Which frames to keep: evenly spaced through each window, first and last included.
        var wanted: [Int: (row: Int, column: Int)] = [:]
        for (row, w) in shown.enumerated() {
            let count = min(perWindow, w.count)
            for c in 0..<count {
                let f = count == 1 ? w.lowerBound : w.lowerBound + (w.count - 1) * c / (count - 1)
                wanted[f] = (row, c)
            }
            let y = pad + row * (rowHeight + pad)
            let t0 = measures.times[w.lowerBound], t1 = measures.times[w.upperBound]
            text.draw("window \(row + 1): frames \(w.lowerBound)–\(w.upperBound), \(seconds(t0))–\(seconds(t1)) s",
                      font: labelFont, at: Point(Float(pad), Float(y + 24)), color: Color(hex: 0x8FD9B6), in: canvas)
        }
        if shown.isEmpty {
            text.draw("no animation windows above \(threshold)", font: labelFont, at: Point(Float(pad), 30),
                      color: Color(hex: 0x8FD9B6), in: canvas)
        }
        var index = 0
        while let frame = reader.nextFrame() {
            defer { index += 1 }
            guard let place = wanted[index] else { continue }
            let image = reader.pixels(of: frame)
            let x = pad + place.column * (thumbnailWidth + pad)
            let y = pad + place.row * (rowHeight + pad) + labelHeight
            // Through the canvas, which then knows these pixels are no longer its clear colour.
            downscale(image, into: canvas.target, x: x, y: y, width: thumbnailWidth, height: thumbHeight)
            text.draw("#\(index)  \(seconds(measures.times[index])) s", font: captionFont,
                      at: Point(Float(x), Float(y + thumbHeight + 19)), color: Color(hex: 0x9FB3BF), in: canvas)
        }
        return (sheet, found)
    }

    /// `x` with six decimals, as ffmpeg prints scene scores.
    static func sixDecimals(_ x: Double) -> String {
        let millionths = Int((x * 1_000_000).rounded())
        let fraction = String(millionths % 1_000_000)
        return "\(millionths / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    static func seconds(_ t: Double) -> String {
        let hundredths = Int((t * 100).rounded())
        let frac = hundredths % 100
        return "\(hundredths / 100).\(frac < 10 ? "0" : "")\(frac)"
    }

    /// Box-filtered downscale of `image` into a rectangle of `target`.
    static func downscale(_ image: PixelBuffer, into target: PixelBuffer, x: Int, y: Int, width: Int, height: Int) {
        for ty in 0..<height {
            let sy0 = ty * image.height / height, sy1 = max(sy0 + 1, (ty + 1) * image.height / height)
            let out = target.row(y + ty)
            for tx in 0..<width {
                let sx0 = tx * image.width / width, sx1 = max(sx0 + 1, (tx + 1) * image.width / width)
                var r = 0, g = 0, b = 0, n = 0
                for sy in sy0..<sy1 {
                    let row = image.row(sy)
                    for sx in sx0..<sx1 {
                        let p = row[sx]
                        r += Int((p >> 16) & 0xFF); g += Int((p >> 8) & 0xFF); b += Int(p & 0xFF); n += 1
                    }
                }
                out[x + tx] = 0xFF00_0000 | UInt32(r / n) << 16 | UInt32(g / n) << 8 | UInt32(b / n)
            }
        }
    }

    /// `scenes FILE.y4m [--threshold SCORE] [--scores]`: the animation windows of a recording.
    public static func scenesCommand(_ args: ParsedArguments) throws -> Int32 {
        let path = try args.onlyPositional("scenes", "FILE.y4m")
        let threshold = try args.number("--threshold", default: defaultThreshold, range: 0...1)
        let reader = try Y4MReader(path: path)
        let m = measure(reader)
        let found = windows(m, threshold: threshold)
        if args.has("--scores") {
            for (i, score) in m.scores.enumerated() { print("frame \(i) score \(sixDecimals(score))") }
        }
        print("\(path): \(m.scores.count) frames at \(reader.framesPerSecond) fps, \(found.count) animation windows above \(threshold)")
        for (i, w) in found.enumerated() {
            let peak = m.scores[w].max() ?? 0
            print("window \(i + 1): frames \(w.lowerBound)-\(w.upperBound) (\(seconds(m.times[w.lowerBound]))-"
                  + "\(seconds(m.times[w.upperBound])) s), peak score \((peak * 10000).rounded() / 10000)")
        }
        return 0
    }

    /// `contact-sheet FILE.y4m --out FILE.png [--threshold SCORE] [--fonts DIR]`.
    public static func contactSheetCommand(_ args: ParsedArguments) throws -> Int32 {
        let path = try args.onlyPositional("contact-sheet", "FILE.y4m")
        let out = try args.required("--out", "FILE.png")
        let threshold = try args.number("--threshold", default: defaultThreshold, range: 0...1)
        let (sheet, found) = try contactSheet(path: path, threshold: threshold, fonts: FontSet(directory: args.value("--fonts")))
        try PNGFile.write(sheet, to: out)
        print("wrote \(out): \(min(found.count, 10)) of \(found.count) animation windows")
        return 0
    }
}
