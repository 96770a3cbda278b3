import Testing
import Feed
@testable import KioskModel

/// A card that is calm to live with: from a real feed replayed at its own
/// pace, the numbers roll together, at most once every few seconds, so that
/// most of the time nothing on the card moves.
@Suite struct CalmCardTests {
    /// The SBS capture (southern Germany, about 40 s) as its lines' own times, in seconds.
    static func capture() throws -> [(time: Double, line: Substring)] {
        let text = String(decoding: try CardIdentityTests().capture("sbs1_rittersport72_111style_1740lines.txt"), as: UTF8.self)
        return text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            guard f.count > 7 else { return nil }
            let hms = f[7].split(separator: ":").compactMap { Double($0) }
            guard hms.count == 3 else { return nil }
            return (hms[0] * 3600 + hms[1] * 60 + hms[2], line)
        }
    }

    /// Replays the capture at 1x with the station under 3C56EE (climbing
    /// through FL220 on the way east), a snapshot a second as SBSFeed takes
    /// them, and samples the card at 60 Hz: the frames with the card up, and
    /// those with any of its rows mid-roll.
    static func replay(rollInterval: Double) throws -> (shown: Int, rolling: Int, rolls: Int, markerMoves: Int) {
        let lines = try capture()
        var settings = OverheadSelector.Settings(station: GeoPoint(latitude: 48.527, longitude: 10.09))
        settings.radiusNM = 6
        settings.exitRadiusNM = 7
        settings.ceilingFeet = 45_000
        let controller = KioskController(layout: KioskLayout(width: 800, height: 480))
        controller.feed = FeedInterpreter(sourceName: "capture", selector: OverheadSelector(settings: settings))
        controller.rollInterval = rollInterval
        var decoder = SBS1Decoder()
        let start = lines[0].time, end = lines[lines.count - 1].time
        var next = 0, lastSnapshot = -Double.infinity
        var shown = 0, rolling = 0, rolls = 0
        var wasRolling = false
        var markerMoves = 0, lastMarker: (Double, Double)?
        var frame = 0
        while true {
            let t = start + Double(frame) / 60
            if t > end { break }
            while next < lines.count && lines[next].time <= t {
                _ = decoder.feed(lines[next].line, at: lines[next].time)
                next += 1
            }
            if t - lastSnapshot >= 1 {
                lastSnapshot = t
                _ = controller.handle(.feed([.snapshot(decoder.snapshot(at: t))]), at: t)
            }
            if let deadline = controller.deadline, deadline <= t { _ = controller.handle(.feedDeadline, at: t) }
            _ = controller.frameNeeded(at: t)
            if controller.state.mode == .overflight {
                shown += 1
                let midRoll = controller.renderList.contains { ($0.id.path.hasPrefix("card/row") || $0.id.path.hasPrefix("card/look")) && $0.contentTransition != nil && $0.opacity > 0.5 }
                if midRoll { rolling += 1 }
                if midRoll && !wasRolling { rolls += 1 }
                wasRolling = midRoll
                if let marker = controller.renderList.first(where: { $0.id.path == "dial/marker" }) {
                    if let last = lastMarker, abs(last.0 - marker.frame.x) + abs(last.1 - marker.frame.y) > 0.01 { markerMoves += 1 }
                    lastMarker = (marker.frame.x, marker.frame.y)
                }
            }
            frame += 1
        }
        return (shown, rolling, rolls, markerMoves)
    }

    @Test func theRowsRollTogetherAtMostEveryFewSeconds() throws {
        let before = try Self.replay(rollInterval: 0)
        let after = try Self.replay(rollInterval: KioskController.defaultRollInterval)
        let share = { (r: (shown: Int, rolling: Int, rolls: Int, markerMoves: Int)) in Double(r.rolling) / Double(max(r.shown, 1)) }
        print("mid-roll: \(before.rolling) of \(before.shown) frames (\(before.rolls) rolls) rolling at once; "
              + "\(after.rolling) of \(after.shown) (\(after.rolls) rolls) coalesced every \(KioskController.defaultRollInterval) s")
        #expect(before.shown > 60 * 20 && after.shown == before.shown, "the card is up for most of the capture")
        #expect(share(after) <= 0.10, "\(share(after)) of the card's frames with a row mid-roll")
        #expect(after.rolls >= 2, "the numbers still follow the aircraft: \(after.rolls) rolls")
        // The aircraft's mark on the dial follows every update, held numbers or not.
        #expect(after.markerMoves == before.markerMoves && after.markerMoves > 60 * 10, "\(after.markerMoves) frames with the mark moving")
    }
}
