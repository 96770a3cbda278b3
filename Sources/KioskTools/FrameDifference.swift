import Raster

/// Per-channel differences between two frames of the same size, over a
/// region: how a rendering is compared with an independent one (the cairo
/// reference frames, or a screendump of the DRM display).
public struct FrameDifference: CustomStringConvertible {
    public private(set) var channels = 0
    public private(set) var sum = 0
    public private(set) var over8 = 0
    public private(set) var over32 = 0
    public private(set) var largest = 0

    public var mean: Double { channels == 0 ? 0 : Double(sum) / Double(channels) }
    public var shareOver8: Double { channels == 0 ? 0 : Double(over8) / Double(channels) }
    public var shareOver32: Double { channels == 0 ? 0 : Double(over32) / Double(channels) }

    /// Compares the R, G and B channels of the pixels for which `include(x, y)` holds.
    public init(_ a: PixelBuffer, _ b: PixelBuffer, include: (Int, Int) -> Bool = { _, _ in true }) {
        precondition(a.width == b.width && a.height == b.height, "frames differ in size")
        for y in 0..<a.height {
            let ra = a.row(y), rb = b.row(y)
            for x in 0..<a.width where include(x, y) {
                let pa = ra[x], pb = rb[x]
                for shift in [0, 8, 16] as [UInt32] {
                    let d = abs(Int((pa >> shift) & 0xFF) - Int((pb >> shift) & 0xFF))
                    sum += d
                    if d > 8 { over8 += 1 }
                    if d > 32 { over32 += 1 }
                    largest = max(largest, d)
                    channels += 1
                }
            }
        }
    }

    public var description: String {
        let pct = { (v: Double) in String((v * 10000).rounded() / 100) + " %" }
        return "mean \(String((mean * 1000).rounded() / 1000)), >8: \(pct(shareOver8)), >32: \(pct(shareOver32)), max \(largest)"
    }
}
