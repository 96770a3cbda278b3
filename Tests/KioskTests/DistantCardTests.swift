import Testing
import AnimationCore
@testable import KioskModel
@testable import KioskRendering
@testable import KioskTools
import Display

/// The card read across the room: type sized by the angle it makes at the
/// reader's eye, from the panel's size and the viewing distance.
@Suite struct DistantCardTests {
    /// Panels as sold for each audited size, and a distance they are read from.
    static let panels: [(width: Int, height: Int, mm: (Double, Double), metres: Double)] = [
        (800, 480, (154, 86), 2.5),      // 7-inch
        (1024, 600, (154, 86), 2.5),     // 7-inch
        (1280, 720, (222, 125), 2.5),    // 10.1-inch
        (1920, 1080, (598, 336), 2.5),   // 27-inch monitor
        (480, 800, (86, 154), 2.5),      // 7-inch, portrait
        (720, 1280, (68, 121), 1),       // 5.5-inch, portrait, on a desk
        (800, 600, (162, 122), 2.5),     // 8-inch
        (1024, 768, (197, 148), 2.5),    // 9.7-inch
        (720, 720, (72, 72), 0.8),       // 4-inch square, on a desk
        (1280, 1024, (338, 270), 2.5),   // 17-inch monitor
    ]

    static func viewing(_ p: (width: Int, height: Int, mm: (Double, Double), metres: Double)) -> ViewingGeometry? {
        ViewingGeometry(distanceMetres: p.metres, widthMM: p.mm.0, heightMM: p.mm.1, width: p.width, height: p.height)
    }

    @Test func arcMinutesArePixelsOfThePanel() throws {
        // A 7-inch 800x480 panel (0.186 mm a pixel) at 2.5 m: 15' is 10.9 mm, 58.7 px.
        let seven = try #require(ViewingGeometry(distanceMetres: 2.5, widthMM: 154, heightMM: 86, width: 800, height: 480))
        #expect(abs(seven.pixels(arcMinutes: 15) - 58.7) < 0.3)
        #expect(abs(seven.arcMinutes(pixels: seven.pixels(arcMinutes: 12)) - 12) < 1e-9)
        // Not a panel: no size, a 4K mode on 1 cm, pixels twice as tall as wide, nowhere to stand.
        #expect(ViewingGeometry(distanceMetres: 2.5, widthMM: 0, heightMM: 0, width: 800, height: 480) == nil)
        #expect(ViewingGeometry(distanceMetres: 2.5, widthMM: 10, heightMM: 6, width: 3840, height: 2160) == nil)
        #expect(ViewingGeometry(distanceMetres: 2.5, widthMM: 154, heightMM: 172, width: 800, height: 480) == nil)
        #expect(ViewingGeometry(distanceMetres: .nan, widthMM: 154, heightMM: 86, width: 800, height: 480) == nil)
        #expect(ViewingGeometry(distanceMetres: 0, widthMM: 154, heightMM: 86, width: 800, height: 480) == nil)
    }

    /// The distant card where the design's callsign would be under 15'; the
    /// design's where it reads (a monitor; a small panel read close).
    @Test func theDistantCardWhereTheDesignsIsTooSmall() throws {
        func layout(_ w: Int, _ h: Int, _ mm: (Double, Double), _ metres: Double) throws -> KioskLayout {
            let viewing: ViewingGeometry = try #require(ViewingGeometry(distanceMetres: metres, widthMM: mm.0, heightMM: mm.1, width: w, height: h))
            return KioskLayout(width: w, height: h, viewing: viewing)
        }
        #expect(try layout(800, 480, (154, 86), 2.5).distantCard != nil)
        #expect(try layout(800, 480, (154, 86), 0.5).distantCard == nil)
        #expect(try layout(1920, 1080, (598, 336), 2.5).distantCard == nil)
        #expect(KioskLayout(width: 800, height: 480).distantCard == nil, "no size known: the design's card")
        let card = try #require(try layout(800, 480, (154, 86), 2.5).distantCard)
        #expect(card.callsignSize >= 58.7 / KioskStyle.capHeightPerEm - 1 && card.altitudeSize >= 47 / KioskStyle.capHeightPerEm - 1)
    }

    /// The faces' capitals stand as tall as the model takes them to.
    @Test func theCapitalsAreThreeQuartersOfTheEm() throws {
        let fonts = try FontSet()
        for face in [fonts.regular, fonts.bold, fonts.mono] { #expect(abs(Double(face.capHeightEm) - KioskStyle.capHeightPerEm) < 0.005) }
    }

    /// The audit with the panel's size and distance: at every audited size,
    /// in every unit choice, with the sample and the longest strings, the
    /// callsign's capitals stand 15 and the altitude's 12 arc-minutes tall,
    /// everything on the card stays inside it, and the dial clears it.
    @Test(arguments: Array(panels.indices))
    func theAuditPassesReadFromTheRoom(panel: Int) throws {
        let p = Self.panels[panel]
        let fonts = try FontSet()
        let viewing = try #require(Self.viewing(p))
        for state in [Audit.sampleOverflight, Audit.longestOverflight, Audit.alertOverflight, .standby] {
            for units in Audit.unitChoices {
                let found = Audit.problems(width: p.width, height: p.height, state: state, fonts: fonts, units: units, viewing: viewing)
                #expect(found.isEmpty, "\(p.width)x\(p.height) \(units): \(found.joined(separator: "; "))")
            }
        }
    }

    /// `panel_mm` is given as the mode stands: a picture turned to portrait
    /// stands on it turned. A headless display has no size of its own.
    @Test func theConfiguredPanelStandsAsThePictureDoes() throws {
        var config = KioskConfiguration()
        config.panelSizes = [PanelSize(width: 154, height: 86)]
        let portrait = try HeadlessDisplay(width: 480, height: 800, refreshRate: 30)
        let layout = config.layout(for: portrait, output: 0)
        let viewing = try #require(layout.viewing)
        #expect(viewing.panelMillimetres == (86, 154) && viewing.distanceMetres == 2.5 && layout.distantCard != nil)
        #expect(KioskConfiguration().layout(for: portrait, output: 0).viewing == nil)
        config.viewingDistanceMetres = 0.5
        #expect(config.layout(for: portrait, output: 0).distantCard == nil, "read at arm's length: the full card")
    }

    /// The card shows four rows (the callsign, the route, the details on up
    /// to two lines, the altitude) under its status word, nothing else.
    @Test func theDistantCardHasFourRows() throws {
        let layout = KioskLayout(width: 800, height: 480, viewing: ViewingGeometry(distanceMetres: 2.5, widthMM: 154, heightMM: 86, width: 800, height: 480))
        let renderer = KioskRenderer(fonts: try FontSet())
        let controller = KioskController(layout: layout, initial: Demo.sampleOverflight, measure: renderer)
        _ = controller.frameNeeded(at: 5)
        let shown = controller.renderList.filter { item in
            guard item.opacity > 0.001, item.id.path.hasPrefix("card/"), case let .text(text) = item.content else { return false }
            return !text.isEmpty
        }
        let baselines = Set(shown.map { Int($0.frame.maxY) })
        #expect(baselines.count <= 5, "rows: \(shown.map { "\($0.id) \($0.content)" })")
        #expect(Set(shown.map(\.id.path)).isSubset(of: ["card/callsign", "card/route", "card/details", "card/details2", "card/row0/value", "card/place"]),
                "\(shown.map(\.id.path))")
    }
}
