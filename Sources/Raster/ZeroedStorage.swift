/// Grows `storage` to hold at least `count` elements, zeroed, when it
/// holds fewer (`capacity`); otherwise leaves it and its contents alone.
/// For the rasterizer's and the conic map's scratch memory, allocated for
/// the largest shape and then reused frame after frame.
@inline(__always)
func reserveZeroed<Element: ExpressibleByIntegerLiteral>(_ storage: inout UnsafeMutablePointer<Element>, capacity: inout Int, count: Int) {
    if count <= capacity { return }
    storage.deallocate()
    capacity = count
    storage = .allocate(capacity: count)
    storage.initialize(repeating: 0, count: count)
}
