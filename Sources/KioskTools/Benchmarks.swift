import AnimationCore
import Display
import Feed
import KioskModel
import KioskRendering
import SystemIO
import Raster
import Typography

/// `radar-kiosk bench`: times frames with the anchors' protocol (warm-up
/// frames, then each frame timed alone with the monotonic clock) and reports
/// heap allocations made by the timed frames.
public enum Benchmarks {
    public static func run(_ args: ParsedArguments) throws -> Int32 {
        let which = try args.onlyPositional("bench", "of: reference, text, app, copy")
        AllocationCounter.preloadIfAvailable()
        let sizes = try (args.all("--size").isEmpty ? ["1920x1080", "800x480"] : args.all("--size")).map { try parseSize($0) }
        let frames = try args.integer("--frames", default: 300, range: 1...1_000_000)
        let warmup = try args.integer("--warmup", default: 30, range: 0...1_000_000)
        let fonts = try FontSet(directory: args.value("--fonts"))
        // At least two by default, so that the speed-up of bands is measured even on one core.
        let threads = try args.integer("--threads", default: max(KioskConfiguration.automaticRenderThreads(available: Processors.available), 2),
                                       range: 1...8)
        switch which {
        case "reference":
            if let band = args.value("--band") {
                let (index, count) = try bandOption(band)
                for size in sizes { try referenceBand(index, of: count, size: size, frames: frames, warmup: warmup, fonts: fonts) }
                return 0
            }
            for size in sizes {
                // One thread, and `threads` drawing it in bands, frame by frame in turn: the speed-up is of one run.
                let reference = try ReferenceFrame(width: size.width, height: size.height, fonts: fonts)
                let banded = threads > 1 ? try ReferenceFrame.Banded(width: size.width, height: size.height, threads: threads, fonts: fonts) : nil
                for n in 0..<warmup { reference.draw(frame: n); banded?.draw(frame: n) }
                var timings = FrameTimings(capacity: frames), bandedTimings = FrameTimings(capacity: frames)
                var allocations: UInt64 = 0, bandedAllocations: UInt64 = 0
                for n in 0..<frames {
                    let a0 = (AllocationCounter.total ?? 0)
                    let t0 = MonotonicClock.now()
                    reference.draw(frame: n)
                    let t1 = MonotonicClock.now()
                    let a1 = (AllocationCounter.total ?? 0)
                    timings.append((t1 - t0) * 1000)
                    allocations += a1 - a0
                    guard let banded else { continue }
                    banded.draw(frame: n)
                    bandedTimings.append((MonotonicClock.now() - t1) * 1000)
                    bandedAllocations += (AllocationCounter.total ?? 0) - a1
                }
                print(timings.resultLine(name: "radar-kiosk", width: size.width, height: size.height)
                      + " allocations_per_frame=\(perFrame(allocations, frames)) threads=1")
                if banded != nil {
                    print(bandedTimings.resultLine(name: "radar-kiosk-threads\(threads)", width: size.width, height: size.height)
                          + " allocations_per_frame=\(perFrame(bandedAllocations, frames)) threads=\(threads)"
                          + " speedup_vs_1_thread=\(timings.format(timings.median / max(bandedTimings.median, 1e-9)))")
                }
            }
            return 0
        case "app":
            for size in sizes { try app(size: size, frames: frames, warmup: warmup, threads: threads, fonts: fonts) }
            try handOff(threads: threads, frames: frames)
            sampling(frames: frames)
            return 0
        case "text":
            try text(fonts: fonts, frames: frames)
            return 0
        case "copy":
            for size in sizes { copy(size: size, frames: frames) }
            return 0
        default:
            throw ArgumentError("bench \(which): unknown benchmark; expected reference, text, app or copy")
        }
    }

    /// `--band K/N`: band K (0...N-1) of N, N in 2...8.
    static func bandOption(_ text: String) throws -> (index: Int, count: Int) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), (2...8).contains(n), (0..<n).contains(k) else {
            throw ArgumentError("--band \(text): expected K/N, band K (0 to N-1) of N bands, N 2...8, e.g. 1/2")
        }
        return (k, n)
    }

    /// One band of the reference frame (of even cuts, paired about the dial's
    /// centre), drawn alone on the calling thread by the code a band thread
    /// runs: what one of `count` threads does per frame.
    static func referenceBand(_ index: Int, of count: Int, size: PixelSize, frames: Int, warmup: Int, fonts: FontSet) throws {
        let cuts = BandSplit(count: count, height: size.height).band(index, width: size.width,
                                                                    mirrorSum: ReferenceFrame.mirrorSum(height: size.height))
        let band = try ReferenceFrame(width: size.width, height: size.height, fonts: fonts, rows: cuts.rows, skipping: cuts.skipped)
        for n in 0..<warmup { band.draw(frame: n) }
        var timings = FrameTimings(capacity: frames)
        let a0 = AllocationCounter.total ?? 0
        for n in 0..<frames {
            let t0 = MonotonicClock.now()
            band.draw(frame: n)
            timings.append((MonotonicClock.now() - t0) * 1000)
        }
        let allocations = (AllocationCounter.total ?? 0) - a0
        print(timings.resultLine(name: "radar-kiosk-band\(index)of\(count)", width: size.width, height: size.height)
              + " allocations_per_frame=\(perFrame(allocations, frames)) threads=1")
    }

    static func line(_ name: String, _ size: PixelSize, _ t: FrameTimings, allocations: UInt64) -> String {
        t.resultLine(name: name, width: size.width, height: size.height)
            + " p99_ms=\(t.format(t.percentile(99))) allocations_per_frame=\(perFrame(allocations, t.count))"
    }

    /// Allocations per frame, or "not-counted" without the counter beside the binary.
    static func perFrame(_ allocations: UInt64, _ frames: Int) -> String {
        AllocationCounter.isLoaded ? "\(Double(allocations) / Double(max(frames, 1)))" : "not-counted"
    }

    /// The kiosk's own frames (sample the scene, draw it): sweeping in standby,
    /// and during standby ⇄ overflight transitions, 60 Hz timestamps.
    /// Sweeping and traffic frames are drawn with `threads` (their whole
    /// frames in bands); transitions on one thread and on `threads`.
    static func app(size: PixelSize, frames: Int, warmup: Int, threads: Int, fonts: FontSet) throws {
        let buffer = PixelBuffer(width: size.width, height: size.height)
        func makeTick(threads: Int = threads) -> FrameTick {
            let renderer = KioskRenderer(fonts: fonts)
            renderer.drawWholeFrames(threads: threads)
            return FrameTick(controller: KioskController(layout: KioskLayout(width: size.width, height: size.height), measure: renderer),
                             renderer: renderer, buffer: buffer)
        }
        // Sweeping: standby, nothing else changing.
        do {
            let tick = makeTick()
            var t = 0.0
            for _ in 0..<warmup { tick.draw(at: t); t += 1.0 / 60 }
            var timings = FrameTimings(capacity: frames)
            var allocations: UInt64 = 0
            for _ in 0..<frames {
                let a0 = (AllocationCounter.total ?? 0)
                let t0 = MonotonicClock.now()
                tick.draw(at: t)
                let t1 = MonotonicClock.now()
                allocations += (AllocationCounter.total ?? 0) - a0
                timings.append((t1 - t0) * 1000)
                t += 1.0 / 60
            }
            print(line("radar-kiosk-app-sweeping", size, timings, allocations: allocations) + " threads=\(threads)")
        }
        // Sweeping with 50 aircraft on the dial, a feed update every second
        // (the update itself is an event, not timed; the frames after it are).
        do {
            let tick = makeTick()
            let traffic = SyntheticTraffic(count: 50)
            tick.controller.feed = FeedInterpreter(sourceName: "bench", selector: OverheadSelector(settings: .init(station: traffic.station)))
            var t = 0.0, second = -1
            var timings = FrameTimings(capacity: frames)
            var allocations: UInt64 = 0
            for frame in 0..<(warmup + frames) {
                if Int(t) != second {
                    second = Int(t)
                    _ = tick.controller.handle(.feed([.snapshot(traffic.snapshot(at: Double(second)))]), at: t)
                }
                let a0 = (AllocationCounter.total ?? 0)
                let t0 = MonotonicClock.now()
                tick.draw(at: t)
                let t1 = MonotonicClock.now()
                if frame >= warmup {
                    allocations += (AllocationCounter.total ?? 0) - a0
                    timings.append((t1 - t0) * 1000)
                }
                t += 1.0 / 60
            }
            print(line("radar-kiosk-app-traffic50", size, timings, allocations: allocations) + " blips=\(tick.controller.traffic.blips.count)"
                  + " threads=\(threads)")
        }
        // Transitions: a state change every 1.5 s; only frames inside a transition count.
        // The first two changes (one each way) fill the glyph cache with the
        // sizes the gliding texts pass through: counted apart, not timed.
        // Drawn on one thread and on `threads`, frame by frame in turn, so
        // that both see the same machine: the speed-up is of one run.
        do {
            let ticks = [makeTick(threads: 1)] + (threads > 1 ? [makeTick(threads: threads)] : [])
            var timings = ticks.map { _ in FrameTimings(capacity: frames) }
            var t = 0.0, nextChange = 0.5, toggle = true, frame = 0
            let warmup = max(warmup, Int((0.5 + 2 * 1.5) * 60))
            var allocations: [UInt64] = ticks.map { _ in 0 }
            var changeAllocations: UInt64 = 0, changes: UInt64 = 0, warming: UInt64 = 0
            while timings[0].count < frames && frame < frames * 20 {
                if t >= nextChange {
                    let a0 = (AllocationCounter.total ?? 0)
                    for tick in ticks { tick.controller.apply(toggle ? Demo.sampleOverflight : .standby, at: t) }
                    if frame > warmup { changeAllocations += (AllocationCounter.total ?? 0) - a0; changes += UInt64(ticks.count) }
                    toggle.toggle()
                    nextChange += 1.5
                }
                for (i, tick) in ticks.enumerated() {
                    // Every thread's allocations: the bands' are drawn on the crew's.
                    let before = (AllocationCounter.total ?? 0)
                    let t0 = MonotonicClock.now()
                    let animating = tick.controller.isAnimating(at: t)
                    tick.draw(at: t)
                    let ms = (MonotonicClock.now() - t0) * 1000
                    if animating && frame > warmup {
                        timings[i].append(ms)
                        allocations[i] += (AllocationCounter.total ?? 0) - before
                    } else if frame <= warmup {
                        warming += (AllocationCounter.total ?? 0) - before
                    }
                }
                t += 1.0 / 60
                frame += 1
            }
            // The frames' own allocations; a state change (a new leaf list, its
            // strings fitted to the card) is an event, counted apart.
            for (i, tick) in ticks.enumerated() {
                let threadsNote = " threads=\(tick.renderer.threads)"
                    + (i == 0 ? "" : " speedup_vs_1_thread=\(timings[0].format(timings[0].median / max(timings[i].median, 1e-9)))")
                print(line("radar-kiosk-app-transition" + (i == 0 ? "" : "-threads\(tick.renderer.threads)"), size, timings[i],
                           allocations: allocations[i]) + threadsNote
                      + (AllocationCounter.total == nil ? "" : " allocations_per_change=\(changes == 0 ? 0 : changeAllocations / changes)"
                         + " allocations_warming_glyphs=\(warming)"))
            }
        }
    }

    /// What handing a frame to the band threads costs: a job whose parts do
    /// nothing, from asking to every part done (the threads' wake-up and the
    /// caller's). A whole frame is drawn in bands only when it costs many
    /// times this; a sweep frame's few boxes are not.
    static func handOff(threads: Int, frames: Int) throws {
        guard threads > 1 else { return }
        let crew = try WorkerCrew(size: threads, name: "radar-bench") { _ in }
        var timings = FrameTimings(capacity: frames)
        for _ in 0..<frames {
            let t0 = MonotonicClock.now()
            crew.run()
            timings.append((MonotonicClock.now() - t0) * 1000)
        }
        print(timings.resultLine(name: "radar-kiosk-band-hand-off", width: 0, height: 0) + " threads=\(threads)")
    }

    /// Sampling the animation core: 200 leaves, 50 of them animating.
    static func sampling(frames: Int) {
        let graph = SceneGraph()
        func leaves(_ shift: Double) -> [LeafDescription] {
            (0..<200).map { i in
                LeafDescription(id: NodeID("leaf\(i)"), frame: AnimatableRect(x: i < 50 ? shift : 0, y: Double(i), width: 10, height: 10),
                                content: .text("L\(i)"))
            }
        }
        graph.update(to: leaves(0), transaction: Transaction(), at: 0)
        graph.update(to: leaves(800), transaction: Transaction(animation: .spring(duration: 1000, bounce: 0.2)), at: 0)
        graph.sample(at: 0.001)
        var timings = FrameTimings(capacity: frames)
        var allocations: UInt64 = 0
        for i in 1...max(frames, 1) {
            let a0 = (AllocationCounter.thisThread ?? 0)
            let t0 = MonotonicClock.now()
            graph.sample(at: Double(i) / 60)
            let t1 = MonotonicClock.now()
            allocations += (AllocationCounter.thisThread ?? 0) - a0
            timings.append((t1 - t0) * 1000)
        }
        print(line("animation-core-sample-200-leaves-50-animating", PixelSize(width: 0, height: 0), timings, allocations: allocations))
    }

    /// What presenting costs: copying the damaged rows of the cached frame into
    /// a scanout-sized buffer (on a board, the mapped dumb buffer), for a full
    /// frame, for the dial's sweep band (a third of the rows), turned a quarter,
    /// and converted to RGB565.
    static func copy(size: PixelSize, frames: Int) {
        let source = PixelBuffer(width: size.width, height: size.height)
        source.fill(0xFF11_2233)
        let target = UnsafeMutableRawPointer.allocate(byteCount: size.width * size.height * 4, alignment: 64)
        defer { target.deallocate() }
        let cases: [(String, Int, DisplayRotation, ScanoutPixelFormat)] = [
            ("full", size.height, .upright, .xrgb8888), ("partial-third", size.height / 3, .upright, .xrgb8888),
            ("full-turned-90", size.height, .quarterTurn, .xrgb8888), ("full-rgb565", size.height, .upright, .rgb565),
        ]
        for (name, rows, rotation, format) in cases {
            let copier = ScanoutCopier(rotation: rotation, format: format, frameWidth: size.width, frameHeight: size.height)
            let pitch = copier.bufferWidth * format.bytesPerPixel
            var timings = FrameTimings(capacity: frames)
            let rect = IntRect(x: 0, y: (size.height - rows) / 2, width: size.width, height: rows)
            for _ in 0..<frames {
                let t0 = MonotonicClock.now()
                copier.copy(rect, of: source, to: target, pitch: pitch)
                timings.append((MonotonicClock.now() - t0) * 1000)
            }
            print(timings.resultLine(name: "radar-kiosk-copy-\(name)", width: size.width, height: size.height))
        }
    }

    /// Glyphs per second from a warm cache, at 16, 40 and 72 px.
    static func text(fonts: FontSet, frames: Int) throws {
        let buffer = PixelBuffer(width: 1920, height: 200)
        let canvas = Canvas(target: buffer)
        let renderer = TextRenderer()
        let sample = "ALT 36,000 ft GS 487 kt DIST 3.2 NM BRG 274° BAW283"
        for size: Float in [16, 40, 72] {
            let font = try Font(face: fonts.regular, size: size)
            renderer.draw(sample, font: font, at: Point(4, 150), color: .white, in: canvas)
            renderer.glyphs.resetCounters()
            let glyphs = renderer.shaper.shape(sample, font: font).glyphs.count
            let repetitions = max(frames, 1) * 10
            let before = (AllocationCounter.thisThread ?? 0)
            let t0 = MonotonicClock.now()
            for _ in 0..<repetitions {
                renderer.draw(sample, font: font, at: Point(4, 150), color: .white, in: canvas)
            }
            let seconds = MonotonicClock.now() - t0
            let allocations = (AllocationCounter.thisThread ?? 0) - before
            let perSecond = Double(glyphs * repetitions) / seconds
            let hitRate = Double(renderer.glyphs.hits) / Double(max(renderer.glyphs.hits + renderer.glyphs.misses, 1))
            print("RESULT radar-kiosk-text \(Int(size))px glyphs_per_second=\(Int(perSecond)) ns_per_glyph=\((seconds / Double(glyphs * repetitions) * 1e9 * 10).rounded() / 10) "
                  + "cache_hit_rate=\(hitRate) allocations=\(allocations)" + BuildTarget.resultField)
        }
    }
}

