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

    /// A tree as a broken install or a hostile user might leave it: every
    /// lookup through it finds nothing, at once (no hang on a FIFO, no loop
    /// through a symlink or through "children", no huge file parsed).
    @Test func aHostileTreeFindsNothingAndNeverHangs() throws {
        let dir = try database()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: dir + "/1.json", withDestinationPath: dir + "/1.json")   // a loop
        try fm.createSymbolicLink(atPath: dir + "/2.json", withDestinationPath: "/dev/zero")       // endless bytes
        #expect(mkfifo(dir + "/5.json", 0o600) == 0)                                              // blocks a plain open
        try String(repeating: "[", count: 200_000).write(toFile: dir + "/6.json", atomically: true, encoding: .utf8)
        try #"{"children":["7A"],"#.write(toFile: dir + "/7.json", atomically: true, encoding: .utf8)  // cut short
        // "children" naming itself at every level: at most six files, one per digit.
        for prefix in ["8", "8A", "8AA", "8AAA", "8AAAA", "8AAAAA"] {
            try #"{"children":["\#(prefix)A", "\#(prefix)"]}"#.write(toFile: dir + "/\(prefix).json", atomically: true, encoding: .utf8)
        }
        // Over the size limit, though it holds the answer: refused, not parsed.
        let padding = String(repeating: #""000000":{"r":"X"},"#, count: SkyAwareDatabase.fileLimit / 18)
        try (#"{"# + padding + #""9ABCD":{"r":"G-HUGE","t":"A388"}}"#).write(toFile: dir + "/9.json", atomically: true, encoding: .utf8)
        for hex in ["1ABCDE", "2ABCDE", "5ABCDE", "6ABCDE", "7ABCDE", "8AAAAA", "99ABCD"] {
            #expect(SkyAwareDatabase.read(hex, in: dir) == nil, "\(hex)")
        }
        #expect(SkyAwareDatabase.read("4CA7B5", in: dir) != nil, "the good part of the tree still answers")
    }
}
