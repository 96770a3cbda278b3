import Foundation
import KioskModel
import SystemIO
import XCTest

/// Today's overflights for home automation: counted from the log at start,
/// then as they end, and from nothing again on a new day.
final class OverflightDayTests: XCTestCase {
    /// Days of 1000 s, so the test needs no time zone.
    private func day(_ seconds: Double) -> String { "day\(Int(seconds / 1000))" }

    private func overflight(_ start: Double, _ callsign: String) -> Overflight {
        Overflight(start: start, end: start + 60, callsign: callsign)
    }

    func testTheLogGivesTodaysCountAndTheLastOneWhateverItHolds() throws {
        let dir = NSTemporaryDirectory() + "overflight-day-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/overflights.jsonl"
        // Yesterday's in the rotated file; today's two, a hand-edited line and a torn last line in the live one.
        try (overflight(100, "OLD1").jsonLine + "\n" + overflight(2100, "BAW283").jsonLine + "\n").write(toFile: path + ".1", atomically: true, encoding: .utf8)
        try ([overflight(2300, "EZY12").jsonLine, "not json at all", #"{"start":"#, overflight(2500, "AFR7").jsonLine].joined(separator: "\n"))
            .write(toFile: path, atomically: true, encoding: .utf8)
        let counted = OverflightDay(log: path, today: "day2", dayOf: day)
        XCTAssertEqual(counted.count, 3)
        XCTAssertEqual(counted.last?.callsign, "AFR7")
        XCTAssertEqual(OverflightDay(log: path, today: "day3", dayOf: day).count, 0)
        XCTAssertEqual(OverflightDay(log: dir + "/none", today: "day2", dayOf: day).count, 0)
        XCTAssertEqual(OverflightDay(log: dir, today: "day2", dayOf: day).count, 0, "a directory is no log")
    }

    func testCountsAsTheyEndAndStartsAgainOnANewDay() {
        var today = OverflightDay(day: "day1")
        today.add(overflight(1100, "A"), dayOf: day)
        today.add(overflight(1200, "B"), dayOf: day)
        XCTAssertEqual(today.count, 2)
        XCTAssertEqual(today.last?.callsign, "B")
        today.roll(to: "day2")
        XCTAssertEqual(today.count, 0)
        XCTAssertEqual(today.last?.callsign, "B", "the last one stays the last")
        today.add(overflight(2100, "C"), dayOf: day)
        today.add(overflight(3100, "D"), dayOf: day)
        XCTAssertEqual(today.day, "day3", "an overflight of a later day begins that day's count")
        XCTAssertEqual(today.count, 1)
    }
}
