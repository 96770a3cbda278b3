import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import SystemIO

/// A crew does every part of every job once, each part on its own thread,
/// and is done when `run` returns.
@Suite struct WorkerCrewTests {
    /// Counts per part, written by that part's thread alone.
    final class Tally: @unchecked Sendable {
        var runs: [Int]
        var threads: [pthread_t?]
        init(_ parts: Int) {
            runs = Array(repeating: 0, count: parts)
            threads = Array(repeating: nil, count: parts)
        }
    }

    @Test func everyPartRunsOnceAJobOnItsOwnThread() throws {
        let tally = Tally(4)
        let crew = try WorkerCrew(size: 4, name: "test-crew") { index in
            tally.runs[index] += 1
            tally.threads[index] = pthread_self()
        }
        for job in 1...500 {
            crew.run()
            // Read after run returns: every part is done by then.
            #expect(tally.runs == [job, job, job, job])
            if tally.runs != [job, job, job, job] { break }
        }
        #expect(tally.threads[0].map { pthread_equal($0, pthread_self()) != 0 } == true, "part 0 runs on the caller's thread")
        let others = tally.threads.dropFirst().compactMap { $0 }
        #expect(others.count == 3 && others.allSatisfy { pthread_equal($0, pthread_self()) == 0 })
        #expect(pthread_equal(others[0], others[1]) == 0 && pthread_equal(others[1], others[2]) == 0 && pthread_equal(others[0], others[2]) == 0)
    }

    /// A job asked for before the crew's threads first ran is still done by
    /// them (a thread that counted jobs from its own start waited forever).
    @Test func aJobAskedForAtOnceIsDone() throws {
        for _ in 0..<200 {
            let tally = Tally(3)
            let crew = try WorkerCrew(size: 3, name: "test-crew") { tally.runs[$0] += 1 }
            crew.run()
            #expect(tally.runs == [1, 1, 1])
        }
    }

    @Test func aCrewOfOneIsTheCaller() throws {
        let tally = Tally(1)
        let crew = try WorkerCrew(size: 1, name: "test-crew") { tally.runs[$0] += 1 }
        crew.run()
        crew.run()
        #expect(tally.runs == [2])
    }

    @Test func theProcessorsAvailableAreCounted() {
        #expect(Processors.available >= 1 && Processors.available <= 4096)
    }
}
