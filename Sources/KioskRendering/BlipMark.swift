import Raster

/// How one traffic blip was drawn in a frame: which aircraft, where, which
/// quarter-pixel sprite, how opaque. A blip whose mark is the same in two
/// frames drew the same pixels: a sweep frame leaves it alone.
struct BlipMark: Equatable {
    var serial: Int
    var box: IntRect
    /// The sprite's index; -1 for a blip drawn as a path (the highlighted one), never taken as unchanged.
    var sprite: Int
    var alpha: UInt8

    /// Whether `mark` (entry `index` of its list) is drawn the same in `other`: found at the
    /// same index (the traffic keeps its order) or, after a change of the list, anywhere.
    static func kept(_ mark: BlipMark, at index: Int, in other: [BlipMark]) -> Bool {
        guard mark.sprite >= 0 else { return false }
        if index < other.count && other[index].serial == mark.serial { return other[index] == mark }
        for candidate in other where candidate.serial == mark.serial { return candidate == mark }
        return false
    }
}
