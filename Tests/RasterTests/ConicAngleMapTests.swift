import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import Raster

/// A conic ramp looks its pixels' directions up in a map kept from fill to
/// fill: the pixels must be those worked out without it, whatever order the
/// map's blocks were first needed in, and a map around another centre must
/// not be used.
@Suite struct ConicAngleMapTests {
    static let size = (width: 160, height: 120)
    static let center = Point(70.3, 58.6)
    static let ramp = GradientStops(GradientStop(0, Color(hex: 0x6CFFB5, alpha: 0)), GradientStop(1.0 / 6, Color(hex: 0x6CFFB5, alpha: 0.55)),
                                    GradientStop(0.5, Color(hex: 0x6CFFB5, alpha: 0.55)), GradientStop(0.5, Color(hex: 0x6CFFB5, alpha: 0)))

    /// A sweep's wedge and a disc under it, as the dial draws them.
    func draw(_ startAngle: Float, on canvas: Canvas, clip: Rect? = nil) {
        canvas.save()
        if let clip { canvas.clip(to: clip) }
        var wedge = Path()
        wedge.addPie(center: Self.center, radius: 55, startAngle: startAngle, endAngle: startAngle + .pi / 3)
        canvas.fill(wedge, with: .gradient(.conic(center: Self.center, startAngle: startAngle, stops: Self.ramp)))
        canvas.restore()
    }

    func fresh() -> Canvas {
        let buffer = PixelBuffer(width: Self.size.width, height: Self.size.height)
        buffer.fill(0xFF15_303A)
        return Canvas(target: buffer)
    }

    func differing(_ a: Canvas, _ b: Canvas) -> Int {
        var count = 0
        for y in 0..<Self.size.height { for x in 0..<Self.size.width where a.target[x, y] != b.target[x, y] { count += 1 } }
        return count
    }

    @Test func aMapGivesThePixelsWorkedOutWithoutIt() {
        let map = ConicAngleMap()
        let box = IntRect(x: 10, y: 0, width: 125, height: 120)
        for (turn, startAngle) in stride(from: Float(-3.1), through: 3.1, by: 0.37).enumerated() {
            let plain = fresh(), mapped = fresh()
            mapped.conicAngles = map
            map.prepare(center: Self.center, box: box)
            // Parts first, in an order of their own, so the map's blocks are
            // first needed by clipped spans starting anywhere.
            if turn % 2 == 0 {
                draw(startAngle, on: mapped, clip: Rect(x: 63, y: 20, width: 31, height: 77))
                draw(startAngle, on: mapped, clip: Rect(x: 11, y: 3, width: 9, height: 110))
                mapped.target.fill(0xFF15_303A)
            }
            draw(startAngle, on: plain)
            draw(startAngle, on: mapped)
            #expect(differing(plain, mapped) == 0, "start \(startAngle)")
        }
        #expect(map.box == box)
    }

    @Test func aMapAroundAnotherCentreIsNotUsed() {
        let map = ConicAngleMap()
        let other = Self.center + Point(3, 0)
        map.prepare(center: other, box: IntRect(x: 0, y: 0, width: Self.size.width, height: Self.size.height))
        let elsewhere = fresh()
        elsewhere.conicAngles = map
        // A ramp around the map's centre fills the map; the sweep around another does not use it.
        var disc = Path(); disc.addCircle(center: other, radius: 50)
        elsewhere.fill(disc, with: .gradient(.conic(center: other, startAngle: 0, stops: Self.ramp)))
        elsewhere.target.fill(0xFF15_303A)
        draw(0.4, on: elsewhere)
        let plain = fresh()
        draw(0.4, on: plain)
        #expect(differing(plain, elsewhere) == 0)
        // Moved to the sweep's centre, the map forgets the angles it held.
        map.prepare(center: Self.center, box: map.box)
        let moved = fresh()
        moved.conicAngles = map
        draw(0.4, on: moved)
        #expect(differing(plain, moved) == 0)
    }

    @Test func aMapHoldsTheAnglesASpanWorksOutFromWhereverItStarts() {
        // Centres with awkward fractions; spans starting off the map's blocks.
        var mismatches = 0, checked = 0
        for k in 0..<12 {
            let center = Point(40.123 + Float(k) * 7.31, 30.77 + Float(k) * 5.13)
            let map = ConicAngleMap()
            map.prepare(center: center, box: IntRect(x: 0, y: 0, width: Self.size.width, height: Self.size.height))
            for y in 0..<Self.size.height {
                let start = [0, 3, 5, 13][y % 4]
                let count = Self.size.width - start - 8
                let held = map.angles(y: y, x: start, count: count)
                for x in stride(from: start, to: start + count - 8, by: 8) {
                    let turns = ConicAngleMap.turns(dy: ConicAngleMap.offset(Float(y), from: center.y),
                                                    dx: ConicAngleMap.offset(SIMD8(repeating: Float(x)) + ConicAngleMap.lanes, from: center.x))
                    for lane in 0..<8 where UInt16(truncatingIfNeeded: turns[lane]) != held[x - start + lane] { mismatches += 1 }
                    checked += 8
                }
            }
        }
        #expect(mismatches == 0, "\(mismatches) of \(checked) angles differ")
    }

    @Test func anglesInTurnsFindTheEntryOfTheExactAngle() {
        // The entry each pixel gets against the one its exact direction falls
        // in: off by one at most, and only within a 64th of an entry's edge.
        var worst = 0, offByOne = 0, pixels = 0
        for y in 0..<Self.size.height {
            for x in stride(from: 0, to: Self.size.width, by: 8) {
                let turns = ConicAngleMap.turns(dy: ConicAngleMap.offset(Float(y), from: Self.center.y),
                                                dx: ConicAngleMap.offset(SIMD8(repeating: Float(x)) + ConicAngleMap.lanes, from: Self.center.x))
                for k in 0..<8 {
                    let angle = atan2(Double(y) + 0.5 - Double(Self.center.y), Double(x + k) + 0.5 - Double(Self.center.x))
                    let exact = Int((angle / (2 * .pi) * 1024).rounded(.down)) & 1023
                    let entry = Int((turns[k] & 0xFFFF) >> 6)
                    let off = min((entry - exact) & 1023, (exact - entry) & 1023)
                    worst = max(worst, off)
                    if off > 0 { offByOne += 1 }
                    pixels += 1
                }
            }
        }
        #expect(worst <= 1 && offByOne * 20 < pixels, "worst \(worst), \(offByOne) of \(pixels) off by one")
    }
}
