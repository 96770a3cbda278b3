import Testing
import Foundation
import Display
import Raster
@testable import KioskRendering
@testable import KioskTools

/// The contact sheet: which frames it shows for each animation window.
@Suite struct ContactSheetTests {
    /// A recording whose frames are flat grey: still, then speeding up over
    /// frames 10...21, still, then slowing down over frames 50...59, still; each
    /// frame in a window has its own level, so a thumbnail says which frame it is.
    static func level(_ frame: Int) -> Int {
        if frame < 10 { return 20 }
        if frame <= 21 { return 20 + (frame - 9) * (frame - 9) }
        if frame < 50 { return 164 }
        if frame <= 59 { return 164 - (frame - 49) * (frame - 48) }
        return 54
    }

    @Test func eachWindowShowsSixEvenlySpacedFramesFirstAndLastIncluded() throws {
        let path = NSTemporaryDirectory() + "rk-sheet-\(getpid()).y4m"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let width = 160, height = 96
        let writer = try Y4MWriter(path: path, width: width, height: height, framesPerSecond: 30)
        let frame = PixelBuffer(width: width, height: height)
        for k in 0..<80 {
            let g = UInt32(Self.level(k))
            frame.fill(0xFF00_0000 | g << 16 | g << 8 | g)
            try writer.append(frame)
        }
        let (sheet, found) = try SceneAnalysis.contactSheet(path: path, threshold: 0.002, fonts: FontSet())
        #expect(found.count == 2, "windows: \(found.map { "\($0)" })")
        guard found.count == 2 else { return }
        // The thumbnails, row by row: the grey at each one's centre is its frame.
        let pad = 12, thumbWidth = 320, thumbHeight = height * thumbWidth / width
        let rowHeight = 34 + thumbHeight + 26
        for (row, window) in found.enumerated() {
            var greys: [Int] = []
            for column in 0..<6 {
                let x = pad + column * (thumbWidth + pad) + thumbWidth / 2
                let y = pad + row * (rowHeight + pad) + 34 + thumbHeight / 2
                greys.append(Int(sheet[x, y] & 0xFF))
            }
            // First and last frame of the window and four evenly spaced between.
            let frames = (0..<6).map { window.lowerBound + (window.count - 1) * $0 / 5 }
            let close = zip(greys, frames).allSatisfy { abs($0 - Self.level($1)) <= 3 }
            #expect(close, "window \(window): thumbnails are grey \(greys), frames \(frames) are \(frames.map(Self.level))")
        }
    }
}
