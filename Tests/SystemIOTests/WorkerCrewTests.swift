import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import SystemIO

/// A crew does every part of every job once, each part on its own thread,
/// and is done when `run` returns.
@Suite struct WorkerCrewTests {
    /// Counts per part, each written by its part's thread alone: raw memory,
    /// since parts of one Swift array written from several threads are
    /// accesses to the one array (ThreadSanitizer says so).
    final class Tally: @unchecked Sendable {
        let parts: Int
        private let counts: UnsafeMutablePointer<Int>
        private let ids: UnsafeMutablePointer<pthread_t>
        init(_ parts: Int) {
            self.parts = parts
            counts = .allocate(capacity: parts)
            counts.initialize(repeating: 0, count: parts)
            ids = .allocate(capacity: parts)
            ids.initialize(repeating: 0, count: parts)
        }
        deinit {
            counts.deallocate()
            ids.deallocate()
        }
        /// Part `index` ran, on this thread.
        func ran(_ index: Int) {
            counts[index] += 1
            ids[index] = pthread_self()
        }
        var runs: [Int] { Array(UnsafeBufferPointer(start: counts, count: parts)) }
        var threads: [pthread_t?] { (0..<parts).map { ids[$0] == 0 ? nil : ids[$0] } }
    }

    @Test func everyPartRunsOnceAJobOnItsOwnThread() throws {
        let tally = Tally(4)
        let crew = try WorkerCrew(size: 4, name: "test-crew") { tally.ran($0) }
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
            let crew = try WorkerCrew(size: 3, name: "test-crew") { tally.ran($0) }
            crew.run()
            #expect(tally.runs == [1, 1, 1])
        }
    }

    @Test func aCrewOfOneIsTheCaller() throws {
        let tally = Tally(1)
        let crew = try WorkerCrew(size: 1, name: "test-crew") { tally.ran($0) }
        crew.run()
        crew.run()
        #expect(tally.runs == [2])
    }

    @Test func theProcessorsAvailableAreCounted() {
        #expect(Processors.available >= 1 && Processors.available <= 4096)
    }
}
