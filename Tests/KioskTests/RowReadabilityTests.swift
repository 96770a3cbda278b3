import Testing
import AnimationCore
import Raster
import Typography
@testable import KioskModel
@testable import KioskRendering

/// With altitude, distance and bearing all changing in one update, every
/// frame's rows stay readable: each row's ink stays inside its own line box,
/// and the boxes do not overlap, the row saying where to look included.
@Suite struct RowReadabilityTests {
    @Test(arguments: ["800x480", "480x800"])
    func rollingRowsStayInTheirLineBoxes(size: String) throws {
        let pixels = try parseSize(size)
        let renderer = KioskRenderer(fonts: try FontSet())
        let layout = KioskLayout(width: pixels.width, height: pixels.height)
        let before = Aircraft(callsign: "BAW283", altitudeFeet: 36_000, groundSpeedKnots: 487, distanceNM: 3.2, bearingDegrees: 274)
        var after = before
        after.altitudeFeet = 35_500; after.groundSpeedKnots = 512; after.distanceNM = 2.7; after.bearingDegrees = 281
        let controller = KioskController(layout: layout, initial: KioskState(mode: .overflight, aircraft: before), measure: renderer)
        _ = controller.frameNeeded(at: 0)
        controller.apply(KioskState(mode: .overflight, aircraft: after), at: 1)
        let buffer = PixelBuffer(width: pixels.width, height: pixels.height)
        var rolling = 0
        for frame in stride(from: 0, to: 54, by: 2) {
            let t = 1 + Double(frame) / 60
            _ = controller.frameNeeded(at: t)
            let rows = controller.renderList.filter { $0.id.path.hasSuffix("/value") && $0.opacity > 0.01 }
            // The four numbers and, under them, where to look.
            #expect(rows.count == 5)
            var boxes: [ClosedRange<Int>] = []
            for row in rows {
                if row.contentTransition != nil { rolling += 1 }
                let font = Font(face: renderer.textStyle(.rowValue).face, approximateSize: Float(row.frame.height))
                let baseline = Float(row.frame.maxY)
                let box = Int((baseline - font.ascent).rounded(.down))...Int((baseline + font.descent).rounded(.up))
                boxes.append(box)
                renderer.draw([row], sweepBearing: 0, minimumTextSize: Float(layout.minimumTextSize), into: Canvas(target: buffer))
                let background = KioskRenderer.background.premultipliedPixel
                var top = Int.max, bottom = Int.min
                for y in 0..<buffer.height {
                    for x in 0..<buffer.width where buffer[x, y] != background { top = min(top, y); bottom = max(bottom, y); break }
                }
                #expect(top >= box.lowerBound && bottom <= box.upperBound,
                        "\(size) \(row.id) at \(t - 1) s: ink rows \(top)...\(bottom) outside its line box \(box)")
            }
            for (a, b) in zip(boxes, boxes.dropFirst()) { #expect(a.upperBound < b.lowerBound, "\(size): line boxes overlap: \(a) \(b)") }
        }
        #expect(rolling > 20, "the rows did roll: \(rolling) rolling row frames")
    }
}
