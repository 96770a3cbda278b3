#if canImport(Glibc)
import Glibc
#endif
import KioskModel
import KioskRendering
import Raster
import SystemIO

/// `radar-kiosk soak`: the headless kiosk through simulated time at the
/// display's rate, a state change every few seconds and the numbers changing
/// every second, as a kiosk lives for months. Resident memory must stay flat
/// after warm-up (within 1 MiB), no frame may take longer than a refresh, and
/// the glyph cache stays bounded.
public enum Soak {
    static func residentBytes() -> Int {
        guard let text = try? FileContents.text("/proc/self/statm", limit: 4096) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    public static func run(_ args: ParsedArguments) throws -> Int32 {
        let minutes = try args.number("--minutes", default: 60, range: 0.1...100_000)
        let size = try args.size(default: "800x480")
        let refresh = try args.number("--refresh", default: 60, range: 1...240)
        let fonts = try FontSet(directory: args.value("--fonts"))
        let renderer = KioskRenderer(fonts: fonts)
        let controller = KioskController(layout: KioskLayout(width: size.width, height: size.height), measure: renderer)
        let tick = FrameTick(controller: controller, renderer: renderer, buffer: PixelBuffer(width: size.width, height: size.height))
        let budget = 1000 / refresh
        let totalFrames = Int(minutes * 60 * refresh)
        // A fixed histogram (10 µs bins to 100 ms): the soak's own bookkeeping must
        // not grow with time, or it would be the leak it measures.
        var histogram = [Int](repeating: 0, count: 10_001)
        var worst = 0.0
        // The budget is judged on the thread's CPU time (the kiosk's own work);
        // wall time on a shared machine also counts preemption, and is reported beside it.
        var worstWall = 0.0
        var curve: [(minute: Double, bytes: Int)] = []
        var maxGlyphs = 0
        var aircraftIndex = 0
        var overflight = false
        var changes = 0
        let warmupFrames = Int(min(120, minutes * 60 / 4) * refresh)
        var warmupBytes = 0
        for frame in 0..<totalFrames {
            let t = Double(frame) / refresh
            let whole = frame % Int(refresh) == 0
            // Every 4 s the mode changes (or another aircraft replaces the shown one);
            // every second the shown aircraft's numbers move.
            if whole && Int(t) % 4 == 0 {
                changes += 1
                if changes % 3 == 0 {
                    aircraftIndex = (aircraftIndex + 1) % Demo.aircraft.count
                } else {
                    overflight.toggle()
                }
            }
            if whole {
                var a = Demo.aircraft[aircraftIndex]
                let second = Int(t)
                a.altitudeFeet = (a.altitudeFeet ?? 10_000) + (second % 17) * 25
                a.groundSpeedKnots = (a.groundSpeedKnots ?? 300) + second % 9
                a.distanceNM = ((a.distanceNM ?? 3) + Double(second % 11) * 0.1 * 10).rounded() / 10
                a.bearingDegrees = Double((Int(a.bearingDegrees ?? 0) + second % 13) % 360)
                controller.apply(overflight ? KioskState(mode: .overflight, aircraft: a) : .standby, at: t)
            }
            let t0 = MonotonicClock.now(), c0 = MonotonicClock.threadCPUTime()
            try tick.run(at: t)
            let ms = (MonotonicClock.threadCPUTime() - c0) * 1000
            worstWall = max(worstWall, (MonotonicClock.now() - t0) * 1000)
            histogram[min(Int(ms * 100), 10_000)] += 1
            worst = max(worst, ms)
            maxGlyphs = max(maxGlyphs, renderer.text.glyphs.count)
            if frame == warmupFrames {
                warmupBytes = residentBytes()
                renderer.text.glyphs.resetCounters()
            }
            if frame % Int(60 * refresh) == 0 || frame == totalFrames - 1 { curve.append((t / 60, residentBytes())) }
        }
        func percentile(_ p: Double) -> Double {
            let rank = Int((p / 100 * Double(totalFrames)).rounded(.up))
            var seen = 0
            for (bin, n) in histogram.enumerated() {
                seen += n
                if seen >= rank { return Double(bin) / 100 }
            }
            return worst
        }
        let timings = FrameTimings(capacity: 0)
        let endBytes = residentBytes()
        let growth = endBytes - warmupBytes
        print("soak: \(totalFrames) frames, \(size.width)x\(size.height) at \(timings.format(refresh)) Hz, \(timings.format(minutes)) simulated minutes, \(changes) state changes")
        print("soak: resident memory (MiB) by simulated minute: " + curve.map { "\(Int($0.minute.rounded())):\(timings.format(Double($0.bytes) / 1_048_576))" }.joined(separator: " "))
        print("soak: frame CPU ms median \(timings.format(percentile(50))) p99 \(timings.format(percentile(99))) "
              + "p99.9 \(timings.format(percentile(99.9))) max \(timings.format(worst)) (budget \(timings.format(budget))); "
              + "wall max \(timings.format(worstWall))")
        let lookups = renderer.text.glyphs.hits + renderer.text.glyphs.misses
        let hitRate = lookups == 0 ? 1 : Double(renderer.text.glyphs.hits) / Double(lookups)
        print("soak: glyph cache at most \(maxGlyphs) of \(renderer.text.glyphs.capacity), hit rate after warm-up \(timings.format(hitRate * 100)) %; "
              + "growth after warm-up \(growth / 1024) KiB")
        var failures: [String] = []
        if growth > 1 << 20 { failures.append("resident memory grew \(growth / 1024) KiB after warm-up (limit 1024)") }
        if worst > budget { failures.append("a frame took \(timings.format(worst)) ms of CPU, over the \(timings.format(budget)) ms budget") }
        // A cache too small for the kiosk's own text would rasterize glyphs every frame.
        if hitRate < 0.99 { failures.append("the glyph cache thrashes: \(timings.format(hitRate * 100)) % hits after warm-up (want 99 %)") }
        for f in failures { print("soak: FAIL: \(f)") }
        print(failures.isEmpty ? "soak: 1 passed, 0 failed" : "soak: 0 passed, 1 failed")
        return failures.isEmpty ? 0 : 1
    }
}
