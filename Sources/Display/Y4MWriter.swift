#if canImport(Glibc)
import Glibc
#endif
import Raster
import SystemIO

/// Writes frames as a YUV4MPEG2 video (4:2:0, BT.601 limited range), which
/// ffmpeg and most players read directly.
public final class Y4MWriter {
    public let path: String
    public let width: Int
    public let height: Int
    private let file: FileDescriptor
    private var planes: [UInt8]
    public private(set) var framesWritten = 0

    public init(path: String, width: Int, height: Int, framesPerSecond: Int) throws {
        guard width % 2 == 0 && height % 2 == 0 else {
            throw DisplayError("\(path): Y4M 4:2:0 needs an even size, not \(width)x\(height)")
        }
        self.path = path
        self.width = width
        self.height = height
        do { file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644) } catch let e as SystemError {
            throw DisplayError("\(path): cannot create (\(e.reason))")
        }
        planes = [UInt8](repeating: 0, count: width * height * 3 / 2)
        let header = "YUV4MPEG2 W\(width) H\(height) F\(framesPerSecond):1 Ip A1:1 C420jpeg\n"
        try writeAll(Array(header.utf8))
    }

    private func writeAll(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in try writeAll(raw) }
    }

    private func writeAll(_ raw: UnsafeRawBufferPointer) throws {
        do { try file.writeAll(raw) } catch let e as SystemError { throw DisplayError("\(path): write failed (\(e.reason))") }
    }

    /// Appends one frame (the buffer's size must match the video's). `time`, when
    /// given, goes into the frame header as `Xt=SECONDS` (an application field
    /// players ignore), since frames with nothing new are not recorded.
    public func append(_ buffer: PixelBuffer, time: Double? = nil) throws {
        precondition(buffer.width == width && buffer.height == height)
        let w = width, h = height
        planes.withUnsafeMutableBufferPointer { out in
            let yPlane = out.baseAddress!, uPlane = yPlane + w * h, vPlane = uPlane + (w / 2) * (h / 2)
            for y in 0..<h {
                let row = buffer.row(y)
                for x in 0..<w {
                    let p = row[x]
                    let r = Int32((p >> 16) & 0xFF), g = Int32((p >> 8) & 0xFF), b = Int32(p & 0xFF)
                    yPlane[y * w + x] = UInt8(truncatingIfNeeded: ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16)
                }
            }
            for y in 0..<(h / 2) {
                let r0 = buffer.row(2 * y), r1 = buffer.row(2 * y + 1)
                for x in 0..<(w / 2) {
                    // The four pixels summed by halves of the word: no array per pixel.
                    let a = r0[2 * x], c = r0[2 * x + 1], d = r1[2 * x], e = r1[2 * x + 1]
                    let rb = (a & 0xFF00FF) + (c & 0xFF00FF) + (d & 0xFF00FF) + (e & 0xFF00FF)
                    let gg = ((a >> 8) & 0xFF) + ((c >> 8) & 0xFF) + ((d >> 8) & 0xFF) + ((e >> 8) & 0xFF)
                    let r = (Int32(rb >> 16) + 2) >> 2, g = (Int32(gg) + 2) >> 2, b = (Int32(rb & 0x3FF) + 2) >> 2
                    uPlane[y * (w / 2) + x] = UInt8(truncatingIfNeeded: ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128)
                    vPlane[y * (w / 2) + x] = UInt8(truncatingIfNeeded: ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128)
                }
            }
        }
        try writeAll(Array((time.map { "FRAME Xt=\(($0 * 10000).rounded() / 10000)\n" } ?? "FRAME\n").utf8))
        try planes.withUnsafeBytes { try writeAll($0) }
        framesWritten += 1
    }
}

/// Reads a YUV4MPEG2 file (4:2:0 8-bit, or 4:4:4), frame by frame.
public final class Y4MReader {
    public let width: Int
    public let height: Int
    public let framesPerSecond: Double
    public let chroma444: Bool
    private let bytes: [UInt8]
    private var offset: Int

    public init(path: String) throws {
        let data: [UInt8]
        do { data = try FileContents.bytes(path, limit: 1 << 34) } catch { throw DisplayError("\(error)") }
        bytes = data
        guard let newline = data.firstIndex(of: 0x0A), data.starts(with: Array("YUV4MPEG2 ".utf8)) else {
            throw DisplayError("\(path): not a YUV4MPEG2 file")
        }
        let header = String(decoding: data[0..<newline], as: UTF8.self).split(separator: " ")
        var w = 0, h = 0, fps = 30.0, c444 = false
        for field in header.dropFirst() {
            let value = field.dropFirst()
            switch field.first {
            case "W": w = Int(value) ?? 0
            case "H": h = Int(value) ?? 0
            case "F":
                let parts = value.split(separator: ":").compactMap { Double($0) }
                if parts.count == 2, parts[1] > 0 { fps = parts[0] / parts[1] }
            case "C": c444 = value.hasPrefix("444")
                if !(value.hasPrefix("420") || value.hasPrefix("444")) { throw DisplayError("\(path): unsupported chroma \(value)") }
            default: break
            }
        }
        guard w > 0, h > 0 else { throw DisplayError("\(path): header lacks a size") }
        width = w; height = h; framesPerSecond = fps; chroma444 = c444
        offset = newline + 1
    }

    private var frameBytes: Int { chroma444 ? width * height * 3 : width * height + 2 * ((width + 1) / 2) * ((height + 1) / 2) }

    /// The time in the last frame header read (`Xt=`), if the writer put one there.
    public private(set) var lastFrameTime: Double?

    /// The next frame's planes (Y, then U and V), or nil at the end.
    public func nextFrame() -> ArraySlice<UInt8>? {
        guard offset < bytes.count, let newline = bytes[offset...].firstIndex(of: 0x0A) else { return nil }
        let header = String(decoding: bytes[offset..<newline], as: UTF8.self)
        lastFrameTime = header.split(separator: " ").first { $0.hasPrefix("Xt=") }.flatMap { Double($0.dropFirst(3)) }
        let start = newline + 1
        guard start + frameBytes <= bytes.count else { return nil }
        offset = start + frameBytes
        return bytes[start..<(start + frameBytes)]
    }

    /// Converts a frame's planes to an opaque RGB pixel buffer.
    public func pixels(of frame: ArraySlice<UInt8>) -> PixelBuffer {
        let buffer = PixelBuffer(width: width, height: height)
        let base = frame.startIndex
        let cw = chroma444 ? width : (width + 1) / 2
        let ch = chroma444 ? height : (height + 1) / 2
        for y in 0..<height {
            let row = buffer.row(y)
            for x in 0..<width {
                let cx = chroma444 ? x : x / 2, cy = chroma444 ? y : y / 2
                let Y = Int32(frame[base + y * width + x]) - 16
                let U = Int32(frame[base + width * height + cy * cw + cx]) - 128
                let V = Int32(frame[base + width * height + cw * ch + cy * cw + cx]) - 128
                func clamp(_ v: Int32) -> UInt32 { UInt32(min(max((v + 128) >> 8, 0), 255)) }
                let r = clamp(298 * Y + 409 * V), g = clamp(298 * Y - 100 * U - 208 * V), b = clamp(298 * Y + 516 * U)
                row[x] = 0xFF00_0000 | (r << 16) | (g << 8) | b
            }
        }
        return buffer
    }
}
