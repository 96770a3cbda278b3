import Testing
import Raster
import RasterIO
@testable import KioskModel
@testable import KioskRendering
@testable import KioskTools
import AllocationCounting

/// The reference frame must land as close to cairo's rendering as independent
/// renderers land to each other (Fixtures/reference-frames/README.md).
@Suite struct ReferenceFrameTests {
    static let fixtures = String(#filePath.dropLast("ReferenceFrameTests.swift".count)) + "Fixtures/reference-frames/"

    @Test(arguments: [(1920, 1080, 5), (1920, 1080, 37), (800, 480, 5), (800, 480, 37)])
    func matchesCairo(width: Int, height: Int, frame: Int) throws {
        let fonts = try FontSet()
        let reference = try ReferenceFrame(width: width, height: height, fonts: fonts)
        reference.draw(frame: frame)
        let cairo = try PNGFile.read(Self.fixtures + "cairo-\(width)x\(height)-f\(frame).png")
        let cx = 0.30 * Double(width), cy = 0.50 * Double(height), r = 0.42 * Double(height) + 2
        let dial = FrameDifference(reference.buffer, cairo) { x, y in
            let dx = Double(x) - cx, dy = Double(y) - cy
            return dx * dx + dy * dy <= r * r
        }
        let whole = FrameDifference(reference.buffer, cairo)
        #expect(dial.mean <= 0.5, "dial: \(dial)")
        #expect(dial.shareOver8 <= 0.005, "dial: \(dial)")
        #expect(whole.mean <= 1.5, "whole frame: \(whole)")
        // Each line of the card on its own: its ink (light above the band's
        // background) within a fifth of cairo's, so a line drawn wrong or not at
        // all shows, where a whole-frame mean would dilute it.
        let s = Double(height) / 1080
        let cardX = Int(0.58 * Double(width)), cardY = 0.20 * Double(height), cardWidth = Int(0.36 * Double(width))
        func ink(_ buffer: PixelBuffer, rows: Range<Int>) -> Double {
            var levels: [Int] = []
            for y in rows { for x in cardX..<(cardX + cardWidth) { let p = buffer[x, y]; levels.append(Int((p >> 16) & 0xFF) + Int((p >> 8) & 0xFF) + Int(p & 0xFF)) } }
            let background = levels.sorted()[levels.count / 2]
            return Double(levels.reduce(0) { $0 + max(0, $1 - background) })
        }
        for (line, baseline, size) in [("OVERFLIGHT", 60.0, 28.0), ("BAW283", 150, 72), ("B789 · LHR → LAX", 200, 32), ("ALT", 280, 40),
                                       ("GS", 340, 40), ("DIST", 400, 40), ("BRG", 460, 40)] {
            let rows = Int(cardY + (baseline - size) * s)..<Int(cardY + (baseline + 0.25 * size) * s)
            let ours = ink(reference.buffer, rows: rows), theirs = ink(cairo, rows: rows)
            #expect(theirs > 0 && ours / theirs > 0.8 && ours / theirs < 1.25, "\(line): ink \(ours) against cairo's \(theirs)")
        }
    }

    @Test(.enabled(if: AllocationCounting.works, Comment(rawValue: AllocationCounting.why)))
    func steadyFramesAllocateNothing() throws {
        let reference = try ReferenceFrame(width: 800, height: 480, fonts: FontSet())
        for n in 0..<5 { reference.draw(frame: n) }
        let before = radar_thread_allocation_count()
        for n in 5..<25 { reference.draw(frame: n) }
        #expect(radar_thread_allocation_count() - before == 0)
    }

    /// Drawn in bands by three threads (as `bench reference --threads 3`
    /// times it), the reference frame is the one a thread draws alone.
    @Test(arguments: [(1920, 1080), (800, 480)])
    func inBandsItIsTheSameFrame(width: Int, height: Int) throws {
        let fonts = try FontSet()
        let whole = try ReferenceFrame(width: width, height: height, fonts: fonts)
        let banded = try ReferenceFrame.Banded(width: width, height: height, threads: 3, fonts: fonts)
        for n in [0, 7, 33] {
            whole.draw(frame: n)
            banded.draw(frame: n)
            let rows = (0..<height).filter { y in (0..<width).contains { whole.buffer[$0, y] != banded.buffer[$0, y] } }
            #expect(rows.isEmpty, "frame \(n): \(rows.count) rows differ, from \(rows.first ?? -1)")
        }
    }
}
