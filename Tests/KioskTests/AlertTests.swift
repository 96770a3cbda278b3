import Testing
import Foundation
import Feed
@testable import KioskModel
@testable import KioskTools
import KioskRendering
import Raster

/// Alerts from a replayed capture: the Irvine readsb file with one aircraft
/// changed the way a real alert would look, everything else as captured.
@Suite struct AlertTests {
    static let station = GeoPoint(latitude: 33.635029, longitude: -117.842218)

    /// The capture with `edit` applied to one aircraft's JSON text.
    func capture(_ hex: String, _ edit: (String) -> String) throws -> AircraftSnapshot {
        let path = CardIdentityTests.root + "/Tests/FeedTests/Fixtures/readsb_overirvine_170ac.json"
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let start = try #require(text.range(of: #"{"hex":"\#(hex)""#))
        let end = try #require(text.range(of: "}", range: start.upperBound..<text.endIndex))
        text.replaceSubrange(start.lowerBound..<end.upperBound, with: edit(String(text[start.lowerBound..<end.upperBound])))
        return try AircraftJSON.parse(Array(text.utf8))
    }

    func state(_ snapshot: AircraftSnapshot, alerts: AlertRules?) -> KioskState? {
        let interpreter = FeedInterpreter(sourceName: "capture", selector: OverheadSelector(settings: .init(station: Self.station)))
        interpreter.alerts = alerts
        return interpreter.state(after: [.snapshot(snapshot)], now: snapshot.now, log: { _ in })
    }

    var defaults: AlertRules { KioskConfiguration().alerts }

    @Test func anEmergencySquawk8NMAwayComesBeforeTheAircraftOverhead() throws {
        // SKW5795 is 8.0 NM away at 2,775 ft; LXJ440 is overhead at 2.5 NM.
        let snapshot = try capture("a10d56") { $0.replacingOccurrences(of: #""squawk":"3361""#, with: #""squawk":"7700""#) }
        let shown = try #require(state(snapshot, alerts: defaults)?.aircraft)
        #expect(shown.callsign == "SKW5795" && shown.alert == "EMERGENCY 7700", "\(shown)")
        #expect(state(snapshot, alerts: nil)?.aircraft?.callsign == "LXJ440", "without alerts, the one overhead")
        var near = defaults
        near.radiusNM = 5
        #expect(state(snapshot, alerts: near)?.aircraft?.callsign == "LXJ440", "beyond the alert radius: the one overhead")
        #expect(state(try capture("a10d56") { $0 }, alerts: defaults)?.aircraft?.alert == nil, "the capture as it was: no alert")
    }

    @Test func militaryAndTheWatchListEachAlert() throws {
        let military = try capture("a0d8ec") { $0.replacingOccurrences(of: #""squawk":"0204""#, with: #""squawk":"0204","dbFlags":1"#) }
        #expect(state(military, alerts: defaults)?.aircraft?.callsign == "LXJ440", "military is off by default")
        var rules = defaults
        rules.military = true
        #expect(state(military, alerts: rules)?.aircraft.map { "\($0.callsign) \($0.alert ?? "")" } == "N1539E MILITARY")
        var watching = defaults
        watching.watchList = try AlertRules.watchList("# spotting\ncallsign: SWA1\n", name: "watch")
        // SWA104 (4.7 NM) is the nearest SWA1…; SWA2137 does not match the prefix.
        #expect(state(try capture("a10d56") { $0 }, alerts: watching)?.aircraft.map { "\($0.callsign) \($0.alert ?? "")" } == "SWA104 WATCHED")
    }

    @Test func theWatchListFileIsCheckedLineByLine() throws {
        let entries = try AlertRules.watchList("hex:4ca7b5\nreg: g-eupt # a note\ncallsign:RRR\ntype:A400\n\n", name: "w")
        #expect(entries == [.address("4CA7B5"), .registration("G-EUPT"), .callsignPrefix("RRR"), .type("A400")])
        #expect(throws: AlertRulesError.self) { try AlertRules.watchList("hex:4ca7b5\nplane:X\n", name: "w") }
        let bad = #expect(throws: AlertRulesError.self) { try AlertRules.watchList("ok:1\n", name: "w") }
        #expect(bad?.description == "w:1: expected hex:, reg:, callsign: or type:, not 'OK'")
        #expect(throws: AlertRulesError.self) { try AlertRules.watchList("hex:12345\n", name: "w") }
    }

    /// Each kind of entry matches as the list says, case aside; a callsign entry is a prefix.
    @Test func everyKindOfWatchEntryMatches() throws {
        var rules = AlertRules()
        rules.emergencies = false
        rules.military = false
        rules.watchList = try AlertRules.watchList("hex:4ca7b5\nreg:g-eupt\ncallsign:RRR\ncallsign:BAW28\ntype:A400\n", name: "w")
        func report(_ hex: String, callsign: String? = nil, registration: String? = nil, type: String? = nil) -> AircraftReport {
            var r = AircraftReport(hex: hex)
            r.callsign = callsign
            r.registration = registration
            r.typeCode = type
            return r
        }
        #expect(rules.alert(for: report("4ca7b5")) == "WATCHED")
        #expect(rules.alert(for: report("4CA7B6")) == nil)
        #expect(rules.alert(for: report("000001", registration: "G-EUPT")) == "WATCHED")
        #expect(rules.alert(for: report("000001", registration: "G-EUP")) == nil)
        #expect(rules.alert(for: report("000001", callsign: "rrr7501")) == "WATCHED")
        #expect(rules.alert(for: report("000001", callsign: "BAW283")) == "WATCHED")
        #expect(rules.alert(for: report("000001", callsign: "BAW2")) == nil, "shorter than every prefix")
        #expect(rules.alert(for: report("000001", callsign: "RR")) == nil)
        #expect(rules.alert(for: report("000001", type: "a400")) == "WATCHED")
        #expect(rules.alert(for: report("000001", type: "A40")) == nil)
        rules.watchList = []
        #expect(rules.alert(for: report("4ca7b5")) == nil, "an emptied list matches nothing")
    }

    @Test func theAlertCardPassesTheAuditAndNamesTheAlert() throws {
        var a = Demo.sampleAircraft
        a.alert = "EMERGENCY 7700"
        let state = KioskState(mode: .overflight, aircraft: a)
        let fonts = try FontSet()
        for size in Audit.sizes {
            let s = try parseSize(size)
            #expect(Audit.problems(width: s.width, height: s.height, state: state, fonts: fonts).isEmpty, "\(size)")
        }
        let c = KioskController(layout: KioskLayout(width: 800, height: 480), initial: state)
        _ = c.frameNeeded(at: 0)
        #expect(c.renderList.contains { $0.id.path == "status" && $0.content == .text("EMERGENCY 7700") && KioskStyle($0.style) == .distressStatus })
        #expect(c.renderList.contains { $0.id.path == "card/background" && KioskStyle($0.style) == .distressCard })
    }

    /// Distress, urgency and interest look different across the room: the
    /// card's outline, the status word and the aircraft's mark on the dial
    /// in red, amber or blue, each audited for contrast at every size.
    @Test func alertsOfEachLevelHaveTheirOwnColour() throws {
        let fonts = try FontSet()
        let renderer = KioskRenderer(fonts: fonts)
        var seen: [String: (outline: UInt32, mark: UInt32)] = [:]
        for (alert, level) in [("EMERGENCY 7700", AlertLevel.distress), ("EMERGENCY 7500", .distress), ("EMERGENCY", .distress),
                               ("EMERGENCY 7600", .urgency), ("EMERGENCY NORDO", .urgency), ("MILITARY", .interest), ("WATCHED", .interest)] {
            #expect(AlertLevel(alert) == level, "\(alert)")
            var a = Demo.sampleAircraft
            a.alert = alert
            let state = KioskState(mode: .overflight, aircraft: a)
            for size in ["800x480", "480x800"] {
                let s = try parseSize(size)
                #expect(Audit.problems(width: s.width, height: s.height, state: state, fonts: fonts).isEmpty, "\(alert) at \(size)")
            }
            let tick = FrameTick(controller: KioskController(layout: KioskLayout(width: 800, height: 480), initial: state, measure: renderer),
                                 renderer: renderer, buffer: PixelBuffer(width: 800, height: 480))
            tick.draw(at: 0)
            let card = try #require(tick.controller.renderList.first { $0.id.path == "card/background" }).frame
            let mark = try #require(tick.controller.renderList.first { $0.id.path == "dial/marker" }).frame
            seen[alert] = (tick.frame[Int(card.x) + 1, Int(card.midY)], tick.frame[Int(mark.x), Int(mark.y)])
        }
        func rgb(_ p: UInt32) -> (r: Int, g: Int, b: Int) { (Int((p >> 16) & 0xFF), Int((p >> 8) & 0xFF), Int(p & 0xFF)) }
        // The outline's pixel is part antialiased, so its hue is checked, not its level.
        func red(_ p: (r: Int, g: Int, b: Int)) -> Bool { p.r > p.g + 60 && p.r > p.b + 60 }
        func amber(_ p: (r: Int, g: Int, b: Int)) -> Bool { p.r > p.b + 60 && p.g > p.b + 40 && p.r > p.g + 20 }
        func blue(_ p: (r: Int, g: Int, b: Int)) -> Bool { p.b > p.r + 60 && p.b > p.g + 20 }
        for (alert, hue, name) in [("EMERGENCY 7700", red, "red"), ("EMERGENCY 7500", red, "red"), ("EMERGENCY", red, "red"),
                                   ("EMERGENCY 7600", amber, "amber"), ("EMERGENCY NORDO", amber, "amber"),
                                   ("MILITARY", blue, "blue"), ("WATCHED", blue, "blue")] {
            let (outline, mark) = (rgb(seen[alert]!.outline), rgb(seen[alert]!.mark))
            #expect(hue(outline) && hue(mark), "\(alert) is \(name): outline \(outline), mark \(mark)")
        }
    }
}
