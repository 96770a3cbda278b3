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
}
