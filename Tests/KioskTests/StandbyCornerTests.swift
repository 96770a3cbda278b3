import Foundation
@testable import KioskApp
@testable import KioskModel
@testable import KioskRendering
import SystemIO
import Testing

/// Standby's quiet corner: what it says from a day's overflights, where it
/// stands, and that it follows the overflight log as lines are added.
@Suite struct StandbyCornerTests {
    private func overflight(_ start: Double, _ callsign: String, lowest: Int? = nil, closest: Double? = nil) -> Overflight {
        var o = Overflight(start: start, end: start + 60, callsign: callsign)
        o.lowestFeet = lowest
        o.closestNM = closest
        return o
    }

    @Test func itSaysTheCountTheLowestTheClosestAndTheLast() {
        var day = OverflightDay(day: "d")
        for o in [overflight(0, "BAW283", lowest: 2900, closest: 1.2), overflight(100, "EZY12", lowest: 4100, closest: 0.4),
                  overflight(200, "AFR7", lowest: 2500, closest: 2.2)] {
            day.add(o, dayOf: { _ in "d" })
        }
        let info = StandbyInfo(.clockAndToday, hour: 7, minute: 5, today: day, now: 260 + 12 * 60, units: DisplayUnits())
        #expect(info.clock == "07:05")
        #expect(info.lines == ["3 overflights today", "Lowest AFR7 · 2,500 ft", "Closest EZY12 · 0.4 NM", "Last AFR7 · 12 min ago"])
        let metric = StandbyInfo(.init(showsClock: false, showsToday: true), hour: 7, minute: 5, today: day, now: 270,
                                 units: DisplayUnits(altitude: .meters, distance: .kilometres))
        #expect(metric.clock == nil)
        #expect(metric.lines == ["3 overflights today", "Lowest AFR7 · 762 m", "Closest EZY12 · 0.7 km", "Last AFR7 · just now"])
        #expect(StandbyInfo(.clockAndToday, hour: 0, minute: 0, today: OverflightDay(day: "d"), now: 0, units: DisplayUnits()).lines
                == ["No overflights yet today"])
        #expect(StandbyInfo(.init(showsClock: true, showsToday: false), hour: 23, minute: 59, today: day, now: 0, units: DisplayUnits())
                == StandbyInfo(clock: "23:59", lines: []))
        #expect(StandbyInfo.ago(3 * 3600) == "3 h ago" && StandbyInfo.ago(3 * 86400) == "3 days ago")
    }

    @Test func aCallsignWithHiddenCharactersIsNotShown() {
        var day = OverflightDay(day: "d")
        day.add(overflight(0, "EVIL\u{202E}1", lowest: 1000), dayOf: { _ in "d" })
        let info = StandbyInfo(.clockAndToday, hour: 1, minute: 2, today: day, now: 100, units: DisplayUnits())
        #expect(info.lines.allSatisfy { !$0.unicodeScalars.contains("\u{202E}") })
        #expect(info.lines[1] == "Lowest ? · 1,000 ft")
    }

    @Test func theCornerStandsBesideTheDialInStandbyAndGoesInOverflight() throws {
        let renderer = KioskRenderer(fonts: try FontSet())
        for (w, h) in [(800, 480), (1920, 1080), (480, 800)] {
            let layout = KioskLayout(width: w, height: h)
            let controller = KioskController(layout: layout, measure: renderer)
            controller.setStandbyInfo(StandbyInfo(clock: "12:34", lines: ["1 overflight today"]), at: 0)
            _ = controller.frameNeeded(at: 0)
            let clock = try #require(controller.renderList.first { $0.id.path == "standby/clock" })
            let line = try #require(controller.renderList.first { $0.id.path == "standby/today0" })
            #expect(clock.opacity == 1 && line.opacity == 1 && !clock.isDecorative)
            #expect(clock.frame.x > Double(w) / 2 && clock.frame.maxY < line.frame.maxY, "\(w)x\(h): top right, the clock over the lines")
            #expect(controller.renderList.first { $0.id.path == "standby/today1" }?.isDecorative == true, "an empty line is decorative")
            controller.apply(Demo.sampleOverflight, at: 0)
            _ = controller.frameNeeded(at: 2)
            #expect(controller.renderList.filter { $0.id.path.hasPrefix("standby/") }.allSatisfy { $0.opacity == 0 && $0.isDecorative })
        }
    }

    /// The figures follow the log: read at start, a line appended by hand
    /// read again at once, an overflight the kiosk has not written yet counted too.
    @Test func theCornerFollowsTheLog() throws {
        let dir = NSTemporaryDirectory() + "standby-corner-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/overflights.jsonl"
        // The overflights are today's even just after local midnight.
        let wall = WallClock.now()
        let today = WallClock.local(wall)
        let now = max(wall, WallClock.moment(year: today.year, month: today.month, day: today.day, minutes: 0) + 700)
        try (overflight(now - 600, "BAW283", lowest: 2900, closest: 1.2).jsonLine + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        var unwritten: [Overflight] = []
        let corner = StandbyCorner(choice: .clockAndToday, units: DisplayUnits(), logPath: path, unwritten: { unwritten })
        func lines(_ events: [KioskEvent]) -> [String]? {
            for case let .standbyInfo(info) in events { return info.lines }
            return nil
        }
        #expect(corner.nextWake == 0)
        #expect(lines(corner.service(now: 1))?.first == "1 overflight today")
        // The next wake is the next minute's start, however close that is.
        let nextMinute = try #require(corner.nextWake)
        #expect(nextMinute > 1 && nextMinute <= 61.05)
        #expect(corner.service(now: nextMinute - 0.01).isEmpty, "nothing new: nothing said")
        let file = try FileDescriptor.open(path, O_WRONLY | O_APPEND)
        try file.writeAll(overflight(now - 300, "EZY12", lowest: 1500, closest: 0.4).jsonLine + "\n")
        file.close()
        #expect(lines(corner.service(now: 2))?.prefix(3) == ["2 overflights today", "Lowest EZY12 · 1,500 ft", "Closest EZY12 · 0.4 NM"])
        unwritten = [overflight(now - 100, "AFR7", lowest: 900)]
        corner.overflightEnded()
        #expect(corner.nextWake == 0)
        #expect(lines(corner.service(now: 3))?.first == "3 overflights today")
        corner.isShown = false
        #expect(corner.nextWake == nil, "a card shown: no minute to wake for")
        corner.isShown = true
        #expect(corner.nextWake == 0, "back in standby: brought up to date at once")
        _ = corner.service(now: 3.5)
        corner.choice = .nothing
        #expect(corner.service(now: 4).contains { if case .standbyInfo(.none) = $0 { true } else { false } })
        #expect(corner.nextWake == nil, "nothing shown: no minute to wake for")
    }
}
