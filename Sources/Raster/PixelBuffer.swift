/// A 32-bit premultiplied image: byte order B, G, R, A (or X) per pixel, as a
/// DRM XRGB8888/ARGB8888 buffer holds it on little-endian machines.
///
/// Rows may be longer than the width (`rowPixels` ≥ `width`): scanout buffers of
/// real panels have a pitch larger than width × 4. The buffer either owns its
/// memory or wraps memory owned elsewhere (a mapped dumb buffer).
public final class PixelBuffer {
    public let width: Int
    public let height: Int
    /// Distance between rows, in pixels.
    public let rowPixels: Int
    public let pixels: UnsafeMutablePointer<UInt32>
    private let ownsMemory: Bool

    /// A new buffer of transparent black pixels.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a pixel buffer needs a positive size, not \(width)x\(height)")
        self.width = width
        self.height = height
        // Rows padded to 16 pixels so that vector loops may run to the row's end.
        self.rowPixels = (width + 15) & ~15
        self.pixels = .allocate(capacity: rowPixels * height)
        self.pixels.initialize(repeating: 0, count: rowPixels * height)
        self.ownsMemory = true
    }

    /// Wraps memory owned by someone else; `strideBytes` must be a multiple of 4.
    public init(wrapping memory: UnsafeMutableRawPointer, width: Int, height: Int, strideBytes: Int) {
        precondition(strideBytes % 4 == 0 && strideBytes >= width * 4, "bad stride \(strideBytes) for width \(width)")
        self.width = width
        self.height = height
        self.rowPixels = strideBytes / 4
        self.pixels = memory.bindMemory(to: UInt32.self, capacity: rowPixels * height)
        self.ownsMemory = false
    }

    deinit {
        if ownsMemory { pixels.deallocate() }
    }

    public var bounds: IntRect { IntRect(x: 0, y: 0, width: width, height: height) }
    public var strideBytes: Int { rowPixels * 4 }

    @inlinable
    public func row(_ y: Int) -> UnsafeMutablePointer<UInt32> {
        pixels + y * rowPixels
    }

    public subscript(x: Int, y: Int) -> UInt32 {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height)
            return pixels[y * rowPixels + x]
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height)
            pixels[y * rowPixels + x] = newValue
        }
    }

    /// Copies `rect` of `source` (clipped to both buffers) to the same place
    /// here, pixel for pixel; `origin` is where `source`'s (0, 0) lies in this
    /// buffer's coordinates (a cache of part of a frame keeps its place so).
    public func copy(_ rect: IntRect, from source: PixelBuffer, sourceOrigin origin: (x: Int, y: Int) = (0, 0)) {
        let r = rect.intersection(bounds)
            .intersection(IntRect(x: origin.x, y: origin.y, width: source.width, height: source.height))
        if r.isEmpty { return }
        for y in r.y..<r.maxY {
            (row(y) + r.x).update(from: source.row(y - origin.y) + (r.x - origin.x), count: r.width)
        }
    }

    /// Sets every pixel of `rect` (clipped to the buffer) to `pixel`.
    public func fill(_ pixel: UInt32, in rect: IntRect? = nil) {
        let r = (rect ?? bounds).intersection(bounds)
        if r.isEmpty { return }
        if r.x == 0 && r.width == width && rowPixels == width {
            SpanCompositor.fill(row(r.y), count: r.width * r.height, pixel: pixel)
            return
        }
        for y in r.y..<r.maxY {
            SpanCompositor.fill(row(y) + r.x, count: r.width, pixel: pixel)
        }
    }
}
