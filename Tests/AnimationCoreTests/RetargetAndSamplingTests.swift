import Testing
import AllocationCounting
@testable import AnimationCore

@Suite struct RetargetAndSamplingTests {
    /// A value retargeted every frame for a minute, by a spring one way and a
    /// delayed spring (which combines rather than merges) the other, as the
    /// dial is when its state flaps: it stays within its range, and settles on
    /// the model once the changes stop. Before the cap on combined animations
    /// it grew to 1e150 (a flood of MQTT commands found it).
    @Test func aValueRetargetedEveryFrameStaysBounded() {
        var value = AnimatedValue(0.0)
        let spring = Animation.spring(duration: 0.8, bounce: 0.12)
        var t = 0.0, lowest = 0.0, highest = 0.0
        for frame in 0..<1800 {
            value.set(frame % 2 == 0 ? 100 : 0, animation: frame % 2 == 0 ? spring : spring.delay(0.2), at: t)
            t += 1.0 / 30
            let shown = value.value(at: t)
            lowest = min(lowest, shown)
            highest = max(highest, shown)
        }
        #expect(lowest > -50 && highest < 150, "shown between \(lowest) and \(highest)")
        value.set(100, animation: spring, at: t)
        for _ in 0..<300 { t += 1.0 / 30; _ = value.value(at: t) }
        #expect(!value.isAnimating && value.value(at: t) == 100)
    }

    @Test func interruptingASpringKeepsValueAndVelocityContinuous() {
        var v = AnimatedValue<Double>(0)
        let spring = Animation.spring(duration: 0.5, bounce: 0.15)
        v.set(100, animation: spring, at: 0)
        var samples: [Double] = []
        let dt = 1.0 / 120
        for frame in 0...120 {
            let t = Double(frame) * dt
            if frame == 30 { v.set(-50, animation: spring, at: t) }
            samples.append(v.value(at: t))
        }
        let differences = zip(samples.dropFirst(), samples).map { $0 - $1 }
        let acrossValue = abs(samples[30] - samples[29])
        let typicalStep = abs(differences[27])
        #expect(acrossValue < typicalStep * 1.5, "no jump in value across the interruption")
        // First difference changes smoothly: the change across the interruption
        // is no bigger than the spring's ordinary second differences there.
        let jerk = abs(differences[30] - differences[29])
        let ordinary = differences[31...40].indices.map { abs(differences[$0] - differences[$0 - 1]) }.max()!
        #expect(jerk <= ordinary * 1.5, "velocity continuous: \(jerk) vs \(ordinary)")
        #expect(abs(samples.last! - -50) < 1)
    }

    @Test func interruptingAnEaseInOutCombines() {
        var v = AnimatedValue<Double>(0)
        v.set(1, animation: .easeInOut(duration: 0.35), at: 0)
        let before = v.value(at: 0.1)
        v.set(0, animation: .easeInOut(duration: 0.35), at: 0.1)
        // The old animation runs on toward 1, so the value keeps rising at first.
        let after = v.value(at: 0.15)
        #expect(after > before)
        #expect(abs(v.value(at: 0.45)) < 1e-9)
    }

    @Test(.enabled(if: AllocationCounting.works, Comment(rawValue: AllocationCounting.why)))
    func samplingTwoHundredLeavesWithFiftyAnimationsAllocatesNothing() {
        let graph = SceneGraph()
        func leaves(_ shift: Double) -> [LeafDescription] {
            (0..<200).map { i in
                LeafDescription(id: NodeID("leaf\(i)"),
                                frame: AnimatableRect(x: i < 50 ? shift : 0, y: Double(i), width: 10, height: 10),
                                content: .text("L\(i)"))
            }
        }
        graph.update(to: leaves(0), transaction: Transaction(), at: 0)
        graph.update(to: leaves(500), transaction: Transaction(animation: .spring(duration: 2, bounce: 0.2)), at: 0)
        graph.sample(at: 0.001)
        let before = radar_thread_allocation_count()
        var animating = false
        for frame in 1...120 { animating = graph.sample(at: Double(frame) / 120) }
        let allocations = radar_thread_allocation_count() - before
        #expect(animating)
        #expect(graph.renderList.count == 200)
        #expect(allocations == 0, "\(allocations) allocations while sampling")
    }

    @Test func timelineSchedulesMatchSwiftUI() {
        #expect(TimelineSchedule.animation(minimumInterval: 1.5).entries(from: 0, through: 3) == [0, 1.5, 3.0])
        #expect(TimelineSchedule.animation(minimumInterval: 1.5, paused: true).entries(from: 0, through: 3).isEmpty)
        #expect(TimelineSchedule.periodic(from: 0, by: 5).entries(from: 12, through: 20) == [10, 15, 20])
        #expect(TimelineSchedule.periodic(from: 0, by: 5).entries(from: 15, through: 20) == [15, 20])
        #expect(TimelineSchedule.periodic(from: 0, by: 10).entries(from: 25, through: 30) == [20, 30])
        #expect(TimelineSchedule.everyMinute.date(at: 36_595, start: 36_595) == 36_540)
        #expect(TimelineSchedule.explicit([1, 2, 5]).date(at: 3, start: 0) == 2)
        #expect(TimelineSchedule.animation(minimumInterval: 0.5, paused: true).nextDate(after: 1, start: 0) == nil)
    }

    @Test func valueScopedAnimationOverridesOnlyWhenItsValueChanged() {
        let graph = SceneGraph()
        func leaf(x: Double, key: Int) -> LeafDescription {
            LeafDescription(id: NodeID("a"), frame: AnimatableRect(x: x, y: 0, width: 10, height: 10),
                            animationOverride: (animation: nil, value: key))
        }
        graph.update(to: [leaf(x: 0, key: 1)], transaction: Transaction(), at: 0)
        // The key changed: the override (nil) switches the animation off.
        graph.update(to: [leaf(x: 100, key: 2)], transaction: Transaction(animation: .linear(duration: 1)), at: 0)
        graph.sample(at: 0.5)
        #expect(graph.renderList[0].frame.x == 100)
        // The key did not change: the transaction's animation applies.
        graph.update(to: [leaf(x: 200, key: 2)], transaction: Transaction(animation: .linear(duration: 1)), at: 1)
        graph.sample(at: 1.5)
        #expect(abs(graph.renderList[0].frame.x - 150) < 1e-9)
        // disablesAnimations blocks the override but not the transaction's animation.
        var t = Transaction(animation: .linear(duration: 1))
        t.disablesAnimations = true
        graph.update(to: [leaf(x: 400, key: 3)], transaction: t, at: 3)
        graph.sample(at: 3.5)
        #expect(abs(graph.renderList[0].frame.x - 300) < 1e-9)
    }

    @Test func nestedTransactionsMerge() {
        struct Tag: TransactionKey { static let defaultValue = 0 }
        var outer = Transaction(animation: .easeIn)
        outer[Tag.self] = 7
        var inner = Transaction()
        inner.disablesAnimations = true
        let merged = outer.merging(inner)
        #expect(merged.animation == .easeIn && merged.disablesAnimations && merged[Tag.self] == 7)
        // withAnimation(nil) inside an animated transaction sets "no animation": it wins.
        #expect(outer.merging(Transaction(animation: nil)).animation == nil)
        #expect(outer.merging(Transaction()).animation == .easeIn, "a transaction that sets nothing changes nothing")
    }

    @Test func reinsertionDuringRemovalKeepsTheLeaf() {
        let graph = SceneGraph()
        let leaf = LeafDescription(id: NodeID("x"), frame: AnimatableRect(x: 0, y: 0, width: 10, height: 10))
        graph.update(to: [leaf], transaction: Transaction(), at: 0)
        graph.update(to: [], transaction: Transaction(animation: .linear(duration: 1)), at: 0)
        graph.sample(at: 0.5)
        #expect(graph.renderList[0].phase == .didDisappear && abs(graph.renderList[0].opacity - 0.5) < 1e-9)
        graph.update(to: [leaf], transaction: Transaction(animation: .linear(duration: 1)), at: 0.5)
        graph.sample(at: 2)
        #expect(graph.renderList.count == 1 && graph.renderList[0].opacity == 1 && graph.renderList[0].phase == .identity)
    }

    @Test func aChangeWithoutAnimationLeavesUnchangedAttributesGliding() {
        // A glide is running when a non-animated update changes something else:
        // the glide goes on, only the changed attribute jumps.
        var v = AnimatedValue<Double>(0)
        v.set(100, animation: .easeInOut(duration: 1), at: 0)
        let midway = v.value(at: 0.5)
        v.set(100, animation: nil, at: 0.5)
        #expect(v.isAnimating && abs(v.value(at: 0.5) - midway) < 1e-9, "the same value without animation keeps the glide")
        let graph = SceneGraph()
        func leaves(x: Double, label: String) -> [LeafDescription] {
            [LeafDescription(id: NodeID("blip"), frame: AnimatableRect(x: x, y: 0, width: 10, height: 10)),
             LeafDescription(id: NodeID("label"), frame: AnimatableRect(x: 0, y: 50, width: 100, height: 20), content: .text(label))]
        }
        graph.update(to: leaves(x: 0, label: "A"), transaction: Transaction(), at: 0)
        graph.update(to: leaves(x: 200, label: "A"), transaction: Transaction(animation: .linear(duration: 1)), at: 0)
        graph.sample(at: 0.5)
        graph.update(to: leaves(x: 200, label: "B"), transaction: Transaction(), at: 0.5)
        graph.sample(at: 0.6)
        let blip = graph.renderList.first { $0.id == NodeID("blip") }!
        #expect(abs(blip.frame.x - 120) < 1e-6, "the blip keeps gliding: x = \(blip.frame.x)")
        #expect(graph.renderList.first { $0.id == NodeID("label") }!.content == .text("B"))
    }

    @Test func aValueArrivingMidRollKeepsTheRunningRollUnderneath() {
        let graph = SceneGraph()
        func value(_ s: String) -> [LeafDescription] {
            [LeafDescription(id: NodeID("altitude"), frame: AnimatableRect(x: 0, y: 0, width: 200, height: 40), content: .text(s),
                             contentTransition: .numericText)]
        }
        graph.update(to: value("36,000"), transaction: Transaction(), at: 0)
        graph.update(to: value("36,500"), transaction: Transaction(animation: .linear(duration: 1)), at: 0)
        graph.sample(at: 0.4)
        graph.update(to: value("36,700"), transaction: Transaction(animation: .linear(duration: 1)), at: 0.4)
        graph.sample(at: 0.6)
        let change = graph.renderList[0].contentTransition
        #expect(change?.from == "36,500" && change?.to == "36,700")
        #expect(change?.interrupted?.from == "36,000", "the first roll finishes underneath")
        #expect(abs((change?.interrupted?.progress ?? 0) - 0.6) < 1e-9 && abs((change?.progress ?? 0) - 0.2) < 1e-9)
        graph.sample(at: 1.1)
        #expect(graph.renderList[0].contentTransition?.interrupted == nil, "gone once finished")
        #expect(graph.renderList[0].contentTransition?.from == "36,500")
    }
}
