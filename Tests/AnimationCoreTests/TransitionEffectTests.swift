import Testing
@testable import AnimationCore

/// Each built-in transition's effect at the start of an insertion and the end
/// of a removal, against the table of §5.2 (the leaf's own size is 200 x 50).
@Suite struct TransitionEffectTests {
    func at(_ t: Transition, _ amount: Double, inserting: Bool) -> TransitionEffect {
        t.effect(amount: amount, inserting: inserting, width: 200, height: 50)
    }

    @Test func moveSlidePushAndOffsetPlaceTheLeafOffItsEdge() {
        #expect(at(.move(.top), 1, inserting: true) == TransitionEffect(offsetY: -50))
        #expect(at(.move(.bottom), 1, inserting: false) == TransitionEffect(offsetY: 50))
        #expect(at(.move(.leading), 0.5, inserting: true) == TransitionEffect(offsetX: -100))
        #expect(at(.move(.trailing), 1, inserting: false) == TransitionEffect(offsetX: 200))
        // Slide: in from leading, out to trailing.
        #expect(at(.slide, 1, inserting: true) == TransitionEffect(offsetX: -200))
        #expect(at(.slide, 1, inserting: false) == TransitionEffect(offsetX: 200))
        // Push from an edge: in from it, out towards the opposite one, fading both ways.
        #expect(at(.push(from: .bottom), 1, inserting: true) == TransitionEffect(opacity: 0, offsetY: 50))
        #expect(at(.push(from: .bottom), 1, inserting: false) == TransitionEffect(opacity: 0, offsetY: -50))
        #expect(at(.offset(x: 10, y: -4), 0.5, inserting: true) == TransitionEffect(offsetX: 5, offsetY: -2))
    }

    @Test func scaleAndOpacityAndIdentity() {
        #expect(at(.scale(0.5), 1, inserting: true).scale == 0.5)
        #expect(abs(at(.scale, 1, inserting: false).scale - 1e-5) < 1e-12, "`.scale` shrinks to (almost) nothing")
        #expect(at(.scale(0.5), 0.5, inserting: true).scale == 0.75)
        #expect(at(.opacity, 0.25, inserting: true) == TransitionEffect(opacity: 0.75))
        #expect(at(.identity, 1, inserting: true) == .identity && at(.identity, 1, inserting: false) == .identity)
        #expect(at(.move(.top), 0, inserting: true) == .identity, "amount 0 is the leaf as laid out")
    }

    @Test func combinedAppliesBothAndAsymmetricOnlyItsPhasesOne() {
        let both = Transition.opacity.combined(with: .move(.leading))
        #expect(at(both, 1, inserting: true) == TransitionEffect(opacity: 0, offsetX: -200))
        #expect(both.hasMotion && !Transition.opacity.hasMotion)
        let lopsided = Transition.asymmetric(insertion: .move(.top), removal: .opacity)
        #expect(at(lopsided, 1, inserting: true) == TransitionEffect(offsetY: -50))
        #expect(at(lopsided, 1, inserting: false) == TransitionEffect(opacity: 0))
    }

    @Test func aTransitionsOwnAnimationIsFoundInItsPhase() {
        let fadeIn = Animation.easeIn(duration: 0.2).delay(0.25), fadeOut = Animation.easeOut(duration: 0.2)
        let status = Transition.asymmetric(insertion: .opacity.animation(fadeIn), removal: .opacity.animation(fadeOut))
        #expect(status.ownAnimation(inserting: true) == fadeIn && status.ownAnimation(inserting: false) == fadeOut)
        #expect(Transition.opacity.ownAnimation(inserting: true) == nil)
        #expect(Transition.move(.top).combined(with: .opacity.animation(fadeOut)).ownAnimation(inserting: true) == fadeOut)
    }

    /// A leaf removed with `.identity` has nothing to animate: it is gone at
    /// once, not kept visible for the whole animation (§5.5).
    @Test func anIdentityRemovalGoesAtOnce() {
        let graph = SceneGraph()
        let plain = LeafDescription(id: NodeID("plain"), frame: AnimatableRect(x: 0, y: 0, width: 10, height: 10))
        var cut = LeafDescription(id: NodeID("cut"), frame: AnimatableRect(x: 0, y: 0, width: 10, height: 10))
        cut.transition = .identity
        var lopsided = LeafDescription(id: NodeID("lopsided"), frame: AnimatableRect(x: 0, y: 0, width: 10, height: 10))
        lopsided.transition = .asymmetric(insertion: .opacity, removal: .identity)
        graph.update(to: [plain, cut, lopsided], transaction: Transaction(), at: 0)
        graph.update(to: [], transaction: Transaction(animation: .linear(duration: 1)), at: 1)
        graph.sample(at: 1.01)
        #expect(graph.renderList.map(\.id.path) == ["plain"], "only the fading leaf is still drawn")
        graph.sample(at: 2.1)
        #expect(graph.renderList.isEmpty)
    }

    /// `.opacity.animation(a).combined(with: .scale.animation(b))`: each part
    /// on its own curve and clock, as SwiftUI runs a transition's own animations.
    @Test func eachAnimatedPartOfACombinedTransitionRunsOnItsOwnAnimation() {
        let fade = Animation.linear(duration: 1), grow = Animation.easeIn(duration: 0.5)
        var leaf = LeafDescription(id: NodeID("badge"), frame: AnimatableRect(x: 0, y: 0, width: 10, height: 10))
        leaf.transition = Transition.opacity.animation(fade).combined(with: Transition.scale(0.5).animation(grow))
        #expect(leaf.transition.ownAnimations(inserting: true) == [fade, grow])
        let graph = SceneGraph()
        graph.update(to: [], transaction: Transaction(), at: 0)
        graph.update(to: [leaf], transaction: Transaction(animation: .easeOut(duration: 3)), at: 0)
        for t in [0.1, 0.25, 0.4, 0.75] {
            graph.sample(at: t)
            let item = graph.renderList[0]
            var opacity = AnimatedValue<Double>(1), scale = AnimatedValue<Double>(1)
            opacity.set(0, animation: fade, at: 0)
            scale.set(0, animation: grow, at: 0)
            let fadeAmount = opacity.value(at: t), growAmount = scale.value(at: t)
            #expect(abs(item.opacity - (1 - fadeAmount)) < 1e-9, "opacity at \(t): \(item.opacity)")
            #expect(abs(item.scale - (1 - 0.5 * growAmount)) < 1e-9, "scale at \(t): \(item.scale)")
        }
        graph.sample(at: 0.6)
        #expect(graph.renderList[0].scale == 1 && graph.renderList[0].opacity < 1, "the scale is done, the fade is not")
        // One own animation still drives the whole transition, parts without one included.
        var single = leaf
        single.id = NodeID("single")
        single.transition = Transition.opacity.combined(with: Transition.scale(0.5).animation(grow))
        graph.update(to: [single], transaction: Transaction(animation: .linear(duration: 3)), at: 1)
        graph.sample(at: 1.25)
        let item = graph.renderList.first { $0.id == NodeID("single") }!
        #expect(abs((1 - item.opacity) - (1 - item.scale) / 0.5) < 1e-9, "both parts on one amount")
    }
}
