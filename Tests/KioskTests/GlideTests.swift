import Testing
import AnimationCore
import Display
import Raster
@testable import KioskModel
@testable import KioskRendering
@testable import KioskApp
@testable import KioskTools

/// The seed's lessons, checked on recorded frames: the dial glides (one dial
/// in every frame, its centre moving steadily), the status word never shows
/// twice, numbers roll, and a still kiosk records nothing.
@Suite(.serialized) struct GlideTests {
    static let width = 800, height = 480, rate = 60.0

    /// Records `script` on the headless display and reads the video back.
    func record(_ script: [TimedCommand], duration: Double) throws -> (frames: [[UInt8]], times: [Double]) {
        let path = "/tmp/radar-kiosk-glide-\(UInt32.random(in: 0...UInt32.max)).y4m"
        defer { _ = path.withCString { unlink($0) } }
        let display = try HeadlessDisplay(width: Self.width, height: Self.height, refreshRate: Self.rate, recordTo: path)
        let controller = KioskController(layout: KioskLayout(width: Self.width, height: Self.height))
        let recording = HeadlessRecording(display: display, controller: controller, renderer: KioskRenderer(fonts: try FontSet()))
        recording.log = { _ in }
        try recording.run(script, duration: duration)
        let reader = try Y4MReader(path: path)
        var frames: [[UInt8]] = [], times: [Double] = []
        while let f = reader.nextFrame() {
            frames.append(Array(f.prefix(Self.width * Self.height)))  // the luma plane
            // Every recorded frame carries its time; a missing one is a failure, not time 0.
            guard let time = reader.lastFrameTime else {
                Issue.record("frame \(frames.count - 1) has no time")
                times.append(-1)
                continue
            }
            times.append(time)
        }
        return (frames, times)
    }

    /// The dials in a frame's luma plane, found by their outline. Rows above and
    /// below the card (which spans 0.2 H to 0.8 H) cross the disc in one chord
    /// each; a single dial's chords share one midpoint and fit one circle. Two
    /// dials crossfading give chords that fit no single circle, and the
    /// function then returns both ends of the disagreement (two "dials").
    static func dials(_ y: [UInt8]) -> [(x: Double, y: Double, r: Double)] {
        let w = width, h = height
        let background = Int(y[2 * w + 2])
        var chords: [(row: Int, left: Int, right: Int)] = []
        // Below the status word (top left, baseline 0.06 H) and above the card; below the card.
        let bands = Array(Int(0.08 * Double(h))..<Int(0.2 * Double(h)) - 2) + Array(Int(0.8 * Double(h)) + 2..<(h - 2))
        for row in bands {
            // The longest run of disc pixels in the row (gaps up to 8 px bridged),
            // which leaves out the status word and other text in the band.
            var left = -1, right = -1, start = -1, last = -100
            for x in 0..<w where Int(y[row * w + x]) > background + 3 {
                if x - last > 8 { start = x }
                last = x
                if x - start > right - left { left = start; right = x }
            }
            // Compass labels are small: a disc chord is wider than 24 px.
            if left >= 0 && right - left > 24 { chords.append((row, left, right)) }
        }
        guard chords.count >= 6 else { return [] }
        let mids = chords.map { Double($0.left + $0.right) / 2 }
        let cx = mids.sorted()[mids.count / 2]
        // Fit cy and R from half-chords: (w/2)^2 + (y - cy)^2 = R^2, linear in cy and R^2 - cy^2.
        var sxx = 0.0, sx = 0.0, sxy = 0.0, sy = 0.0
        let n = Double(chords.count)
        for c in chords {
            let half = Double(c.right - c.left + 1) / 2
            let yy = Double(c.row) + 0.5
            let target = half * half + yy * yy        // = 2 cy y + (R^2 - cy^2)
            sxx += yy * yy; sx += yy; sxy += yy * target; sy += target
        }
        let slope = (n * sxy - sx * sy) / (n * sxx - sx * sx)
        let cy = slope / 2
        let r2 = (sy - slope * sx) / n + cy * cy
        guard r2 > 0 else { return [] }
        let r = r2.squareRoot()
        // Every chord's ends must lie on that one circle (distance from it, in px).
        var worst = 0.0
        for c in chords {
            let yy = Double(c.row) + 0.5
            for x in [Double(c.left), Double(c.right + 1)] {
                let d = ((x - cx) * (x - cx) + (yy - cy) * (yy - cy)).squareRoot()
                worst = max(worst, abs(d - r))
            }
        }
        if worst > 4 {
            let lefts = chords.map(\.left), rights = chords.map(\.right)
            return [(Double(lefts.min()!), cy, r), (Double(rights.max()!), cy, r)]
        }
        return [(cx, cy, r)]
    }

    static func over(_ callsign: String = "BAW283", alt: Int = 36_000, brg: Double = 274) -> KioskState {
        KioskState(mode: .overflight, aircraft: Aircraft(callsign: callsign, type: "B789", route: "LHR → LAX", altitudeFeet: alt,
                                                         groundSpeedKnots: 487, distanceNM: 3.2, bearingDegrees: brg))
    }

    func expectOneDialGliding(_ frames: [[UInt8]], from: (Double, Double), to: (Double, Double), monotonic: Bool, minimumFrames: Int = 40) {
        // A glide of 0.8 s or more at 60 Hz: an empty or short window means the frames or their times went missing.
        #expect(frames.count >= minimumFrames, "only \(frames.count) frames in the window")
        var previous: (x: Double, y: Double, r: Double)?
        var checked = 0
        for (i, f) in frames.enumerated() {
            let found = Self.dials(f)
            #expect(found.count == 1, "frame \(i): \(found.count) dials \(found)")
            guard let c = found.first else { continue }
            checked += 1
            if let p = previous {
                let step = ((c.x - p.x) * (c.x - p.x) + (c.y - p.y) * (c.y - p.y)).squareRoot()
                #expect(step < 25, "frame \(i): the dial jumped \(step) px")
                if monotonic {
                    // Moving towards the end position along x (y changes little), allowing 2 px of detection noise.
                    let towards = (to.0 - from.0).sign == .minus ? p.x - c.x : c.x - p.x
                    #expect(towards > -2.5, "frame \(i): moved back by \(-towards) px")
                }
            }
            previous = c
        }
        #expect(checked == frames.count && checked > 0)
        let first = frames.first.map(Self.dials)?.first, last = frames.last.map(Self.dials)?.first
        #expect(first.map { abs($0.x - from.0) < 4 && abs($0.y - from.1) < 4 } == true, "starts at \(String(describing: first))")
        #expect(last.map { abs($0.x - to.0) < 4 && abs($0.y - to.1) < 4 } == true, "ends at \(String(describing: last))")
    }

    var positions: (standby: (Double, Double), overflight: (Double, Double)) {
        let layout = KioskLayout(width: Self.width, height: Self.height)
        let s = layout.dialFrame(.standby), o = layout.dialFrame(.overflight)
        return ((s.midX, s.midY), (o.midX, o.midY))
    }

    @Test func standbyToOverflightGlides() throws {
        let (frames, times) = try record([TimedCommand(at: 0.5, command: .set(Self.over()))], duration: 2.5)
        let window = frames.indices.filter { times[$0] >= 0.48 }
        expectOneDialGliding(window.map { frames[$0] }, from: positions.standby, to: positions.overflight, monotonic: true)
    }

    @Test func overflightToStandbyGlidesBack() throws {
        let (frames, times) = try record([TimedCommand(at: 0, command: .set(Self.over())),
                                          TimedCommand(at: 2, command: .set(.standby))], duration: 4)
        let window = frames.indices.filter { times[$0] >= 1.98 && times[$0] <= 3.8 }
        expectOneDialGliding(window.map { frames[$0] }, from: positions.overflight, to: positions.standby, monotonic: true)
    }

    @Test func aChangeOfMindMidGlideRetargetsWithoutAJump() throws {
        let (frames, times) = try record([TimedCommand(at: 0.5, command: .set(Self.over())),
                                          TimedCommand(at: 0.8, command: .set(.standby))], duration: 3)
        let window = frames.indices.filter { times[$0] >= 0.48 }
        expectOneDialGliding(window.map { frames[$0] }, from: positions.standby, to: positions.standby, monotonic: false)
        // It really went part of the way first.
        let xs = window.compactMap { Self.dials(frames[$0]).first?.x }
        #expect((xs.min() ?? 999) < positions.standby.0 - 30)
    }

    /// The detector must see the failure it guards against: the two layouts
    /// crossfaded half and half (what an if/else swap shows) are two dials.
    @Test func aCrossfadeOfTwoLayoutsShowsTwoDials() throws {
        func luma(_ state: KioskState) throws -> [UInt8] {
            let controller = KioskController(layout: KioskLayout(width: Self.width, height: Self.height), initial: state)
            let buffer = PixelBuffer(width: Self.width, height: Self.height)
            FrameTick(controller: controller, renderer: KioskRenderer(fonts: try FontSet()), buffer: buffer).draw(at: 0)
            var out = [UInt8](repeating: 0, count: Self.width * Self.height)
            for y in 0..<Self.height {
                for x in 0..<Self.width {
                    let p = buffer[x, y]
                    let r = Int((p >> 16) & 0xFF), g = Int((p >> 8) & 0xFF), b = Int(p & 0xFF)
                    out[y * Self.width + x] = UInt8(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16)
                }
            }
            return out
        }
        let a = try luma(.standby), b = try luma(Self.over())
        #expect(Self.dials(a).count == 1 && Self.dials(b).count == 1)
        let mixed = zip(a, b).map { UInt8((Int($0) + Int($1) + 1) / 2) }
        #expect(Self.dials(mixed).count == 2, "\(Self.dials(mixed))")
    }

    @Test func aStillKioskRecordsNoNewFrames() throws {
        let (_, times) = try record([TimedCommand(at: 0, command: .set(Self.over()))], duration: 6)
        // Once the glide has settled on the still face, nothing is recorded.
        #expect(times.filter { $0 > 3 }.isEmpty, "frames after settling: \(times.filter { $0 > 3 }.count)")
        #expect(times.count > 30)
    }

    @Test func statusWordIsNeverDrawnTwice() throws {
        let controller = KioskController(layout: KioskLayout(width: 800, height: 480))
        controller.apply(Self.over(), at: 1)
        var t = 1.0
        while t < 2 {
            _ = controller.frameNeeded(at: t)
            let words = controller.renderList.filter { $0.id.path == "status" && $0.opacity > 0.001 }
            #expect(words.count <= 1, "at \(t): \(words.map(\.id))")
            let new = controller.renderList.first { $0.id.explicit == "OVERFLIGHT" }
            if t - 1 <= 0.25 { #expect((new?.opacity ?? 0) == 0, "new word visible at \(t - 1) s") }
            t += 1 / 120
        }
        #expect(controller.renderList.contains { $0.id.explicit == "OVERFLIGHT" && $0.opacity == 1 })
    }

    @Test func theSameAircraftsNumbersRollAndItsCallsignStaysOneLabel() throws {
        let controller = KioskController(layout: KioskLayout(width: 800, height: 480), initial: Self.over())
        controller.apply(Self.over(alt: 36_500, brg: 281), at: 1)
        var sawRoll = false
        var t = 1.0
        while t < 2 {
            _ = controller.frameNeeded(at: t)
            let callsigns = controller.renderList.filter { $0.id.path == "card/callsign" }
            #expect(callsigns.count == 1 && callsigns[0].content == .text("BAW283") && callsigns[0].contentTransition == nil)
            if let alt = controller.renderList.first(where: { $0.id.path == "card/row0/value" }), let ct = alt.contentTransition {
                #expect(ct.from == "36,000 ft" && ct.to == "36,500 ft")
                if case .numericTextValue = ct.kind { sawRoll = true }
            }
            t += 1 / 60
        }
        #expect(sawRoll)
    }

    /// Another aircraft is other leaves: the old callsign, numbers and blip fade
    /// out where they are, the new ones fade in at theirs; no blip position in
    /// between, no digits of one rolling into the other's, never both callsigns at once.
    @Test func anotherAircraftFadesOutAndInNeverMorphs() throws {
        let controller = KioskController(layout: KioskLayout(width: 800, height: 480), initial: Self.over())
        _ = controller.frameNeeded(at: 0.9)
        let oldBlip = try #require(controller.renderList.first { $0.id.path == "dial/marker" }).frame
        controller.apply(Self.over("DLH4AB", alt: 9_750, brg: 118), at: 1)
        var t = 1.0
        var newBlip: AnimatableRect?
        while t < 2.5 {
            _ = controller.frameNeeded(at: t)
            let visible = controller.renderList.filter { $0.opacity > 0.001 }
            let callsigns = visible.filter { $0.id.path == "card/callsign" }
            #expect(callsigns.count <= 1, "\(t - 1) s: \(callsigns.count) callsigns at once")
            for blip in visible where blip.id.path == "dial/marker" {
                if blip.id.explicit == "BAW283" { #expect(blip.frame == oldBlip, "the old blip moved at \(t - 1) s") }
                if let first = newBlip { #expect(blip.id.explicit != "DLH4AB" || blip.frame == first, "the new blip moved") } else if blip.id.explicit == "DLH4AB" { newBlip = blip.frame }
            }
            for value in visible where value.id.path.hasSuffix("/value") && value.id.explicit == "DLH4AB" {
                #expect(value.contentTransition == nil, "a new aircraft's number rolls from another's at \(t - 1) s")
            }
            t += 1 / 60
        }
        #expect(newBlip != nil && newBlip != oldBlip)
        #expect(controller.renderList.contains { $0.id == NodeID("card/callsign", id: "DLH4AB") && $0.opacity == 1 })
        #expect(!controller.renderList.contains { $0.id.explicit == "BAW283" }, "the old aircraft's leaves are gone")
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// The accessibility audit over every supported layout, in both modes.
@Suite struct AuditTests {
    @Test(arguments: Audit.sizes)
    func layoutPassesTheAudit(size: String) throws {
        let s = try parseSize(size)
        let fonts = try FontSet()
        for state in [KioskState.standby, Audit.sampleOverflight, Audit.longestOverflight] {
            let problems = Audit.problems(width: s.width, height: s.height, state: state, fonts: fonts)
            #expect(problems.isEmpty, "\(problems)")
        }
    }

    @Test func theAuditSeesLowContrastAndSmallText() throws {
        // Dim text on the card fails contrast; a tiny screen's minimum is respected.
        #expect(Audit.contrast(0xFF12_1C26, 0xFF1A_2630) < 4.5)
        #expect(Audit.contrast(0xFFE8_F1F2, 0xFF12_1C26) > 4.5)
        #expect(KioskLayout(width: 800, height: 480).minimumTextSize == 12)
        #expect(KioskLayout(width: 1920, height: 1080).minimumTextSize > 23)
    }
}
