import Raster
import Typography

/// `radar-kiosk bench`: times frames with the anchors' protocol (warm-up
/// frames, then each frame timed alone with the monotonic clock) and reports
/// heap allocations made by the timed frames.
enum Benchmarks {
    static func run(_ args: ParsedArguments) throws -> Int32 {
        guard let which = args.positional.first, args.positional.count == 1 else {
            throw ArgumentError("bench needs one of: reference, text, app")
        }
        let sizes = try (args.all("--size").isEmpty ? ["1920x1080", "800x480"] : args.all("--size")).map { try parseSize($0) }
        let frames = try parseInt(args.value("--frames"), flag: "--frames", default: 300, range: 1...1_000_000)
        let warmup = try parseInt(args.value("--warmup"), flag: "--warmup", default: 30, range: 0...1_000_000)
        let fonts = try FontSet(directory: args.value("--fonts"))
        switch which {
        case "reference":
            for size in sizes {
                let reference = try ReferenceFrame(width: size.width, height: size.height, fonts: fonts)
                for n in 0..<warmup { reference.draw(frame: n) }
                var timings = FrameTimings(capacity: frames)
                let allocationsBefore = heapAllocationCount()
                for n in 0..<frames {
                    let t0 = MonotonicClock.now()
                    reference.draw(frame: n)
                    timings.append((MonotonicClock.now() - t0) * 1000)
                }
                let allocations = heapAllocationCount() - allocationsBefore
                print(timings.resultLine(name: "radar-kiosk", width: size.width, height: size.height)
                      + " allocations_per_frame=\(Double(allocations) / Double(frames))")
            }
            return 0
        default:
            throw ArgumentError("bench \(which): unknown benchmark; expected reference, text or app")
        }
    }
}
