import Testing
import Raster
@testable import Display
#if canImport(Glibc)
import Glibc
#endif

/// Recordings are YUV 4:2:0 in BT.601 limited range, as ffmpeg reads them.
@Suite struct Y4MTests {
    @Test func pureColoursBecomeTheirBT601LimitedRangeValues() throws {
        let path = "/tmp/rk-y4m-\(getpid()).y4m"
        defer { unlink(path) }
        let writer = try Y4MWriter(path: path, width: 4, height: 2, framesPerSecond: 30)
        let frame = PixelBuffer(width: 4, height: 2)
        // Left half red, right half blue; each 2x2 block one colour, so chroma is exact.
        for y in 0..<2 { for x in 0..<4 { frame[x, y] = x < 2 ? 0xFFFF_0000 : 0xFF00_00FF } }
        try writer.append(frame, time: 0.5)
        let reader = try Y4MReader(path: path)
        let planes = try #require(reader.nextFrame()).map { Int($0) }
        #expect(reader.lastFrameTime == 0.5 && !reader.chroma444)
        #expect(planes.count == 4 * 2 + 2 * 2 * 1)
        let y = Array(planes[0..<8]), cb = Array(planes[8..<10]), cr = Array(planes[10..<12])
        // Red: Y 81, Cb 90, Cr 240. Blue: Y 41, Cb 240, Cr 110.
        #expect(y.prefix(2).allSatisfy { abs($0 - 81) <= 1 } && y[2...3].allSatisfy { abs($0 - 41) <= 1 }, "\(y)")
        #expect(abs(cb[0] - 90) <= 1 && abs(cr[0] - 240) <= 1, "red \(cb[0]) \(cr[0])")
        #expect(abs(cb[1] - 240) <= 1 && abs(cr[1] - 110) <= 1, "blue \(cb[1]) \(cr[1])")
    }

    /// A 2x2 block of four different colours: its chroma is that of their
    /// average (rounded), so each pixel counts once and only once.
    @Test func chromaIsTheBlocksAverageColour() throws {
        let path = "/tmp/rk-y4m-mix-\(getpid()).y4m"
        defer { unlink(path) }
        let writer = try Y4MWriter(path: path, width: 2, height: 2, framesPerSecond: 30)
        let frame = PixelBuffer(width: 2, height: 2)
        let colours: [UInt32] = [0xFFFF_0000, 0xFF00_FF00, 0xFF00_00FF, 0xFFFF_FFFF]
        frame[0, 0] = colours[0]; frame[1, 0] = colours[1]; frame[0, 1] = colours[2]; frame[1, 1] = colours[3]
        try writer.append(frame)
        let planes = try #require(try Y4MReader(path: path).nextFrame()).map { Int($0) }
        // The average: R (255+0+0+255)/4 = 127.5 → 128, G 128, B 128 (rounded half up).
        let r = 128, g = 128, b = 128
        #expect(planes[4] == ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128, "Cb \(planes[4])")
        #expect(planes[5] == ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128, "Cr \(planes[5])")
        // Luma per pixel: white is 235, black would be 16.
        #expect(planes[3] == 235)
        // An uneven block, so that a pixel counted twice or left out shows.
        frame[0, 0] = 0xFF40_0000; frame[1, 0] = 0xFF00_0000; frame[0, 1] = 0xFF00_0000; frame[1, 1] = 0xFF00_0000
        try writer.append(frame)
        let reader = try Y4MReader(path: path)
        _ = reader.nextFrame()
        let second = try #require(reader.nextFrame()).map { Int($0) }
        let rr = (0x40 + 2) >> 2   // 16.5 → 16
        #expect(second[5] == ((112 * rr + 128) >> 8) + 128 && second[4] == ((-38 * rr + 128) >> 8) + 128, "\(second[4]) \(second[5])")
    }
}
