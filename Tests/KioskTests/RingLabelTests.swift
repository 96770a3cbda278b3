import Testing
import Typography
@testable import KioskModel
@testable import KioskRendering
@testable import KioskTools
import Raster

/// The rings' labels stay readable while the sweep passes behind them: each
/// stands on a plate of the disc's colour: what is behind a label, read from
/// the pixels with the wedge at its brightest over it.
@Suite struct RingLabelTests {
    @Test(arguments: ["800x480", "1920x1080", "480x800"])
    func theSweepNeverWashesOutTheRingsLabels(size: String) throws {
        let pixels = try parseSize(size)
        let renderer = KioskRenderer(fonts: try FontSet())
        renderer.sweep = SweepSettings(style: .wedge, periodSeconds: 6, opacity: 1)
        let controller = KioskController(layout: KioskLayout(width: pixels.width, height: pixels.height), measure: renderer)
        _ = controller.frameNeeded(at: 0)
        let dial = try #require(controller.renderList.first { $0.id == KioskScene.dialID })
        let buffer = PixelBuffer(width: pixels.width, height: pixels.height)
        // The labels lie on the 45° diagonal; the wedge is brightest from 50° behind its edge to the edge.
        renderer.draw(controller.renderList, sweepBearing: 70, minimumTextSize: Float(controller.layout.minimumTextSize), into: Canvas(target: buffer))
        let r = Float(dial.frame.width / 2), s = r / (0.42 * 1080)
        let font = Font(face: renderer.fonts.regular, approximateSize: renderer.dialLabelSizes(dial, minimumTextSize: Float(controller.layout.minimumTextSize)).range)
        for ring in 0..<3 {
            let ringRadius: Float = r * 0.25 * Float(ring + 1)
            let along: Float = ringRadius * Float(0.5).squareRoot()
            let x = Float(dial.frame.midX) + along, baseline = Float(dial.frame.midY) - along - 4 * s
            // What stands just left of its first letter, against the labels' colour (as the audit measures text).
            let behind = buffer[Int(x - 2), Int(baseline - font.capHeight / 2)]
            let contrast = Audit.contrast(DialPainter.rangeLabelColor.premultipliedPixel, behind | 0xFF00_0000)
            #expect(contrast >= Audit.minimumContrast, "\(size) ring \(ring + 1): \(contrast):1 with the sweep behind it")
        }
    }
}
