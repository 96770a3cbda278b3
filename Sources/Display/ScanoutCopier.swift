import Raster

/// Copies the changed part of the cached frame into a scanout buffer, turned
/// and converted on the way. It writes the buffer strictly in its own row order
/// (dumb buffers are write-combined: sequential stores are fast, reads are not
/// done at all) and reads the cached frame in whatever order the turn needs.
///
/// RGB565 is dithered with a 4x4 ordered pattern fixed to the panel's pixels,
/// so the dial's gradients do not band and a still picture does not shimmer.
public struct ScanoutCopier: Sendable {
    public let rotation: DisplayRotation
    public let format: ScanoutPixelFormat
    /// The cached frame's size.
    public let frameWidth: Int
    public let frameHeight: Int

    public init(rotation: DisplayRotation, format: ScanoutPixelFormat, frameWidth: Int, frameHeight: Int) {
        self.rotation = rotation
        self.format = format
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
    }

    /// The scanout buffer's size: the panel's mode.
    public var bufferWidth: Int { rotation.swapsAxes ? frameHeight : frameWidth }
    public var bufferHeight: Int { rotation.swapsAxes ? frameWidth : frameHeight }

    /// The rectangle of the buffer that `rect` of the frame lands in.
    public func bufferRect(for rect: IntRect) -> IntRect {
        let w = frameWidth, h = frameHeight
        switch rotation {
        case .upright: return rect
        case .halfTurn: return IntRect(x: w - rect.maxX, y: h - rect.maxY, width: rect.width, height: rect.height)
        // Frame (x, y) lands at buffer (h - 1 - y, x).
        case .quarterTurn: return IntRect(x: h - rect.maxY, y: rect.x, width: rect.height, height: rect.width)
        // Frame (x, y) lands at buffer (y, w - 1 - x).
        case .threeQuarterTurn: return IntRect(x: rect.y, y: w - rect.maxX, width: rect.height, height: rect.width)
        }
    }

    /// Copies `rect` of `frame` (whole pixels; clipped to the frame) into the
    /// buffer at `memory`, whose rows are `pitch` bytes apart.
    public func copy(_ rect: IntRect, of frame: PixelBuffer, to memory: UnsafeMutableRawPointer, pitch: Int) {
        precondition(frame.width == frameWidth && frame.height == frameHeight, "frame is \(frame.width)x\(frame.height), not \(frameWidth)x\(frameHeight)")
        let r = rect.intersection(frame.bounds)
        if r.isEmpty { return }
        let b = bufferRect(for: r)
        guard rotation.swapsAxes else {
            for y in b.y..<b.maxY { copyRun(y: y, x: b.x, count: b.width, of: frame, to: memory, pitch: pitch) }
            return
        }
        // A buffer row is a frame column: walked row by row, every pixel read
        // would touch another cache line and page. In tiles of 16 rows × 64
        // pixels the frame's lines are fetched once per tile and reused from L1,
        // while each run written is still 256 bytes of sequential stores.
        for band in stride(from: b.y, to: b.maxY, by: 16) {
            for x in stride(from: b.x, to: b.maxX, by: 64) {
                let count = min(64, b.maxX - x)
                for y in band..<min(band + 16, b.maxY) { copyRun(y: y, x: x, count: count, of: frame, to: memory, pitch: pitch) }
            }
        }
    }

    /// Buffer pixels (x..<x + count, y) from the frame pixels shown there.
    @inline(__always)
    private func copyRun(y: Int, x: Int, count: Int, of frame: PixelBuffer, to memory: UnsafeMutableRawPointer, pitch: Int) {
        let rowPixels = frame.rowPixels
        // The frame pixel shown at buffer (x, y), and the step to the one at (x + 1, y).
        let sourceX: Int, sourceY: Int, step: Int
        switch rotation {
        case .upright: (sourceX, sourceY, step) = (x, y, 1)
        case .halfTurn: (sourceX, sourceY, step) = (frameWidth - 1 - x, frameHeight - 1 - y, -1)
        case .quarterTurn: (sourceX, sourceY, step) = (y, frameHeight - 1 - x, -rowPixels)
        case .threeQuarterTurn: (sourceX, sourceY, step) = (frameWidth - 1 - y, x, rowPixels)
        }
        let source = UnsafePointer(frame.pixels + sourceY * rowPixels + sourceX)
        let row = memory + y * pitch
        switch format {
        case .xrgb8888:
            let target = row.assumingMemoryBound(to: UInt32.self) + x
            if step == 1 {
                target.update(from: source, count: count)
            } else {
                for i in 0..<count { target[i] = source[i &* step] }
            }
        case .rgb565:
            Self.convertRun(source, step: step, to: row.assumingMemoryBound(to: UInt16.self) + x, count: count, x: x, y: y)
        }
    }

    /// The 4x4 Bayer pattern as thresholds (m + 1/2) / 16 of one output level,
    /// in units of 1 / (255 × 32): level = (v × levels × 32 + threshold) / 8160.
    @usableFromInline
    static let bayer: SIMD16<UInt32> = (SIMD16(0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5) &* 2 &+ 1) &* 255

    /// RGB565 of eight pixels with their thresholds: v × (levels − 1) / 255
    /// plus a threshold below one level, so over the pattern the mean lands
    /// within a quarter of an 8-bit step of v, and 0 and 255 map to the ends.
    @inline(__always)
    static func rgb565(_ p: SIMD8<UInt32>, thresholds t: SIMD8<UInt32>) -> SIMD8<UInt16> {
        let r = level(((p &>> 16) & 0xFF) &* (31 * 32) &+ t)
        let g = level(((p &>> 8) & 0xFF) &* (63 * 32) &+ t)
        let b = level((p & 0xFF) &* (31 * 32) &+ t)
        return SIMD8<UInt16>(truncatingIfNeeded: r &<< 11 | g &<< 5 | b)
    }

    /// n / 8160 = ((n >> 5) × 16449) >> 22, exact for every n reached here (< 2^19).
    @inline(__always)
    static func level(_ n: SIMD8<UInt32>) -> SIMD8<UInt32> { ((n &>> 5) &* 16449) &>> 22 }

    /// One run of RGB565 from frame pixels `step` apart, dithered by the buffer
    /// position (`x`, `y`) of its first pixel.
    @inline(__always)
    static func convertRun(_ source: UnsafePointer<UInt32>, step: Int, to target: UnsafeMutablePointer<UInt16>, count: Int, x: Int, y: Int) {
        let rowBase = (y & 3) * 4
        // The pattern repeats every 4 pixels, so 8 lanes starting at x share one vector.
        var thresholds = SIMD8<UInt32>()
        for lane in 0..<8 { thresholds[lane] = bayer[rowBase + ((x + lane) & 3)] }
        var i = 0
        while i + 8 <= count {
            let p: SIMD8<UInt32>
            if step == 1 {
                p = UnsafeRawPointer(source + i).loadUnaligned(as: SIMD8<UInt32>.self)
            } else {
                let s = source + i * step
                p = SIMD8(s[0], s[step], s[2 * step], s[3 * step], s[4 * step], s[5 * step], s[6 * step], s[7 * step])
            }
            UnsafeMutableRawPointer(target + i).storeBytes(of: rgb565(p, thresholds: thresholds), as: SIMD8<UInt16>.self)
            i += 8
        }
        while i < count {
            var p = SIMD8<UInt32>(repeating: 0)
            p[0] = source[i * step]
            var t = SIMD8<UInt32>(repeating: 0)
            t[0] = bayer[rowBase + ((x + i) & 3)]
            target[i] = rgb565(p, thresholds: t)[0]
            i += 1
        }
    }
}
