import Testing
import Raster
@testable import RasterIO
#if canImport(Glibc)
import Glibc
#endif

/// PNG files in and out: premultiplied pixels written straight, read back the
/// same; other formats read; bad files named.
@Suite struct PNGFileTests {
    let path = "/tmp/rk-png-\(getpid())-\(UInt16.random(in: 0...9999)).png"

    @Test func aPictureReadsBackAsItWasWrittenAndTranslucencyUnpremultiplies() throws {
        defer { unlink(path) }
        let picture = PixelBuffer(width: 3, height: 2)
        picture[0, 0] = 0xFFFF_0000; picture[1, 0] = 0xFF00_FF00; picture[2, 0] = 0xFF00_00FF
        picture[0, 1] = 0x8040_2000   // half-covered (premultiplied): straight it is (128, 64, 0) at alpha 128
        picture[1, 1] = 0x0000_0000; picture[2, 1] = 0xFF12_3456
        try PNGFile.write(picture, to: path, opaque: false)
        let back = try PNGFile.read(path)
        #expect(back.width == 3 && back.height == 2)
        for y in 0..<2 { for x in 0..<3 {
            let a = picture[x, y], b = back[x, y]
            // Premultiply after un-premultiply loses at most a level per channel.
            for shift in [24, 16, 8, 0] as [UInt32] { #expect(abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF)) <= 1, "(\(x),\(y))") }
        } }
        let encoded = try PNGFile.encode(picture)
        #expect(encoded.starts(with: [0x89, 0x50, 0x4E, 0x47]) && encoded.count > 40)
    }

    @Test func aGreyPNGIsRead() throws {
        defer { unlink(path) }
        let grey: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x03,
                             0x00, 0x00, 0x00, 0x02, 0x08, 0x00, 0x00, 0x00, 0x00, 0xB8, 0x1F, 0x39, 0xC6, 0x00, 0x00, 0x00, 0x0E, 0x49, 0x44, 0x41,
                             0x54, 0x78, 0x9C, 0x63, 0x60, 0x68, 0xF8, 0xCF, 0x00, 0xC4, 0x00, 0x0A, 0x02, 0x02, 0xFF, 0x62, 0x3D, 0x29, 0x7E, 0x00,
                             0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = grey.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let image = try PNGFile.read(path)
        #expect(image.width == 3 && image.height == 2)
        #expect(image[0, 0] == 0xFF00_0000 && image[2, 1] == 0xFFFF_FFFF && (image[1, 0] >> 16) & 0xFF == 128)
    }

    @Test func badFilesAreNamed() throws {
        let missing = #expect(throws: (any Error).self) { try PNGFile.read("/nonexistent/x.png") }
        #expect("\(missing.map { "\($0)" } ?? "")".contains("/nonexistent/x.png"))
        defer { unlink(path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = "not a png".withCString { write(fd, $0, 9) }
        close(fd)
        #expect(throws: (any Error).self) { try PNGFile.read(path) }
        #expect(throws: (any Error).self) { try PNGFile.write(PixelBuffer(width: 2, height: 2), to: "/nonexistent/dir/x.png") }
    }
}
