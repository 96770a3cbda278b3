@_exported import CAllocationCounter

/// What the allocation tests need to know of the counter: whether counting
/// means anything in this build. Under AddressSanitizer or ThreadSanitizer the
/// sanitizer owns malloc, and an unoptimised (debug) build allocates where the
/// optimiser would promote to the stack (6,000 allocations while sampling), so
/// "no allocation per frame" is a property of release builds only: the tests
/// are skipped there, saying why.
public enum AllocationCounting {
    public static var works: Bool { radar_allocation_counting() != 0 && isOptimised }

    public static var isOptimised: Bool {
        #if DEBUG
        return false
        #else
        return true
        #endif
    }

    /// Why the allocation tests are skipped, when they are.
    public static var why: String {
        radar_allocation_counting() == 0 ? "a sanitizer owns malloc: allocations are not counted"
            : "an unoptimised build allocates where a release build does not: run swift test -c release"
    }

    /// Allocations the calling thread makes in `body`.
    public static func count(_ body: () throws -> Void) rethrows -> UInt64 {
        let before = radar_thread_allocation_count()
        try body()
        return radar_thread_allocation_count() - before
    }
}
