/// The persistent tree of leaves and everything animating on them.
///
/// `update` diffs the scene's new leaves against the current ones by identity
/// under a transaction: persisting leaves animate their frames and properties,
/// inserted ones appear at their destination and run their insertion
/// transition, removed ones stay at their last frame, out of the scene's
/// layout, until their removal transition has finished (§1.3). `sample`
/// produces the flat render list for a time, in paint order, allocating nothing.
public final class SceneGraph {
    typealias Geometry = AnimatablePair<AnimatableRect, AnimatableRect>

    struct Leaf {
        var description: LeafDescription
        var geometry: AnimatedValue<Geometry>
        var opacity: AnimatedValue<Double>
        /// 1 = the transition's active state, 0 = identity.
        var transitionAmount: TransitionProgress
        var phase: TransitionPhase
        var order: Double
        var lastOverrideValue: Int?
        var content: ContentChange?
    }

    /// A change of a leaf's text in progress.
    struct ContentChange {
        var from: String
        var fromFrame: AnimatableRect
        var progress: AnimatedValue<Double>
        var rollsDown: Bool
        /// The numeric change this one interrupted, finishing underneath it so
        /// that a value arriving mid-roll continues the glyphs where they are.
        var earlier: Roll?
    }

    struct Roll {
        var from: String
        var progress: AnimatedValue<Double>
        var rollsDown: Bool
    }

    private var leaves: [Leaf] = []
    private var slots: [NodeID: Int] = [:]
    /// The first update is the initial render: nothing is "inserted" then, so
    /// no insertion transition runs.
    private var hasRendered = false
    public private(set) var renderList: [RenderItem] = []

    public init() {
        renderList.reserveCapacity(256)
    }

    public var leafCount: Int { leaves.count }

    /// Applies the leaves of a new state. Inserted leaves first appear in their
    /// transition's active state with animations disabled, then move to
    /// identity with the update's animation (the two-part update of §1.3b).
    public func update(to descriptions: [LeafDescription], transaction: Transaction, at time: Double) {
        var seen = Set<NodeID>(minimumCapacity: descriptions.count)
        let initial = !hasRendered
        hasRendered = true
        for (order, description) in descriptions.enumerated() {
            seen.insert(description.id)
            let animation = effectiveAnimation(for: description, transaction: transaction)
            if let slot = slots[description.id] {
                updateLeaf(slot, with: description, animation: animation, transaction: transaction, order: Double(order), time: time)
            } else {
                insertLeaf(description, transaction: transaction, order: Double(order), time: time, initial: initial)
            }
        }
        for i in leaves.indices where !seen.contains(leaves[i].description.id) && leaves[i].phase != .didDisappear {
            removeLeaf(i, transaction: transaction, time: time)
        }
        eraseFinishedRemovals()
        leaves.sort { $0.order < $1.order }
        reindex()
        if renderList.capacity < leaves.count * 2 { renderList.reserveCapacity(leaves.count * 2) }
    }

    private func effectiveAnimation(for d: LeafDescription, transaction: Transaction) -> Animation? {
        var animation = transaction.animation
        if let override = d.animationOverride, !transaction.disablesAnimations,
           let slot = slots[d.id], leaves[slot].lastOverrideValue != override.value {
            animation = override.animation
        }
        return animation
    }

    private func updateLeaf(_ i: Int, with d: LeafDescription, animation: Animation?, transaction: Transaction,
                            order: Double, time: Double) {
        var leaf = leaves[i]
        if leaf.phase == .didDisappear {
            // Re-inserted while leaving: back to identity, state kept (§1.3d).
            leaf.phase = .identity
            leaf.transitionAmount.set(0, transition: transaction.disablesAnimations ? .identity : d.transition, inserting: true,
                                      fallback: animation, at: time)
        }
        let oldText: String? = { if case let .text(s) = leaf.description.content { return s } else { return nil } }()
        let newText: String? = { if case let .text(s) = d.content { return s } else { return nil } }()
        if let oldText, let newText, oldText != newText {
            // A leaf that is invisible when its content changes (a card still
            // fading in) shows no transition: nobody saw the old content.
            let wasVisible = leaf.opacity.presentation > 0.01 && leaf.phase != .willAppear
            if let animation, d.contentTransition != .identity, wasVisible {
                var progress = AnimatedValue<Double>(0)
                progress.set(1, animation: animation, at: time)
                let rollsDown: Bool
                switch d.contentTransition {
                case let .numericText(countsDown): rollsDown = countsDown
                case let .numericTextValue(v):
                    let previous = Double(oldText.filter { $0.isNumber || $0 == "." || $0 == "-" }) ?? 0
                    rollsDown = v < previous
                default: rollsDown = false
                }
                var earlier: Roll? = nil
                if d.contentTransition.isNumeric, let running = leaf.content, running.progress.isAnimating {
                    earlier = Roll(from: running.from, progress: running.progress, rollsDown: running.rollsDown)
                }
                leaf.content = ContentChange(from: oldText, fromFrame: leaf.geometry.presentation.first, progress: progress,
                                             rollsDown: rollsDown, earlier: earlier)
            } else {
                leaf.content = nil
            }
        }
        leaf.geometry.set(Geometry(d.frame.pixelAligned, d.custom), animation: animation, at: time)
        leaf.opacity.set(d.opacity, animation: animation, at: time)
        if let override = d.animationOverride { leaf.lastOverrideValue = override.value }
        leaf.description = d
        leaf.order = order
        leaves[i] = leaf
    }

    private func insertLeaf(_ d: LeafDescription, transaction: Transaction, order: Double, time: Double, initial: Bool) {
        // Geometry and content at the destination from the first frame: a new
        // attribute's first value never animates.
        var amount = TransitionProgress(1)
        // A transaction that disables animations shows the new state at once,
        // transitions' own animations included: the kiosk's reading, so that a
        // state known at start (a GPIO line's level) is on the first frame.
        let still = initial || transaction.disablesAnimations
        let animation = still ? nil : d.transition.ownAnimation(inserting: true) ?? transaction.animation
        if still {
            amount.set(0, transition: .identity, inserting: true, fallback: nil, at: time)
        } else {
            amount.set(0, transition: d.transition, inserting: true, fallback: transaction.animation, at: time)
        }
        let leaf = Leaf(description: d,
                        geometry: AnimatedValue(Geometry(d.frame.pixelAligned, d.custom)),
                        opacity: AnimatedValue(d.opacity),
                        transitionAmount: amount,
                        phase: animation == nil ? .identity : .willAppear,
                        order: order,
                        lastOverrideValue: d.animationOverride?.value,
                        content: nil)
        leaves.append(leaf)
        slots[d.id] = leaves.count - 1
    }

    private func removeLeaf(_ i: Int, transaction: Transaction, time: Double) {
        let transition = leaves[i].description.transition
        // Nothing to animate (an identity removal): it goes with the update, as in SwiftUI.
        let animation = transition.isIdentity(inserting: false) || transaction.disablesAnimations ? nil
            : transition.ownAnimation(inserting: false) ?? transaction.animation
        leaves[i].phase = .didDisappear
        // Drawn just above whatever now sits at its old place in paint order.
        leaves[i].order += 0.5
        if animation == nil {
            leaves[i].transitionAmount.set(1, transition: .identity, inserting: false, fallback: nil, at: time)
        } else {
            leaves[i].transitionAmount.set(1, transition: transition, inserting: false, fallback: transaction.animation, at: time)
        }
    }

    private func eraseFinishedRemovals() {
        leaves.removeAll { $0.phase == .didDisappear && !$0.transitionAmount.isAnimating }
    }

    private func reindex() {
        slots.removeAll(keepingCapacity: true)
        for (i, leaf) in leaves.enumerated() { slots[leaf.description.id] = i }
    }

    /// Whether the leaf `id` was still animating its frame, opacity or custom
    /// values at the last `sample` (a completion check, like SwiftUI's
    /// `withAnimation(completion:)`).
    public func isAnimating(_ id: NodeID) -> Bool {
        guard let slot = slots[id] else { return false }
        let leaf = leaves[slot]
        return leaf.geometry.isAnimating || leaf.opacity.isAnimating || leaf.transitionAmount.isAnimating
    }

    /// The render list at `time`, in paint order; also whether anything is still
    /// animating (when nothing is, the kiosk can stop drawing).
    @discardableResult
    public func sample(at time: Double) -> Bool {
        renderList.removeAll(keepingCapacity: true)
        var animating = false
        var erased = false
        for i in leaves.indices {
            let geometry = leaves[i].geometry.value(at: time)
            let opacity = leaves[i].opacity.value(at: time)
            leaves[i].transitionAmount.sample(at: time)
            let amount = leaves[i].transitionAmount.amount
            if leaves[i].geometry.isAnimating || leaves[i].opacity.isAnimating || leaves[i].transitionAmount.isAnimating {
                animating = true
            }
            if leaves[i].phase == .willAppear && !leaves[i].transitionAmount.isAnimating { leaves[i].phase = .identity }
            if leaves[i].phase == .didDisappear && !leaves[i].transitionAmount.isAnimating {
                erased = true
                continue
            }
            var contentState: ContentTransitionState? = nil
            if leaves[i].content != nil {
                // Advanced in place: a copy would make its storage non-unique and allocate.
                let progress = leaves[i].content!.progress.value(at: time)
                var interrupted: InterruptedChange? = nil
                if leaves[i].content!.earlier != nil {
                    let earlierProgress = leaves[i].content!.earlier!.progress.value(at: time)
                    if leaves[i].content!.earlier!.progress.isAnimating, let earlier = leaves[i].content!.earlier {
                        interrupted = InterruptedChange(from: earlier.from, progress: earlierProgress, rollsDown: earlier.rollsDown)
                    } else {
                        leaves[i].content!.earlier = nil
                    }
                }
                if leaves[i].content!.progress.isAnimating {
                    animating = true
                    if case let .text(to) = leaves[i].description.content, let content = leaves[i].content {
                        contentState = ContentTransitionState(from: content.from, to: to, progress: progress,
                                                              kind: leaves[i].description.contentTransition,
                                                              fromFrame: content.fromFrame, rollsDown: content.rollsDown,
                                                              interrupted: interrupted)
                    }
                } else {
                    leaves[i].content = nil
                }
            }
            let d = leaves[i].description
            var frame = geometry.first
            let inserting = leaves[i].phase != .didDisappear
            let split = leaves[i].transitionAmount.isSplit
            let effect = !split && amount == 0 ? TransitionEffect.identity
                : d.transition.effect(amount: amount, parts: split ? leaves[i].transitionAmount.partAmounts : nil,
                                      inserting: inserting, width: frame.width, height: frame.height)
            frame.x += effect.offsetX
            frame.y += effect.offsetY
            renderList.append(RenderItem(id: d.id, style: d.style, content: d.content, frame: frame,
                                         opacity: opacity * effect.opacity, scale: effect.scale, custom: geometry.second,
                                         phase: leaves[i].phase, contentTransition: contentState, isDecorative: d.isDecorative))
        }
        if erased {
            eraseFinishedRemovals()
            reindex()
        }
        return animating
    }
}
