import XCTest
import Display
import Raster

final class ScanoutCopierTests: XCTestCase {
    /// A frame whose every pixel is different, so any misplaced pixel shows.
    func numberedFrame(width: Int, height: Int) -> PixelBuffer {
        let frame = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { frame[x, y] = 0xFF00_0000 | UInt32(y * 1000 + x) }
        }
        return frame
    }

    /// Where the centre of frame pixel (x, y) lands when the picture is turned
    /// clockwise by `degrees` about its centre (y down), worked out with
    /// trigonometry rather than the copier's index arithmetic.
    func turned(_ x: Int, _ y: Int, degrees: Int, width: Int, height: Int) -> (Int, Int) {
        let angle = Double(degrees) * .pi / 180
        let dx = Double(x) + 0.5 - Double(width) / 2, dy = Double(y) + 0.5 - Double(height) / 2
        let rx = dx * cos(angle) - dy * sin(angle), ry = dx * sin(angle) + dy * cos(angle)
        let quarter = degrees % 180 != 0
        let (bw, bh) = quarter ? (height, width) : (width, height)
        return (Int((rx + Double(bw) / 2 - 0.5).rounded()), Int((ry + Double(bh) / 2 - 0.5).rounded()))
    }

    /// A buffer with rows longer than the picture, as real panels have.
    struct Scanout {
        let memory: UnsafeMutableRawPointer
        let pitch: Int
        let width: Int, height: Int
        init(width: Int, height: Int, bytesPerPixel: Int, fill: UInt8 = 0xAB) {
            self.width = width
            self.height = height
            pitch = (width * bytesPerPixel + 63) & ~63 + 64
            memory = .allocate(byteCount: pitch * height, alignment: 64)
            memory.initializeMemory(as: UInt8.self, repeating: fill, count: pitch * height)
        }
        func pixel32(_ x: Int, _ y: Int) -> UInt32 { memory.load(fromByteOffset: y * pitch + x * 4, as: UInt32.self) }
        func pixel16(_ x: Int, _ y: Int) -> UInt16 { memory.load(fromByteOffset: y * pitch + x * 2, as: UInt16.self) }
        func free() { memory.deallocate() }
    }

    /// `frame` copied whole into a new buffer for `rotation` and `format` (free it after).
    func copiedWhole(_ frame: PixelBuffer, _ rotation: DisplayRotation, _ format: ScanoutPixelFormat) -> (ScanoutCopier, Scanout) {
        let copier = ScanoutCopier(rotation: rotation, format: format, frameWidth: frame.width, frameHeight: frame.height)
        let buffer = Scanout(width: copier.bufferWidth, height: copier.bufferHeight, bytesPerPixel: format.bytesPerPixel)
        copier.copy(frame.bounds, of: frame, to: buffer.memory, pitch: buffer.pitch)
        return (copier, buffer)
    }

    func testEveryTurnPutsEveryPixelWhereTheTurnedPictureHasIt() {
        let (w, h) = (7, 5)
        let frame = numberedFrame(width: w, height: h)
        for rotation in DisplayRotation.allCases {
            let (copier, buffer) = copiedWhole(frame, rotation, .xrgb8888)
            defer { buffer.free() }
            XCTAssertEqual(copier.bufferWidth * copier.bufferHeight, w * h)
            for y in 0..<h {
                for x in 0..<w {
                    let (bx, by) = turned(x, y, degrees: rotation.degrees, width: w, height: h)
                    XCTAssertEqual(buffer.pixel32(bx, by), frame[x, y], "\(rotation): frame (\(x), \(y)) should be at (\(bx), \(by))")
                }
            }
            // Nothing is written past the picture into the row padding.
            XCTAssertEqual(buffer.memory.load(fromByteOffset: buffer.pitch - 4, as: UInt32.self), 0xABAB_ABAB)
        }
    }

    func testAPartialCopyWritesExactlyTheTurnedRectangle() {
        let (w, h) = (9, 6)
        let frame = numberedFrame(width: w, height: h)
        let damage = IntRect(x: 2, y: 1, width: 4, height: 3)
        for rotation in DisplayRotation.allCases {
            let copier = ScanoutCopier(rotation: rotation, format: .xrgb8888, frameWidth: w, frameHeight: h)
            let buffer = Scanout(width: copier.bufferWidth, height: copier.bufferHeight, bytesPerPixel: 4)
            defer { buffer.free() }
            copier.copy(damage, of: frame, to: buffer.memory, pitch: buffer.pitch)
            var expected = Set<Int>()
            for y in damage.y..<damage.maxY {
                for x in damage.x..<damage.maxX {
                    let (bx, by) = turned(x, y, degrees: rotation.degrees, width: w, height: h)
                    expected.insert(by * 100 + bx)
                    XCTAssertEqual(buffer.pixel32(bx, by), frame[x, y], "\(rotation) (\(x), \(y))")
                }
            }
            let rect = copier.bufferRect(for: damage)
            for by in 0..<copier.bufferHeight {
                for bx in 0..<copier.bufferWidth {
                    let inside = bx >= rect.x && bx < rect.maxX && by >= rect.y && by < rect.maxY
                    XCTAssertEqual(inside, expected.contains(by * 100 + bx), "\(rotation): bufferRect disagrees at (\(bx), \(by))")
                    if !inside { XCTAssertEqual(buffer.pixel32(bx, by), 0xABAB_ABAB, "\(rotation): (\(bx), \(by)) written outside the damage") }
                }
            }
        }
    }

    func testRGB565KeepsTheEndsExactAndDithersToTheRightMean() {
        let frame = PixelBuffer(width: 256, height: 8)
        for x in 0..<256 {
            let v = UInt32(x)
            for y in 0..<4 { frame[x, y] = 0xFF00_0000 | v << 16 | v << 8 | v }
            frame[x, 4] = 0xFFFF_0000
            frame[x, 5] = 0xFF00_FF00
            frame[x, 6] = 0xFF00_00FF
            frame[x, 7] = 0xFF00_0000
        }
        let copier = ScanoutCopier(rotation: .upright, format: .rgb565, frameWidth: 256, frameHeight: 8)
        let buffer = Scanout(width: 256, height: 8, bytesPerPixel: 2)
        defer { buffer.free() }
        copier.copy(frame.bounds, of: frame, to: buffer.memory, pitch: buffer.pitch)
        for x in 0..<256 {
            XCTAssertEqual(buffer.pixel16(x, 4), 0xF800, "pure red at \(x)")
            XCTAssertEqual(buffer.pixel16(x, 5), 0x07E0, "pure green at \(x)")
            XCTAssertEqual(buffer.pixel16(x, 6), 0x001F, "pure blue at \(x)")
            XCTAssertEqual(buffer.pixel16(x, 7), 0x0000, "black at \(x)")
        }
        XCTAssertEqual(buffer.pixel16(255, 0), 0xFFFF, "white")
        // Each grey value spans 4 columns × 4 rows of the pattern only together
        // with its neighbours, so average the 4x4 block of one value instead:
        // copy a flat frame per value.
        let flat = PixelBuffer(width: 4, height: 4)
        let small = ScanoutCopier(rotation: .upright, format: .rgb565, frameWidth: 4, frameHeight: 4)
        let block = Scanout(width: 4, height: 4, bytesPerPixel: 2)
        defer { block.free() }
        var worst = (0.0, 0.0)
        var levelsSeen = Set<UInt16>()
        for v in UInt32(0)...255 {
            flat.fill(0xFF00_0000 | v << 16 | v << 8 | v)
            small.copy(flat.bounds, of: flat, to: block.memory, pitch: block.pitch)
            var red = 0.0, green = 0.0
            for y in 0..<4 {
                for x in 0..<4 {
                    let p = block.pixel16(x, y)
                    levelsSeen.insert(p >> 11)
                    red += Double(p >> 11) * 255 / 31
                    green += Double((p >> 5) & 63) * 255 / 63
                }
            }
            worst.0 = max(worst.0, abs(red / 16 - Double(v)))
            worst.1 = max(worst.1, abs(green / 16 - Double(v)))
        }
        XCTAssertLessThan(worst.0, 0.3, "5-bit channels average to the 8-bit value")
        XCTAssertLessThan(worst.1, 0.15, "6-bit channels average to the 8-bit value")
        XCTAssertEqual(levelsSeen.count, 32, "every 5-bit level is used")
        // Dithered, not truncated: a grey between two levels mixes both.
        flat.fill(0xFF80_8080)
        small.copy(flat.bounds, of: flat, to: block.memory, pitch: block.pitch)
        let reds = Set((0..<16).map { block.pixel16($0 % 4, $0 / 4) >> 11 })
        XCTAssertEqual(reds, [15, 16])
    }

    func testRGB565TurnsLikeXRGB() {
        let (w, h) = (6, 4)
        let frame = numberedFrame(width: w, height: h)
        for y in 0..<h { for x in 0..<w { frame[x, y] = 0xFF00_0000 | UInt32(x * 40) << 16 | UInt32(y * 80) } }
        for rotation in DisplayRotation.allCases {
            let (_, buffer) = copiedWhole(frame, rotation, .rgb565)
            defer { buffer.free() }
            for y in 0..<h {
                for x in 0..<w {
                    let (bx, by) = turned(x, y, degrees: rotation.degrees, width: w, height: h)
                    let p = buffer.pixel16(bx, by)
                    XCTAssertEqual(Double(p >> 11) * 255 / 31, Double(x * 40), accuracy: 255 / 31, "\(rotation) red at (\(x), \(y))")
                    XCTAssertEqual(Double(p & 31) * 255 / 31, Double(y * 80), accuracy: 255 / 31, "\(rotation) blue at (\(x), \(y))")
                }
            }
        }
    }
}
