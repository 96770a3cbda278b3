import Testing
@testable import AnimationCore

/// One test per lesson of the seed (shared/seeds), written as a user of the
/// module would: describe leaves for two states, update under a transaction,
/// sample the render list over time.
@Suite struct SeedLessonTests {
    let spring = Animation.spring(duration: 0.5, bounce: 0)

    func rect(_ x: Double, _ y: Double, _ w: Double = 100, _ h: Double = 50) -> AnimatableRect {
        AnimatableRect(x: x, y: y, width: w, height: h)
    }

    func items(_ graph: SceneGraph, _ path: String) -> [RenderItem] {
        graph.renderList.filter { $0.id.path == path }
    }

    // Lesson 1: leaves animate their own frames; if/else gives two leaves that fade.
    @Test func lesson1ReplacementFadesWhilePersistentLeafGlides() {
        let graph = SceneGraph()
        let from = rect(0, 0), to = rect(300, 200)
        graph.update(to: [LeafDescription(id: NodeID("persistent"), frame: from),
                          LeafDescription(id: NodeID("branch/standby"), frame: from)],
                     transaction: Transaction(), at: 0)
        graph.sample(at: 0)
        // The same state change, once with a persistent leaf, once as if/else.
        graph.update(to: [LeafDescription(id: NodeID("persistent"), frame: to),
                          LeafDescription(id: NodeID("branch/overflight"), frame: to)],
                     transaction: Transaction(animation: .easeInOut(duration: 0.4)), at: 0)
        var previous = from
        for step in 1...8 {
            let t = Double(step) * 0.05
            graph.sample(at: t)
            let glide = items(graph, "persistent")
            #expect(glide.count == 1)
            let f = glide[0].frame
            // On the straight line from start to end, moving forward.
            let progress = (f.x - from.x) / (to.x - from.x)
            #expect(abs(f.y - (from.y + progress * (to.y - from.y))) < 1e-6)
            #expect(f.x >= previous.x)
            previous = f
            let old = items(graph, "branch/standby"), new = items(graph, "branch/overflight")
            if t < 0.4 {
                #expect(old.count == 1 && new.count == 1, "both branches drawn mid-change at \(t)")
                #expect(old[0].frame == from, "the removed branch stays at its old frame")
                #expect(new[0].frame == to, "the inserted branch is at its destination")
                #expect(old[0].opacity < 1 && new[0].opacity < 1, "they crossfade")
            }
        }
        graph.sample(at: 0.5)
        #expect(items(graph, "branch/standby").isEmpty, "erased once its removal finished")
    }

    @Test func lesson1ParentIdChangeRebuildsAndCrossfades() {
        let graph = SceneGraph()
        graph.update(to: [LeafDescription(id: NodeID("card/title", id: "standby"), frame: rect(0, 0))],
                     transaction: Transaction(), at: 0)
        graph.update(to: [LeafDescription(id: NodeID("card/title", id: "overflight"), frame: rect(0, 100))],
                     transaction: Transaction(animation: .linear(duration: 0.2)), at: 0)
        graph.sample(at: 0.1)
        let titles = graph.renderList.filter { $0.id.path == "card/title" }
        #expect(titles.count == 2)
        #expect(titles.contains { $0.frame.y == 0 && abs($0.opacity - 0.5) < 1e-6 })
        #expect(titles.contains { $0.frame.y == 100 && abs($0.opacity - 0.5) < 1e-6 })
    }

    @Test func lesson1ChildInsertedWhileParentMovesAppearsAtItsDestination() {
        let graph = SceneGraph()
        graph.update(to: [LeafDescription(id: NodeID("card/background"), frame: rect(0, 0, 200, 200))],
                     transaction: Transaction(), at: 0)
        // The card moves right by 400; a row is inserted inside it in the same update.
        graph.update(to: [LeafDescription(id: NodeID("card/background"), frame: rect(400, 0, 200, 200)),
                          LeafDescription(id: NodeID("card/row"), frame: rect(420, 20, 100, 20))],
                     transaction: Transaction(animation: spring), at: 0)
        graph.sample(at: 0.1)
        let background = items(graph, "card/background")[0], row = items(graph, "card/row")[0]
        #expect(background.frame.x > 0 && background.frame.x < 400, "the card is on its way")
        #expect(row.frame.x == 420, "the row is already at its destination, ahead of the card")
    }

    // Lesson 2: one persistent leaf animates position and face blend together;
    // the timeline's clock passes through unanimated.
    @Test func lesson2PositionAndBlendInLockstepWhileTheClockRunsFree() {
        let graph = SceneGraph()
        let schedule = TimelineSchedule.animation(minimumInterval: 1.0 / 60)
        graph.update(to: [LeafDescription(id: NodeID("dial"), frame: rect(0, 0, 400, 400), content: .custom,
                                          custom: AnimatableRect(x: 0, y: 0, width: 0, height: 0))],
                     transaction: Transaction(), at: 0)
        graph.update(to: [LeafDescription(id: NodeID("dial"), frame: rect(200, 0, 400, 400), content: .custom,
                                          custom: AnimatableRect(x: 1, y: 0, width: 0, height: 0))],
                     transaction: Transaction(animation: .easeInOut(duration: 0.5)), at: 0)
        for step in 1..<30 {
            let now = Double(step) / 60 + 0.004
            graph.sample(at: now)
            let dial = graph.renderList[0]
            let positionProgress = dial.frame.x / 200
            #expect(abs(positionProgress - dial.custom.x) < 1e-9, "blend and position share one curve")
            // The timeline's date is the latest 1/60 s entry, not an interpolated value.
            let date = schedule.date(at: now, start: 0)!
            #expect(abs(date - Double(step) / 60) < 1e-9)
        }
    }

    // Lesson 3: a label whose string changes as it moves stays one label with identity / numericText.
    @Test(arguments: [ContentTransition.identity, .numericText(countsDown: false)])
    func lesson3LabelStaysOneWhileMoving(transition: ContentTransition) {
        let graph = SceneGraph()
        graph.update(to: [LeafDescription(id: NodeID("callsign"), frame: rect(0, 0), content: .text("BAW283"),
                                          contentTransition: transition)], transaction: Transaction(), at: 0)
        graph.update(to: [LeafDescription(id: NodeID("callsign"), frame: rect(300, 0), content: .text("DLH4AB"),
                                          contentTransition: transition)],
                     transaction: Transaction(animation: .easeInOut(duration: 0.4)), at: 0)
        for step in 1...7 {
            graph.sample(at: Double(step) * 0.05)
            let labels = items(graph, "callsign")
            #expect(labels.count == 1)
            #expect(labels[0].content == .text("DLH4AB"))
            if transition == .identity {
                #expect(labels[0].contentTransition == nil, "identity shows exactly one string")
            } else {
                let ct = labels[0].contentTransition!
                #expect(ct.from == "BAW283" && ct.to == "DLH4AB", "numericText rolls within the one label")
            }
        }
    }

    @Test func lesson3DefaultCrossfadeLeavesTheOldStringAtItsOldFrame() {
        let graph = SceneGraph()
        graph.update(to: [LeafDescription(id: NodeID("callsign"), frame: rect(0, 0), content: .text("BAW283"))],
                     transaction: Transaction(), at: 0)
        graph.update(to: [LeafDescription(id: NodeID("callsign"), frame: rect(300, 0), content: .text("DLH4AB"))],
                     transaction: Transaction(animation: .easeInOut(duration: 0.4)), at: 0)
        graph.sample(at: 0.2)
        let label = items(graph, "callsign")[0]
        let ct = label.contentTransition!
        #expect(ct.kind == .opacity)
        #expect(ct.fromFrame.x == 0, "the snapshot of the old string stays where the change began")
        #expect(label.frame.x > 0 && label.frame.x < 300, "the new string rides the moving frame")
        #expect(ct.progress > 0 && ct.progress < 1)
    }

    // Lesson 4: the status word swaps with an asymmetric transition, never both visible.
    @Test func lesson4AsymmetricStatusWordNeverOverlaps() {
        let statusTransition = Transition.asymmetric(
            insertion: Transition.opacity.animation(.easeIn(duration: 0.2).delay(0.25)),
            removal: Transition.opacity.animation(.easeOut(duration: 0.2)))
        let graph = SceneGraph()
        func word(_ s: String) -> LeafDescription {
            LeafDescription(id: NodeID("status", id: s), frame: rect(0, 0), content: .text(s), transition: statusTransition)
        }
        graph.update(to: [word("STANDBY")], transaction: Transaction(), at: 0)
        graph.update(to: [word("OVERFLIGHT")], transaction: Transaction(animation: spring), at: 1)
        var t = 1.0
        while t < 1.6 {
            graph.sample(at: t)
            let visible = graph.renderList.filter { $0.opacity > 0.001 }
            #expect(visible.count <= 1, "both words visible at \(t - 1)")
            let old = graph.renderList.first { $0.id.explicit == "STANDBY" }
            let new = graph.renderList.first { $0.id.explicit == "OVERFLIGHT" }
            if t - 1 > 0.2 + 1e-9 { #expect(old == nil || old!.opacity == 0, "old word gone by 0.2 s") }
            if t - 1 <= 0.25 { #expect(new!.opacity == 0, "new word invisible until 0.25 s") }
            t += 1.0 / 120
        }
        graph.sample(at: 2)
        #expect(graph.renderList.count == 1 && graph.renderList[0].opacity == 1)
    }
}
