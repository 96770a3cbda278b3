/// How a path's outline is stroked.
public struct StrokeStyle: Sendable, Equatable {
    public enum Cap: Sendable { case butt, round, square }
    public enum Join: Sendable { case miter, round, bevel }

    /// Width in user units (scaled by the canvas transform).
    public var width: Float
    public var cap: Cap
    public var join: Join
    /// A miter longer than `miterLimit` × width / 2 becomes a bevel.
    public var miterLimit: Float

    public init(width: Float, cap: Cap = .butt, join: Join = .miter, miterLimit: Float = 4) {
        self.width = width
        self.cap = cap
        self.join = join
        self.miterLimit = miterLimit
    }
}
