/// A leaf's identity: its structural position (a path the scene gives it) and,
/// optionally, an explicit id. A change of either is a different leaf: the old
/// one is removed and a new one inserted (§1.1, §1.2, §1.5).
public struct NodeID: Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var explicit: String?

    public init(_ path: String, id explicit: String? = nil) {
        self.path = path
        self.explicit = explicit
    }

    public var description: String { explicit.map { "\(path)#\($0)" } ?? path }
}

/// How the app's renderer draws a leaf (its font, colour, kind of drawing):
/// the app names its styles as constants of this type; the core only carries them.
public struct LeafStyle: Hashable, Sendable {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public static let plain = LeafStyle(0)
}

/// What a leaf shows; the app's renderer interprets `style`.
public enum LeafContent: Sendable, Equatable {
    case none
    case text(String)
    /// Custom drawing (a canvas); its animatable parameters are the leaf's `custom` vector.
    case custom
}

/// One leaf of the scene as the scene function describes it for a state.
/// Containers are not described: they carry no presentation state, so the
/// scene lays out absolute frames and only leaves animate (§1.3a, §1.4).
public struct LeafDescription: Sendable {
    public var id: NodeID
    public var frame: AnimatableRect
    public var opacity: Double
    public var content: LeafContent
    /// The renderer's style for this leaf (font, colour, kind of drawing).
    public var style: LeafStyle
    /// Up to four extra animatable parameters (a dial's face blend, say). They
    /// animate with the frame as one vector: one curve, one clock (§4.3).
    public var custom: AnimatableRect
    public var transition: Transition
    public var contentTransition: ContentTransition
    /// `.animation(animation, value:)`: overrides the transaction's animation for
    /// this leaf when `value` changed in the update (§2.3).
    public var animationOverride: (animation: Animation?, value: Int)?
    /// Invisible placeholders say so, for the accessibility audit.
    public var isDecorative: Bool

    public init(id: NodeID, frame: AnimatableRect, opacity: Double = 1, content: LeafContent = .none, style: LeafStyle = .plain,
                custom: AnimatableRect = .zero, transition: Transition = .opacity,
                contentTransition: ContentTransition = .opacity,
                animationOverride: (animation: Animation?, value: Int)? = nil, isDecorative: Bool = false) {
        self.id = id
        self.frame = frame
        self.opacity = opacity
        self.content = content
        self.style = style
        self.custom = custom
        self.transition = transition
        self.contentTransition = contentTransition
        self.animationOverride = animationOverride
        self.isDecorative = isDecorative
    }
}

/// One leaf as drawn at a sampled time: the flat render list's element.
public struct RenderItem: Sendable {
    public var id: NodeID
    public var style: LeafStyle
    public var content: LeafContent
    /// Presentation frame, transition offset applied.
    public var frame: AnimatableRect
    public var opacity: Double
    public var scale: Double
    public var custom: AnimatableRect
    public var phase: TransitionPhase
    public var contentTransition: ContentTransitionState?
    public var isDecorative: Bool
}
