import Input

/// What a finger did, in the frame's pixels: the kiosk's three gestures.
public enum TouchGesture: Equatable, Sendable {
    /// Down and up again quickly, near where it came down.
    case tap(x: Double, y: Double)
    /// Held still for `longPressSeconds` or more.
    case longPress(x: Double, y: Double)
    /// Moved far and fast: by (dx, dy) px.
    case swipe(dx: Double, dy: Double)
}

/// Recognises gestures from timed touches: a finger that drifts a few pixels
/// still taps, one that travels is a swipe and never a tap, a second finger
/// makes the touch nobody's gesture, and a contact the kiosk did not see
/// come down is ignored. Pure: times and points are passed in.
public struct TouchGestures: Sendable {
    /// How far a finger may drift and still tap or long-press, px.
    public var slop: Double
    /// Longer than this between down and up is no tap, s.
    public var tapSeconds = 0.5
    /// Held this long without moving is a long press, s.
    public var longPressSeconds = 0.8
    /// A swipe travels at least this far, px, within `swipeSeconds`.
    public var swipeDistance: Double
    public var swipeSeconds = 0.8

    private struct Contact {
        var startX: Double, startY: Double, startTime: Double
        var x: Double, y: Double
        var farthest = 0.0
    }
    private var contacts: [Int: Contact] = [:]
    /// Set when two fingers were down at once: no gesture until all are up.
    private var spoiled = false

    /// Gestures for a frame of `width` x `height` px: the slop and the swipe scale with it.
    public init(width: Double, height: Double) {
        let shorter = min(width, height)
        slop = max(12, 0.04 * shorter)
        swipeDistance = 0.2 * shorter
    }

    /// Whether a finger is down now.
    public var isTouching: Bool { !contacts.isEmpty }

    /// Takes one touch at `time` (its point already in frame pixels); returns a gesture it completes.
    public mutating func take(id: Int, phase: TouchEvent.Phase, x: Double, y: Double, at time: Double) -> TouchGesture? {
        switch phase {
        case .began:
            if !contacts.isEmpty { spoiled = true }
            contacts[id] = Contact(startX: x, startY: y, startTime: time, x: x, y: y)
            return nil
        case .moved:
            guard var c = contacts[id] else { return nil }
            c.x = x
            c.y = y
            c.farthest = max(c.farthest, ((x - c.startX) * (x - c.startX) + (y - c.startY) * (y - c.startY)).squareRoot())
            contacts[id] = c
            return nil
        case .ended:
            guard var c = contacts.removeValue(forKey: id) else { return nil }
            c.farthest = max(c.farthest, ((x - c.startX) * (x - c.startX) + (y - c.startY) * (y - c.startY)).squareRoot())
            defer { if contacts.isEmpty { spoiled = false } }
            guard !spoiled else { return nil }
            let held = time - c.startTime
            let (dx, dy) = (x - c.startX, y - c.startY)
            if c.farthest <= slop {
                if held <= tapSeconds { return .tap(x: c.startX, y: c.startY) }
                if held >= longPressSeconds { return .longPress(x: c.startX, y: c.startY) }
                return nil
            }
            if (dx * dx + dy * dy).squareRoot() >= swipeDistance && held <= swipeSeconds { return .swipe(dx: dx, dy: dy) }
            return nil
        }
    }
}
