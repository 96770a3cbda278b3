/// An 8-bit coverage image: glyph bitmaps, clip masks.
public final class AlphaMask {
    public let width: Int
    public let height: Int
    public let rowBytes: Int
    public let bytes: UnsafeMutablePointer<UInt8>

    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "a mask needs a non-negative size")
        self.width = width
        self.height = height
        self.rowBytes = max(width, 1)
        self.bytes = .allocate(capacity: rowBytes * max(height, 1))
        self.bytes.initialize(repeating: 0, count: rowBytes * max(height, 1))
    }

    deinit { bytes.deallocate() }

    @inlinable
    public func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { bytes + y * rowBytes }

    public subscript(x: Int, y: Int) -> UInt8 {
        get { bytes[y * rowBytes + x] }
        set { bytes[y * rowBytes + x] = newValue }
    }

    public func clear() { bytes.update(repeating: 0, count: rowBytes * max(height, 1)) }
}
