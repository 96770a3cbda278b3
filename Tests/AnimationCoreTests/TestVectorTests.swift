import Testing
@testable import AnimationCore

/// The tables T-1 … T-7 of swiftui-semantics.md (printed to six decimals by
/// swiftui-semantics-vectors.py), reproduced within 1e-6.
@Suite struct TestVectorTests {
    static let tolerance = 1.5e-6

    /// The fraction of a 0 → 1 change covered at `t`, run as the kiosk runs it.
    func run(_ animation: Animation, at times: [Double], delta: Double = 1) -> [Double] {
        var value = AnimatedValue<Double>(0)
        value.set(delta, animation: animation, at: 0)
        return times.map { value.value(at: $0) / delta }
    }

    func expectClose(_ got: [Double], _ want: [Double], tolerance: Double = tolerance, _ label: String = "") {
        for (g, w) in zip(got, want) {
            #expect(abs(g - w) <= tolerance, "\(label): got \(g), want \(w)")
        }
    }

    @Test func t1CurvesByProgress() {
        let ps = [0.10, 0.25, 0.50, 0.75, 0.90]
        expectClose(ps.map(UnitCurve.linear.value), [0.1, 0.25, 0.5, 0.75, 0.9])
        expectClose(ps.map(UnitCurve.easeIn.value), [0.017027, 0.093465, 0.315357, 0.621862, 0.839428])
        expectClose(ps.map(UnitCurve.easeOut.value), [0.160572, 0.378138, 0.684643, 0.906535, 0.982973])
        expectClose(ps.map(UnitCurve.easeInOut.value), [0.019722, 0.129162, 0.500000, 0.870838, 0.980278])
        let vs = [0.25, 0.5, 0.75]
        expectClose(vs.map(UnitCurve.easeIn.velocity), [0.6746, 1.0740, 1.3683], tolerance: 6e-5)
        expectClose(vs.map(UnitCurve.easeOut.velocity), [1.3683, 1.0740, 0.6746], tolerance: 6e-5)
        expectClose(vs.map(UnitCurve.easeInOut.velocity), [1.0593, 1.7241, 1.0593], tolerance: 6e-5)
    }

    @Test func t2EaseInOutByTime() {
        let ts = [0, 0.035, 0.05, 0.0875, 0.1, 0.175, 0.25, 0.2625, 0.3, 0.35]
        expectClose(run(.easeInOut(duration: 0.35), at: ts),
                    [0, 0.019722, 0.040904, 0.129162, 0.169702, 0.5, 0.830298, 0.870838, 0.959096, 1.0])
        var v = AnimatedValue<Double>(0)
        v.set(1, animation: .easeInOut(duration: 0.35), at: 0)
        _ = v.value(at: 0.36)
        #expect(!v.isAnimating, "finished after its duration")
        expectClose(run(.linear(duration: 0.35), at: [0.1, 0.175, 0.25]), [0.285714, 0.5, 0.714286])
        expectClose(run(.easeIn(duration: 0.35), at: [0.1, 0.175, 0.25]), [0.118784, 0.315357, 0.573691])
        expectClose(run(.easeOut(duration: 0.35), at: [0.1, 0.175, 0.25]), [0.426309, 0.684643, 0.881216])
    }

    static let springTimes = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.75, 1.0]

    /// Integrator state before the finish test, sampled at the table's times.
    func integrated(response: Double, zeta: Double) -> [Double] {
        var state = AnimationRunState<Double>()
        return Self.springTimes.map { t in
            _ = Animation.integrate(response: response, dampingFraction: zeta, delta: 1, time: t, state: &state)
            return state.x
        }
    }

    /// The first 60 Hz frame at which the spring reports finished.
    func finishTime(_ animation: Animation, delta: Double, hz: Double = 60) -> Double {
        var v = AnimatedValue<Double>(0)
        v.set(delta, animation: animation, at: 0)
        var frame = 0
        while v.isAnimating && frame < 10_000 {
            frame += 1
            _ = v.value(at: Double(frame) / hz)
        }
        return Double(frame) / hz
    }

    @Test func t3Springs() {
        let cases: [(Animation, Double, Double, [Double], [Double], Double, Double)] = [
            (.spring(response: 0.5, dampingFraction: 0.825), 0.5, 0.825,
             [0.139417, 0.393608, 0.628021, 0.799649, 0.908178, 0.968511, 1.008260, 1.008402, 1.000259, 0.999945],
             [0.134933, 0.407970, 0.639455, 0.805948, 0.909870, 0.964494, 1.005053, 1.006794, 1.000269, 0.999963],
             0.5333, 0.9833),
            (.default, 0.55, 1,
             [0.112512, 0.316461, 0.510965, 0.665624, 0.778285, 0.856214, 0.942287, 0.977810, 0.998181, 0.999864],
             [0.109132, 0.328388, 0.521119, 0.672355, 0.781732, 0.853062, 0.939237, 0.975601, 0.997724, 0.999788],
             0.8833, 1.3833),
            (.smooth, 0.5, 1,
             [0.131311, 0.357740, 0.561960, 0.715416, 0.821026, 0.890034, 0.960457, 0.986399, 0.999159, 0.999953],
             [0.127702, 0.370762, 0.572065, 0.721278, 0.823335, 0.886455, 0.957431, 0.984469, 0.998854, 0.999915],
             0.8333, 1.2667),
            (.snappy, 0.5, 0.85,
             [0.138210, 0.388102, 0.617685, 0.786369, 0.894509, 0.956447, 1.001617, 1.006020, 1.000436, 0.999966],
             [0.133863, 0.402265, 0.628909, 0.792594, 0.896300, 0.952490, 0.998433, 1.004350, 1.000390, 0.999981],
             0.5667, 1.0333),
            (.bouncy, 0.5, 0.7,
             [0.145715, 0.423302, 0.685055, 0.873711, 0.984087, 1.033930, 1.039303, 1.014498, 0.998192, 1.000072],
             [0.140482, 0.438695, 0.697643, 0.880468, 0.985244, 1.029657, 1.036009, 1.013297, 0.998521, 1.000055],
             0.7667, 1.1333),
        ]
        for (animation, response, zeta, closedForm, integrator, finish1, finish100) in cases {
            let spring = Spring(response: response, dampingFraction: zeta)
            expectClose(Self.springTimes.map { spring.value(at: $0) }, closedForm, "closed form ζ \(zeta)")
            expectClose(integrated(response: response, zeta: zeta), integrator, "integrator ζ \(zeta)")
            #expect(abs(finishTime(animation, delta: 1) - finish1) < 0.001, "finish Δ=1 ζ \(zeta)")
            #expect(abs(finishTime(animation, delta: 100) - finish100) < 0.001, "finish Δ=100 ζ \(zeta)")
        }
        #expect(abs(finishTime(.smooth, delta: 1, hz: 120) - 0.825) < 0.001)
        #expect(abs(Spring(response: 0.5, dampingFraction: 0.825).settlingDuration - 0.9008) < 0.001)
        #expect(abs(Spring(response: 0.5, dampingFraction: 0.7).settlingDuration - 1.0447) < 0.001)
    }

    @Test func t4InterpolatingSpring() {
        let want = [0.104405, 0.340300, 0.610493, 0.849426, 1.023360, 1.124355, 1.153123, 1.074591, 0.974152, 1.002170]
        expectClose(run(.interpolatingSpring(stiffness: 100, damping: 10), at: Self.springTimes), want)
    }

    @Test func t5Retargeting() {
        // Merge: spring 0 -> 1, at 0.2 the target becomes 2.
        var merged = AnimatedValue<Double>(0)
        merged.set(1, animation: .spring(response: 0.5, dampingFraction: 0.825), at: 0)
        var got: [Double] = [merged.value(at: 0.1), merged.value(at: 0.2)]
        merged.set(2, animation: .spring(response: 0.5, dampingFraction: 0.825), at: 0.2)
        got += [0.25, 0.3, 0.4, 0.5, 0.75, 1.0].map { merged.value(at: $0) }
        // The table prints the integrator's state at 1.0 s (2.000020); by then the
        // merged spring has finished (0.7167 s below) and presents the model value.
        expectClose(got, [0.407970, 0.805948, 1.044803, 1.337993, 1.792691, 1.968426, 2.005088, 2.0])
        var sixty = AnimatedValue<Double>(0)
        sixty.set(1, animation: .spring(response: 0.5, dampingFraction: 0.825), at: 0)
        var frame = 0
        while sixty.isAnimating && frame < 600 {
            frame += 1
            _ = sixty.value(at: Double(frame) / 60)
            if frame == 12 { sixty.set(2, animation: .spring(response: 0.5, dampingFraction: 0.825), at: 0.2) }
        }
        #expect(abs(Double(frame) / 60 - 0.7167) < 0.001)

        // Combine, timing curve: easeInOut 0 -> 1, at 0.1 back to 0.
        var combined = AnimatedValue<Double>(0)
        combined.set(1, animation: .easeInOut(duration: 0.35), at: 0)
        var values = [combined.value(at: 0.1)]
        combined.set(0, animation: .easeInOut(duration: 0.35), at: 0.1)
        values += [0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45].map { combined.value(at: $0) }
        expectClose(values, [0.169702, 0.362952, 0.516087, 0.516087, 0.362952, 0.169702, 0.040904, 0])

        // Combine, interpolating spring: 0 -> 1, at 0.2 the target becomes 2.
        var spring = AnimatedValue<Double>(0)
        spring.set(1, animation: .interpolatingSpring(stiffness: 100, damping: 10), at: 0)
        var sv = [spring.value(at: 0.1), spring.value(at: 0.2)]
        spring.set(2, animation: .interpolatingSpring(stiffness: 100, damping: 10), at: 0.2)
        sv += [0.25, 0.3, 0.4, 0.5, 0.75, 1.0, 1.5].map { spring.value(at: $0) }
        expectClose(sv, [0.340300, 0.849426, 1.125326, 1.422337, 1.872482, 2.115079, 2.034487, 1.979052, 2.000448])
    }

    @Test func t6Conversions() {
        let cases: [(Double, Double, Double, Double, Double)] = [
            (0.5, 0, 1.0, 157.9137, 25.1327), (0.5, 0.15, 0.85, 157.9137, 21.3628), (0.5, 0.3, 0.7, 157.9137, 17.5929),
            (0.5, -0.5, 2.0, 157.9137, 50.2655), (0.55, 0, 1.0, 130.5072, 22.8479), (1.0, 0.2, 0.8, 39.4784, 10.0531),
        ]
        for (duration, bounce, zeta, k, c) in cases {
            let s = Spring(duration: duration, bounce: bounce)
            #expect(abs(s.dampingFraction - zeta) < 1e-9)
            #expect(abs(s.stiffness - k) < 1e-4)
            #expect(abs(s.damping - c) < 1e-4)
        }
        let back = Spring(mass: 1, stiffness: 100, damping: 10)
        #expect(abs(back.duration - 0.6283) < 1e-4)
        #expect(abs(back.bounce - 0.5) < 1e-9)
        let apple = Spring(duration: 0.5, bounce: 0.3)
        #expect(abs(apple.stiffness - 157.9) < 0.05 && abs(apple.damping - 17.6) < 0.05)
    }

    @Test func t7Modifiers() {
        expectClose(run(.easeIn(duration: 0.2).delay(0.25), at: [0, 0.1, 0.25, 0.3, 0.35, 0.4, 0.45]),
                    [0, 0, 0, 0.093465, 0.315357, 0.621862, 1.0])
        var delayed = AnimatedValue<Double>(0)
        delayed.set(1, animation: .easeIn(duration: 0.2).delay(0.25), at: 0)
        _ = delayed.value(at: 0.451)
        #expect(!delayed.isAnimating)
        expectClose(run(.linear(duration: 1).speed(2), at: [0.1, 0.25, 0.5]), [0.2, 0.5, 1.0])
        expectClose(run(.linear(duration: 1).delay(0.5).speed(2), at: [0.1, 0.25, 0.5, 0.75]), [0, 0, 0.5, 1])
        expectClose(run(.linear(duration: 1).speed(2).delay(0.5), at: [0.25, 0.5, 0.75, 1.0]), [0, 0, 0.5, 1])
        expectClose(run(.linear(duration: 1).repeatCount(2, autoreverses: true), at: [0.25, 1.25, 1.75, 2.0, 2.5]),
                    [0.25, 0.75, 0.25, 1.0, 1.0])
        expectClose(run(.linear(duration: 1).repeatCount(3, autoreverses: true), at: [2.25, 3.0, 3.5]), [0.25, 1.0, 1.0])
        var forever = AnimatedValue<Double>(0)
        forever.set(1, animation: .linear(duration: 1).repeatForever(), at: 0)
        _ = forever.value(at: 1000.25)
        #expect(forever.isAnimating && abs(forever.presentation - 0.25) < 1e-6)
    }
}
