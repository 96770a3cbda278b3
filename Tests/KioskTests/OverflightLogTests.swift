import Testing
import Foundation
import SystemIO
@testable import KioskModel
@testable import KioskApp

/// The overflight log: overflights cut from the states shown, written in
/// batches, rotated by size, and read back by `radar-kiosk log`.
@Suite struct OverflightLogTests {
    func over(_ callsign: String, alt: Int, dist: Double, alert: String? = nil) -> KioskState {
        KioskState(mode: .overflight, aircraft: Aircraft(callsign: callsign, type: "B789", route: "LHR → LAX",
                                                         altitudeFeet: alt, distanceNM: dist, alert: alert))
    }

    @Test func overflightsAreCutFromTheStatesShown() {
        var tracker = OverflightTracker()
        #expect(tracker.observe(over("BAW283", alt: 3400, dist: 2.9), at: 100) == nil)
        #expect(tracker.observe(over("BAW283", alt: 3100, dist: 1.2), at: 110) == nil)
        #expect(tracker.observe(over("BAW283", alt: 2900, dist: 2.0), at: 120) == nil)
        let first = tracker.observe(over("DLH4AB", alt: 9750, dist: 4.6, alert: "WATCHED"), at: 130)
        #expect(first?.callsign == "BAW283" && first?.start == 100 && first?.end == 130)
        #expect(first?.closestNM == 1.2 && first?.lowestFeet == 2900 && first?.highestFeet == 3400 && first?.route == "LHR → LAX")
        let second = tracker.observe(.standby, at: 140)
        #expect(second?.callsign == "DLH4AB" && second?.alert == "WATCHED" && second?.end == 140)
        // Overhead with nothing known (a key, a GPIO line): nothing to log.
        #expect(tracker.observe(KioskState(mode: .overflight), at: 150) == nil && tracker.observe(.standby, at: 160) == nil)
        // A line reads back as it was written.
        #expect(first.flatMap { Overflight(jsonLine: $0.jsonLine) } == first)
        #expect(Overflight(jsonLine: #"{"start":1,"callsi"#) == nil, "a torn line is skipped")
    }

    @Test func linesAreWrittenInBatchesAndTheFileRotates() throws {
        let dir = NSTemporaryDirectory() + "rk-log-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = OverflightLog(path: dir + "/overflights.jsonl")
        log.batchSize = 2
        func lines() -> [String] { ((try? String(contentsOfFile: log.path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }
        log.observe(over("A1", alt: 1000, dist: 1), now: 0)
        log.observe(over("A2", alt: 1000, dist: 1), now: 1)   // A1 ends: one waiting
        #expect(lines().isEmpty, "one line waits for its batch")
        #expect(log.nextWake == 1 + log.flushInterval, "or for the flush interval")
        log.observe(over("A3", alt: 1000, dist: 1), now: 2)   // A2 ends: a full batch
        #expect(lines().count == 2 && lines()[0].contains("\"A1\"") && lines()[1].contains("\"A2\""))
        #expect(log.nextWake == nil)
        log.close()                                           // A3 ends at exit
        #expect(lines().count == 3)
        // Past the size limit the file becomes .1 and a new one starts.
        log.rotateBytes = 10
        log.observe(over("B1", alt: 1000, dist: 1), now: 3)
        log.close()
        #expect(lines().count == 1 && lines()[0].contains("\"B1\""))
        #expect(try String(contentsOfFile: log.path + ".1", encoding: .utf8).split(separator: "\n").count == 3)
        // A file that cannot be written: the lines are kept for the next try.
        let stuck = OverflightLog(path: dir + "/no/such/dir/log.jsonl")
        stuck.observe(over("C1", alt: 1000, dist: 1), now: 0)
        stuck.close()
        #expect(stuck.nextWake != nil, "still waiting to be written")
    }
}
