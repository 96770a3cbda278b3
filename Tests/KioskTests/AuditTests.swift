import Testing
import AnimationCore
@testable import KioskModel
@testable import KioskRendering
@testable import KioskTools

/// The audit must report what it looks for: it is shown each kind of problem.
@Suite struct AuditFindsProblemsTests {
    static let layout = KioskLayout(width: 800, height: 480)

    func items(_ state: KioskState) -> [RenderItem] {
        let controller = KioskController(layout: Self.layout, initial: state)
        _ = controller.frameNeeded(at: 0)
        return controller.renderList
    }

    func problems(_ items: [RenderItem]) throws -> [String] {
        Audit.problems(in: items, layout: Self.layout, renderer: KioskRenderer(fonts: try FontSet()), place: "test")
    }

    /// At every audited size and unit choice: the alert card (amber, its
    /// longest lines), the longest card once its aircraft has left, and
    /// the dial's labels, the rings' ranges the traffic steps through included.
    @Test func theAlertCardAndTheDialsLabelsPassAtEveryLayout() throws {
        let fonts = try FontSet()
        for size in Audit.sizes {
            let wh = size.split(separator: "x").compactMap { Int($0) }
            for state in [Audit.alertOverflight, Audit.longestPassage, .standby] {
                for units in Audit.unitChoices {
                    let found = Audit.problems(width: wh[0], height: wh[1], state: state, fonts: fonts, units: units)
                    #expect(found.isEmpty, "\(size) \(units): \(found.joined(separator: "; "))")
                }
            }
        }
    }

    /// The dial turned to face a window: its labels stay on the screen and
    /// off the card, and the card's where-to-look row passes, at every size.
    @Test func theTurnedDialPassesAtEveryLayout() throws {
        let fonts = try FontSet()
        for size in Audit.sizes {
            let wh = size.split(separator: "x").compactMap { Int($0) }
            for facing in Audit.facings {
                for state in [Audit.sampleOverflight, .standby] {
                    let found = Audit.problems(width: wh[0], height: wh[1], state: state, fonts: fonts, facing: facing)
                    #expect(found.isEmpty, "\(size) facing \(facing): \(found.joined(separator: "; "))")
                }
            }
        }
    }

    /// A compass label turned off the screen is reported.
    @Test func aCompassLabelOffTheScreenIsReported() throws {
        var list = items(.standby)
        let i = try #require(list.firstIndex { $0.id == KioskScene.dialID })
        list[i].frame.x -= list[i].frame.width / 2
        #expect(try problems(list).contains { $0.contains("runs off the screen") })
    }

    @Test func theKiosksOwnSceneHasNone() throws {
        #expect(try problems(items(Demo.sampleOverflight)).isEmpty)
        #expect(try problems(items(.standby)).isEmpty)
    }

    @Test func lowContrastIsReported() throws {
        var list = items(Demo.sampleOverflight)
        let i = try #require(list.firstIndex { $0.id.path == "card/route" })
        list[i].opacity = 0.2
        let found = try problems(list)
        #expect(found.contains { $0.contains("card/route") && $0.contains("has contrast") }, "\(found)")
    }

    @Test func textDrawnTooSmallIsReported() throws {
        var list = items(Demo.sampleOverflight)
        let i = try #require(list.firstIndex { $0.id.path == "card/row0/label" })
        list[i].frame.y += list[i].frame.height - 7
        list[i].frame.height = 7
        #expect(try problems(list).contains { $0.contains("card/row0/label is drawn") && $0.contains("px tall, below") })
    }

    @Test func anInvisibleLeafNotTaggedDecorativeIsReported() throws {
        var list = items(.standby)
        let i = try #require(list.firstIndex { $0.id.path == "card/callsign" })
        list[i].isDecorative = false
        #expect(try problems(list).contains { $0.contains("card/callsign#") && $0.contains("is invisible but not tagged decorative") })
    }

    @Test func dialLabelsBelowTheMinimumAreReported() throws {
        // A screen whose minimum is above what the dial's labels would be drawn at: 1080p wants 23.8 px.
        let big = KioskLayout(width: 1920, height: 1080)
        let controller = KioskController(layout: big)
        _ = controller.frameNeeded(at: 0)
        let renderer = KioskRenderer(fonts: try FontSet())
        let dial = try #require(controller.renderList.first { $0.id == KioskScene.dialID })
        let sizes = renderer.dialLabelSizes(dial, minimumTextSize: Float(big.minimumTextSize))
        #expect(Double(sizes.range) >= big.minimumTextSize && Double(sizes.compass) >= big.minimumTextSize)
        // Told a smaller minimum, the renderer draws the range labels at the design's 16 px, which the audit on 1080p reports.
        let small = renderer.dialLabelSizes(dial, minimumTextSize: 12)
        #expect(small.range < Float(big.minimumTextSize))
    }
}
