import Testing
import Foundation
@testable import StandingData

/// PiAware's installed aircraft database, in the shape dump1090-fa ships it:
/// files by address prefix, deeper files named under "children".
@Suite struct SkyAwareDatabaseTests {
    func database() throws -> String {
        let dir = NSTemporaryDirectory() + "rk-skyaware-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let files = [
            "4.json": #"{"children":["4C"],"0A1B2":{"r":"OE-LBA","t":"A320","f":"00"}}"#,
            "3.json": #"{"A1B2C":["G-ABCD","A319","00"]}"#,
            "4C.json": #"{"children":["4CA"],"0000":{"r":"EI-AAA","t":"B738"}}"#,
            "4CA.json": #"{"7B5":{"r":"EI-DCL","t":"B738","f":"00","d":"Boeing 737-8AS"}}"#,
        ]
        for (name, text) in files { try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8) }
        return dir
    }

    @Test func addressesAreFoundThroughTheChildrenFiles() throws {
        let dir = try database()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(SkyAwareDatabase.read("4CA7B5", in: dir) == .init(registration: "EI-DCL", typeDesignator: "B738"), "three files deep")
        #expect(SkyAwareDatabase.read("4C0000", in: dir) == .init(registration: "EI-AAA", typeDesignator: "B738"))
        #expect(SkyAwareDatabase.read("40A1B2", in: dir) == .init(registration: "OE-LBA", typeDesignator: "A320"), "in the first file")
        #expect(SkyAwareDatabase.read("400000", in: dir) == nil, "not in 4.json, and 40 is not a child: nothing")
        #expect(SkyAwareDatabase.read("40A1B", in: dir) == nil && SkyAwareDatabase.read("40A1B2F", in: dir) == nil, "not six digits")
        #expect(SkyAwareDatabase.read("4D0000", in: dir) == nil, "4D is not a child of 4")
    }

    @Test func theArrayFormOfItsForksIsReadToo() throws {
        let dir = try database()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(SkyAwareDatabase.read("3A1B2C", in: dir) == .init(registration: "G-ABCD", typeDesignator: "A319"))
    }

    @Test func lookupsFromTheLoopNeverReadFilesThemselves() throws {
        let dir = try database()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = SkyAwareDatabase(directory: dir)
        #expect(db.record(forAddress: "4ca7b5") == nil, "the first lookup queues the read and answers at once")
        db.finishPending()
        #expect(db.record(forAddress: "4ca7b5")?.typeDesignator == "B738", "read on the worker, there next time")
        #expect(db.record(forAddress: "4d0000") == nil)
        db.finishPending()
        #expect(db.record(forAddress: "4d0000") == nil, "unknown stays unknown, without reading again")
        #expect(SkyAwareDatabase(directory: "/nonexistent").record(forAddress: "4ca7b5") == nil)
    }
}
