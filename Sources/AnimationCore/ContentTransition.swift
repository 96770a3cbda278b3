/// How a leaf's content (its text) changes in place under an animated update (§6).
public enum ContentTransition: Sendable, Equatable {
    /// The new content at once; the leaf stays one label that rides its frame.
    case identity
    /// Old and new crossfade. The kiosk's choice for the outgoing string (§6.4):
    /// it stays a snapshot at the frame it had when the change began, while the
    /// new string fades in on the moving frame, the model the seed observed and
    /// exactly SwiftUI's `Text(s).id(s).transition(.opacity)`.
    case opacity
    /// Identical strings interpolate; different ones fall back to opacity.
    case interpolate
    /// Changed digits roll, the rest stay (or glide); direction fixed by `countsDown`.
    case numericText(countsDown: Bool)
    /// Like numericText, with the direction from the sign of the value's change.
    case numericTextValue(Double)

    public static let numericText = ContentTransition.numericText(countsDown: false)

    /// Whether changed digits roll.
    public var isNumeric: Bool {
        switch self {
        case .numericText, .numericTextValue: return true
        case .identity, .opacity, .interpolate: return false
        }
    }
}

/// A numeric change that a newer one interrupted: it finishes underneath the
/// newer change, whose old string is this one's new string.
public struct InterruptedChange: Sendable {
    public var from: String
    public var progress: Double
    public var rollsDown: Bool

    public init(from: String, progress: Double, rollsDown: Bool) {
        self.from = from
        self.progress = progress
        self.rollsDown = rollsDown
    }
}

/// A content change in progress, as the renderer needs it.
public struct ContentTransitionState: Sendable {
    public var from: String
    public var to: String
    /// 0 at the change, 1 when it is done, on the transaction's curve.
    public var progress: Double
    public var kind: ContentTransition
    /// The presentation frame the leaf had when the change began (where an
    /// opacity crossfade leaves the outgoing string).
    public var fromFrame: AnimatableRect
    /// For numeric rolls: true when new digits come in from above (counting down).
    public var rollsDown: Bool
    /// For numeric rolls: the change this one interrupted, if it is still running.
    public var interrupted: InterruptedChange?

    public init(from: String, to: String, progress: Double, kind: ContentTransition, fromFrame: AnimatableRect, rollsDown: Bool,
                interrupted: InterruptedChange? = nil) {
        self.from = from
        self.to = to
        self.progress = progress
        self.kind = kind
        self.fromFrame = fromFrame
        self.rollsDown = rollsDown
        self.interrupted = interrupted
    }
}
