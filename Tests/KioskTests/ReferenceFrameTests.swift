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
    }

    @Test(.enabled(if: AllocationCounting.works, Comment(rawValue: AllocationCounting.why)))
    func steadyFramesAllocateNothing() throws {
        let reference = try ReferenceFrame(width: 800, height: 480, fonts: FontSet())
        for n in 0..<5 { reference.draw(frame: n) }
        let before = radar_thread_allocation_count()
        for n in 5..<25 { reference.draw(frame: n) }
        #expect(radar_thread_allocation_count() - before == 0)
    }
}
