#if canImport(Glibc)
import Glibc
#endif
import SystemIO

/// The heap allocation counter, for benchmarks: a small library
/// (libRadarAllocationCounter.so, built beside the binary) that interposes
/// malloc when preloaded. The kiosk itself never carries it; `bench` runs
/// itself again with it preloaded, and reads it through the dynamic linker.
public enum AllocationCounter {
    private typealias Count = @convention(c) () -> UInt64
    private static let processCount: Count? = symbol("radar_allocation_count")
    private static let threadCount: Count? = symbol("radar_thread_allocation_count")

    private static func symbol(_ name: String) -> Count? {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: Count.self) }
    }

    /// Whether allocations are being counted in this process.
    public static var isLoaded: Bool { threadCount != nil }

    /// Allocations made by the process so far (nil when not counted).
    public static var total: UInt64? { processCount?() }

    /// Allocations made by the calling thread so far (nil when not counted).
    public static var thisThread: UInt64? { threadCount?() }

    /// When the counter is not loaded but lies beside the executable, runs
    /// this command again with it preloaded (it does not return then).
    public static func preloadIfAvailable() {
        guard !isLoaded, getenv("RADAR_KIOSK_PRELOADED") == nil else { return }
        guard let exe = Executable.path, let directory = Executable.directory else { return }
        let library = directory + "/libRadarAllocationCounter.so"
        guard access(library, R_OK) == 0 else { return }
        setenv("LD_PRELOAD", library, 1)
        setenv("RADAR_KIOSK_PRELOADED", "1", 1)
        let arguments = CommandLine.arguments.map { strdup($0) } + [nil]
        execv(exe, arguments)
    }
}
