import Testing
import KioskModel
@testable import KioskRendering
@testable import KioskTools
import Raster

/// Night dimming on a panel without a backlight: the picture gives the light
/// asked for (in linear light, not its encoded values scaled), and the
/// card's text and the dial's labels still read at the default night level.
@Suite struct NightDimmingTests {
    /// The light of a frame: WCAG relative luminance summed over its pixels.
    static func light(_ buffer: PixelBuffer) -> Double {
        var sum = 0.0
        for y in 0..<buffer.height {
            for x in 0..<buffer.width { sum += Audit.luminance(buffer[x, y]) }
        }
        return sum
    }

    @Test(arguments: [0.3, 0.1, 0.6])
    func aDimmedFrameGivesTheLightAskedFor(brightness: Double) throws {
        let renderer = KioskRenderer(fonts: try FontSet())
        for state in [Demo.sampleOverflight, KioskState.standby] {
            let tick = FrameTick(controller: KioskController(layout: KioskLayout(width: 800, height: 480), initial: state, measure: renderer),
                                 renderer: renderer, buffer: PixelBuffer(width: 800, height: 480))
            tick.draw(at: 0)
            let full = Self.light(tick.frame)
            LinearDimming(brightness: brightness).apply(tick.frame.bounds, of: tick.frame)
            let ratio = Self.light(tick.frame) / full
            #expect(abs(ratio - brightness) <= 0.03, "\(state.mode) at \(brightness): \(ratio) of the light")
        }
    }

    @Test func theTablesEndsAndOrderHold() {
        let d = LinearDimming(brightness: 0.3)
        #expect(d.table[0] == 0 && d.table.count == 256)
        #expect(zip(d.table, d.table.dropFirst()).allSatisfy { $0 <= $1 }, "never darker for a brighter value")
        #expect(LinearDimming(brightness: 1).table == (0...255).map { UInt8($0) }, "full brightness changes nothing")
        #expect(d.dimmed(0xFF00_0000) == 0xFF00_0000 && d.dimmed(0xFFFF_FFFF) == 0xFF00_0000 | UInt32(d.table[255]) * 0x01_0101)
    }

    /// The audit at the default night level: every card text and dial label
    /// at 4.5:1 or more, in the light the dimmed screen gives, at every audited size.
    @Test(arguments: Audit.sizes)
    func theCardsTextReadsDimmedAtNight(size: String) throws {
        let fonts = try FontSet()
        let pixels = try parseSize(size)
        let night = ScreenPolicy().nightBrightness
        for state in [Audit.sampleOverflight, Audit.longestOverflight, Audit.alertOverflight, Audit.longestPassage, .standby] {
            let found = Audit.problems(width: pixels.width, height: pixels.height, state: state, fonts: fonts, brightness: night)
            #expect(found.isEmpty, "\(size): \(found.joined(separator: "; "))")
        }
    }

    /// Lightened only as far as it takes: by day every colour is the design's.
    @Test func byDayTheColoursAreTheDesigns() throws {
        let renderer = KioskRenderer(fonts: try FontSet())
        let day = KioskStyle.allCases.map { renderer.textStyle($0).color }
        #expect(renderer.dialLabelColors == (DialPainter.rangeLabelColor, DialPainter.compassLabelColor))
        renderer.screenBrightness = 0.3
        let night = KioskStyle.allCases.map { renderer.textStyle($0).color }
        #expect(night != day, "some text is lighter at night")
        #expect(renderer.textStyle(.callsign).color == day[KioskStyle.callsign.rawValue], "the callsign reads at 30 % as it is")
        #expect(renderer.dialLabelColors.range.green > DialPainter.rangeLabelColor.green, "the rings' labels too")
        renderer.screenBrightness = 1
        #expect(KioskStyle.allCases.map { renderer.textStyle($0).color } == day)
        #expect(renderer.dialLabelColors == (DialPainter.rangeLabelColor, DialPainter.compassLabelColor))
    }
}
