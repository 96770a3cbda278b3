import CPNG
import Raster
#if canImport(Glibc)
import Glibc
#endif

/// Reads and writes PNG files through libpng (the library FreeType already
/// depends on), converting to and from premultiplied BGRA pixel buffers.
public enum PNGFile {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes `buffer` as an 8-bit RGBA PNG (straight alpha), or RGB when `opaque`.
    public static func write(_ buffer: PixelBuffer, to path: String, opaque: Bool = true) throws {
        var (image, bytes, rowBytes) = prepare(buffer, opaque: opaque)
        let ok = bytes.withUnsafeBytes { raw in
            png_image_write_to_file(&image, path, 0, raw.baseAddress, png_int_32(rowBytes), nil)
        }
        if ok == 0 {
            throw Failure(description: "\(path): cannot write PNG: \(message(of: &image))")
        }
    }

    /// The PNG file's bytes for `buffer`, to write where the caller chooses.
    public static func encode(_ buffer: PixelBuffer, opaque: Bool = true) throws -> [UInt8] {
        var (image, bytes, rowBytes) = prepare(buffer, opaque: opaque)
        var size = 0
        // First the size, then the bytes.
        var ok = bytes.withUnsafeBytes { png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, png_int_32(rowBytes), nil) }
        guard ok != 0, size > 0 else { throw Failure(description: "cannot encode PNG: \(message(of: &image))") }
        var out = [UInt8](repeating: 0, count: size)
        ok = out.withUnsafeMutableBytes { memory in
            bytes.withUnsafeBytes { png_image_write_to_memory(&image, memory.baseAddress, &size, 0, $0.baseAddress, png_int_32(rowBytes), nil) }
        }
        guard ok != 0 else { throw Failure(description: "cannot encode PNG: \(message(of: &image))") }
        return Array(out.prefix(size))
    }

    /// The image header and its rows: RGB(A), straight alpha.
    private static func prepare(_ buffer: PixelBuffer, opaque: Bool) -> (png_image, [UInt8], Int) {
        var image = png_image()
        image.version = png_uint_32(radar_png_image_version)
        image.width = png_uint_32(buffer.width)
        image.height = png_uint_32(buffer.height)
        let channels = opaque ? 3 : 4
        image.format = opaque ? radar_png_format_rgb : radar_png_format_rgba
        let rowBytes = buffer.width * channels
        var bytes = [UInt8](repeating: 0, count: rowBytes * buffer.height)
        for y in 0..<buffer.height {
            let row = buffer.row(y)
            let base = y * rowBytes
            for x in 0..<buffer.width {
                let p = row[x]
                let a = opaque ? 255 : (p >> 24) & 0xFF
                var r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
                if a != 255 {
                    // Un-premultiply, rounding.
                    r = a == 0 ? 0 : min(255, (r * 255 + a / 2) / a)
                    g = a == 0 ? 0 : min(255, (g * 255 + a / 2) / a)
                    b = a == 0 ? 0 : min(255, (b * 255 + a / 2) / a)
                }
                let o = base + x * channels
                bytes[o] = UInt8(r); bytes[o + 1] = UInt8(g); bytes[o + 2] = UInt8(b)
                if !opaque { bytes[o + 3] = UInt8(a) }
            }
        }
        return (image, bytes, rowBytes)
    }

    /// Reads a PNG of any format into a new premultiplied buffer.
    public static func read(_ path: String) throws -> PixelBuffer {
        var image = png_image()
        image.version = png_uint_32(radar_png_image_version)
        guard png_image_begin_read_from_file(&image, path) != 0 else {
            throw Failure(description: "\(path): cannot read PNG: \(message(of: &image))")
        }
        image.format = radar_png_format_bgra
        let width = Int(image.width), height = Int(image.height)
        let buffer = PixelBuffer(width: width, height: height)
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        let ok = bytes.withUnsafeMutableBytes { raw in
            png_image_finish_read(&image, nil, raw.baseAddress, png_int_32(width * 4), nil)
        }
        guard ok != 0 else {
            throw Failure(description: "\(path): cannot decode PNG: \(message(of: &image))")
        }
        for y in 0..<height {
            let row = buffer.row(y)
            for x in 0..<width {
                let o = (y * width + x) * 4
                let b = UInt32(bytes[o]), g = UInt32(bytes[o + 1]), r = UInt32(bytes[o + 2]), a = UInt32(bytes[o + 3])
                let straight = (a << 24) | (r << 16) | (g << 8) | b
                row[x] = a == 255 ? straight : (PixelMath.scale(straight | 0xFF00_0000, by: a) & 0x00FF_FFFF) | (a << 24)
            }
        }
        return buffer
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}
