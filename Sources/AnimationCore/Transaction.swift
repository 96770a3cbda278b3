/// A key for extra values a transaction carries for one update.
public protocol TransactionKey {
    associatedtype Value
    static var defaultValue: Value { get }
}

/// The context of one state change: its animation, whether `.animation`
/// modifiers may add one, and custom keys (§2.1, §2.4).
public struct Transaction {
    public var animation: Animation? {
        didSet { animationIsSet = true }
    }
    /// Blocks value-scoped animation overrides; does not clear `animation`.
    public var disablesAnimations = false {
        didSet { disablesIsSet = true }
    }
    private var animationIsSet = false
    private var disablesIsSet = false
    private var values: [ObjectIdentifier: Any] = [:]

    /// A transaction that sets nothing: merged into another, it changes nothing.
    public init() {}

    /// A transaction that sets its animation, even to none: `withAnimation(nil)`
    /// inside an animated transaction turns the animation off (§2.2).
    public init(animation: Animation?) {
        self.animation = animation
        animationIsSet = true
    }

    public subscript<K: TransactionKey>(key: K.Type) -> K.Value {
        get { values[ObjectIdentifier(key)] as? K.Value ?? K.defaultValue }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    /// Nested transactions merge (iOS 17 semantics): what `inner` sets wins,
    /// what it leaves alone comes from `self` (§2.2).
    public func merging(_ inner: Transaction) -> Transaction {
        var result = self
        if inner.animationIsSet { result.animation = inner.animation }
        if inner.disablesIsSet { result.disablesAnimations = inner.disablesAnimations }
        for (k, v) in inner.values { result.values[k] = v }
        return result
    }
}
