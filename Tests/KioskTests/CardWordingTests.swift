import Testing
#if canImport(Glibc)
import Glibc
#endif
import AnimationCore
import Raster
@testable import KioskRendering
@testable import KioskModel

/// What the card says must be true: north is 360°, and an aircraft on the
/// ground is not an overflight.
@Suite struct CardWordingTests {
    @Test func northIsWritten360() {
        for (bearing, text) in [(359.6, "360°"), (0.2, "360°"), (360.0, "360°"), (0.6, "1°"), (180.4, "180°"), (359.4, "359°")] {
            #expect(KioskScene.valueTexts(Aircraft(callsign: "X", bearingDegrees: bearing))[3].text == text, "\(bearing)")
        }
    }

    @Test func anAircraftOnTheGroundIsSaidToBe() {
        func word(_ aircraft: Aircraft) -> String? {
            let leaves = KioskScene.leaves(for: KioskState(mode: .overflight, aircraft: aircraft), shown: nil, layout: KioskLayout(width: 800, height: 480))
            return leaves.first { $0.id.path == "status" }.flatMap { if case let .text(s) = $0.content { s } else { nil } }
        }
        #expect(word(Aircraft(callsign: "TUG1", onGround: true)) == "ON GROUND")
        #expect(word(Aircraft(callsign: "BAW283", altitudeFeet: 3000)) == "OVERFLIGHT")
        #expect(word(Aircraft(callsign: "TUG1", onGround: true, alert: "WATCHED")) == "WATCHED", "an alert says why first")
    }

    @Test func anAircraftWithoutAnICAOAddressIsUnidentified() {
        let leaves = KioskScene.leaves(for: KioskState(mode: .overflight, aircraft: Aircraft(callsign: "~298FB7", altitudeFeet: 1200)), shown: nil,
                                       layout: KioskLayout(width: 800, height: 480))
        let callsign = leaves.first { $0.id.path == "card/callsign" }
        #expect(callsign?.content == .text("Unidentified"))
        #expect(callsign?.id.explicit == "~298FB7", "the address stays its identity: another one is another card")
        #expect(Aircraft.shownCallsign("BAW283") == "BAW283")
    }
}

/// An aircraft beyond the dial's range is an arrow on the rim, not a blip
/// pinned there as if it were at the range.
@Suite struct BeyondRangeMarkTests {
    @Test func beyondTheRangeTheMarkIsAnArrowAtTheRim() throws {
        let renderer = KioskRenderer(fonts: try FontSet())
        let bearing = 60.0   // clear of the crosshair and the compass points
        var dial = AnimatableRect(x: 0, y: 0, width: 0, height: 0)
        func frame(_ distance: Double) -> PixelBuffer {
            let state = KioskState(mode: .overflight, aircraft: Aircraft(callsign: "FAR1", altitudeFeet: 9000, distanceNM: distance, bearingDegrees: bearing))
            let tick = FrameTick(controller: KioskController(layout: KioskLayout(width: 1920, height: 1080), initial: state, measure: renderer),
                                 renderer: renderer, buffer: PixelBuffer(width: 1920, height: 1080))
            tick.draw(at: 0)
            dial = tick.controller.layout.dialFrame(.overflight)
            return tick.frame
        }
        let atRange = frame(20), beyond = frame(30), halfway = frame(10)
        let r = dial.width / 2, s = r / (0.42 * 1080), b = bearing * .pi / 180
        /// The green at `radius` from the centre along the bearing, `across` px to its clockwise side.
        func green(_ buffer: PixelBuffer, _ radius: Double, across: Double = 0) -> Int {
            let x = dial.midX + sin(b) * radius + cos(b) * across, y = dial.midY - cos(b) * radius + sin(b) * across
            return Int((buffer[Int(x.rounded()), Int(y.rounded())] >> 8) & 0xFF)
        }
        // At the range the blip's dot sits on the rim; beyond it the arrow is
        // narrow there, so beside the line only the blip is bright.
        #expect(green(atRange, r, across: 5 * s) > green(beyond, r, across: 5 * s) + 60,
                "beside the rim: \(green(atRange, r, across: 5 * s)) with the blip, \(green(beyond, r, across: 5 * s)) with the arrow")
        // The arrow's body just inside the rim.
        #expect(green(beyond, r - 8 * s) > 200, "the arrow inside the rim: \(green(beyond, r - 8 * s))")
        // At 10 NM the blip is half way out, and nothing of it is at the rim.
        #expect(green(halfway, r / 2) > 200 && green(halfway, r, across: 5 * s) < 120)
    }
}

/// The shown aircraft's mark points where it is going, not from the station:
/// an aircraft symbol turned to its track, no line from the centre.
@Suite struct AircraftSymbolTests {
    @Test func theSymbolPointsAlongTheTrack() throws {
        let renderer = KioskRenderer(fonts: try FontSet())
        func frame(track: Double?, facing: Double? = nil) -> (PixelBuffer, AnimatableRect) {
            let state = KioskState(mode: .overflight, aircraft: Aircraft(callsign: "TRK1", altitudeFeet: 3000, distanceNM: 8,
                                                                         bearingDegrees: 200, trackDegrees: track))
            let controller = KioskController(layout: KioskLayout(width: 1920, height: 1080), initial: state, measure: renderer)
            controller.setStationView(facing: facing, elevationFeet: 0, at: 0)
            let tick = FrameTick(controller: controller, renderer: renderer, buffer: PixelBuffer(width: 1920, height: 1080))
            tick.draw(at: 0)
            return (tick.frame, try! #require(controller.renderList.first { $0.id.path == "dial/marker" }).frame)
        }
        /// The direction of the symbol's tip from the mark, screen degrees clockwise from up: the mean of its farthest solid pixels.
        func tip(_ buffer: PixelBuffer, at mark: AnimatableRect) -> Double {
            var solid: [(dx: Double, dy: Double, d: Double)] = []
            for y in Int(mark.y) - 30...Int(mark.y) + 30 {
                for x in Int(mark.x) - 30...Int(mark.x) + 30 where (buffer[x, y] >> 8) & 0xFF > 0xE0 {
                    let dx = Double(x) + 0.5 - mark.x, dy = Double(y) + 0.5 - mark.y
                    solid.append((dx, dy, (dx * dx + dy * dy).squareRoot()))
                }
            }
            let far = solid.map(\.d).max() ?? 0
            let tipPixels = solid.filter { $0.d > far - 1.5 }
            let mx = tipPixels.map(\.dx).reduce(0, +), my = tipPixels.map(\.dy).reduce(0, +)
            return (atan2(mx, -my) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
        }
        func off(_ a: Double, _ b: Double) -> Double { abs((a - b + 540).truncatingRemainder(dividingBy: 360) - 180) }
        for track in stride(from: 0.0, to: 360, by: 45) {
            let (buffer, mark) = frame(track: track)
            let pointing = tip(buffer, at: mark)
            #expect(off(pointing, track) <= 5, "track \(track)°: the symbol points to \(pointing)°")
        }
        // Facing east, a track to the east points up the screen.
        let (turned, mark) = frame(track: 90, facing: 90)
        #expect(off(tip(turned, at: mark), 0) <= 5, "facing east, track 90°: \(tip(turned, at: mark))°")
        // No line from the centre: half way between the centre and the mark, the face alone.
        let (withMark, _) = frame(track: 0)
        let (withoutTrack, _) = frame(track: nil)
        let dial = KioskLayout(width: 1920, height: 1080).dialFrame(.overflight)
        let b = 200.0 * .pi / 180, r = dial.width / 2 * 8 / 20 / 2
        let half = (x: Int(dial.midX + sin(b) * r), y: Int(dial.midY - cos(b) * r))
        #expect((withMark[half.x, half.y] >> 8) & 0xFF < 0x60 && (withoutTrack[half.x, half.y] >> 8) & 0xFF < 0x60,
                "no bearing line: \(String((withMark[half.x, half.y] >> 8) & 0xFF, radix: 16))")
    }
}
