import Testing
@testable import AnimationCore

/// The parts of Animation not reached by the reference tables: custom timing
/// curves, logical completion, response blending on a merge, and the roll
/// direction a numeric value's sign chooses.
@Suite struct CurveAndCompletionTests {
    func run(_ animation: Animation, at times: [Double]) -> [Double] {
        var value = AnimatedValue<Double>(0)
        value.set(1, animation: animation, at: 0)
        return times.map { value.value(at: $0) }
    }

    @Test func aTimingCurveWithTheStandardPointsIsThatCurve() {
        let times = stride(from: 0.0, through: 0.35, by: 0.025).map { $0 }
        let custom = run(.timingCurve(0.42, 0, 0.58, 1, duration: 0.35), at: times)
        let named = run(.easeInOut(duration: 0.35), at: times)
        for (c, n) in zip(custom, named) { #expect(abs(c - n) < 1e-9) }
        let straight = run(.timingCurve(0, 0, 1, 1, duration: 0.5), at: [0.1, 0.25, 0.4])
        for (s, want) in zip(straight, [0.2, 0.5, 0.8]) { #expect(abs(s - want) < 1e-6, "a diagonal curve is linear") }
        // An overshooting curve (y beyond 1) goes past its target and comes back.
        let overshoot = run(.timingCurve(0.3, 1.6, 0.6, 1, duration: 0.4), at: stride(from: 0.02, to: 0.4, by: 0.02).map { $0 })
        #expect(overshoot.max()! > 1.05, "back-out curve overshoots: peak \(overshoot.max()!)")
    }

    @Test func logicallyCompleteMarksCompletionWithoutChangingTheValue() {
        var marked = AnimatedValue<Double>(0)
        marked.set(1, animation: Animation.linear(duration: 5).logicallyComplete(after: 1), at: 0)
        var plain = AnimatedValue<Double>(0)
        plain.set(1, animation: .linear(duration: 5), at: 0)
        #expect(!marked.isLogicallyComplete(at: 0.99))
        #expect(marked.isLogicallyComplete(at: 1.0))
        #expect(!plain.isLogicallyComplete(at: 1.0), "a plain linear(5) completes at 5 s")
        #expect(plain.isLogicallyComplete(at: 5.0))
        for t in [0.5, 1.5, 2.0, 4.0] {
            #expect(abs(marked.value(at: t) - plain.value(at: t)) < 1e-12, "value unchanged at \(t)")
        }
        #expect(marked.isAnimating, "still running after it is logically complete")
        // A spring is logically complete at its response.
        var spring = AnimatedValue<Double>(0)
        spring.set(1, animation: .spring(response: 0.4, dampingFraction: 0.9), at: 0)
        #expect(!spring.isLogicallyComplete(at: 0.39) && spring.isLogicallyComplete(at: 0.4))
    }

    /// Springs merged at 0.3 s into a running response-0.8 spring, sampled at 120 Hz.
    func mergedTrajectory(newResponse: Double, blend: Double) -> [Double] {
        var v = AnimatedValue<Double>(0)
        v.set(100, animation: .spring(response: 0.8, dampingFraction: 1), at: 0)
        var samples: [Double] = []
        for frame in 0...360 {
            let t = Double(frame) / 120
            if frame == 36 { v.set(200, animation: .spring(response: newResponse, dampingFraction: 1, blendDuration: blend), at: t) }
            samples.append(v.value(at: t))
        }
        return samples
    }

    @Test func blendDurationEasesTheResponseFromTheOldSpringToTheNew() {
        let blended = mergedTrajectory(newResponse: 0.2, blend: 0.5)
        let switched = mergedTrajectory(newResponse: 0.2, blend: 0)
        let kept = mergedTrajectory(newResponse: 0.8, blend: 0)
        // Just after the merge the blended spring still moves like the old one…
        let justAfter = 40
        #expect(abs(blended[justAfter] - kept[justAfter]) < abs(blended[justAfter] - switched[justAfter]) / 4,
                "at first the response is the old one: \(blended[justAfter]) kept \(kept[justAfter]) switched \(switched[justAfter])")
        // …by the blend's end it moves faster than the old, but has not caught the switched one.
        let end = 36 + 60
        #expect(blended[end] > kept[end] + 1 && blended[end] < switched[end] - 1,
                "in between at the blend's end: \(kept[end]) < \(blended[end]) < \(switched[end])")
        #expect(abs(blended.last! - 200) < 1, "it still arrives")
        // Without a response change there is nothing to blend.
        let sameResponse = mergedTrajectory(newResponse: 0.8, blend: 0.5)
        for (a, b) in zip(sameResponse, kept) { #expect(abs(a - b) < 1e-9) }
    }

    func rollsDown(from old: String, to new: String, transition: ContentTransition) -> Bool? {
        let graph = SceneGraph()
        let frame = AnimatableRect(x: 0, y: 0, width: 200, height: 40)
        graph.update(to: [LeafDescription(id: NodeID("altitude"), frame: frame, content: .text(old), contentTransition: transition)],
                     transaction: Transaction(), at: 0)
        graph.update(to: [LeafDescription(id: NodeID("altitude"), frame: frame, content: .text(new), contentTransition: transition)],
                     transaction: Transaction(animation: .easeInOut(duration: 0.4)), at: 0)
        graph.sample(at: 0.1)
        return graph.renderList.first?.contentTransition?.rollsDown
    }

    @Test func aNumericValueRollsDownWhenItFallsAndUpWhenItRises() {
        #expect(rollsDown(from: "36,000", to: "35,500", transition: .numericTextValue(35_500)) == true)
        #expect(rollsDown(from: "36,000", to: "36,500", transition: .numericTextValue(36_500)) == false)
        #expect(rollsDown(from: "3.2", to: "12.9", transition: .numericTextValue(12.9)) == false, "more digits, larger")
        #expect(rollsDown(from: "12.9", to: "3.2", transition: .numericTextValue(3.2)) == true, "fewer digits, smaller")
        #expect(rollsDown(from: "-40", to: "-45", transition: .numericTextValue(-45)) == true, "the sign is read")
        // A fixed direction ignores the values.
        #expect(rollsDown(from: "36,000", to: "36,500", transition: .numericText(countsDown: true)) == true)
        #expect(rollsDown(from: "36,000", to: "35,500", transition: .numericText(countsDown: false)) == false)
    }
}
