import Testing
@testable import KioskApp
@testable import KioskModel

/// A TV going to sleep drops and raises hot-plug several times in a second:
/// the outputs are re-probed once, after the uevents have been quiet.
@Suite struct HotplugSettlingTests {
    final class Uevents: HotplugEvents {
        var pending = 0
        let fd: Int32 = -1
        func drain() -> Bool {
            defer { pending = 0 }
            return pending > 0
        }
    }

    @Test func aBurstOfUeventsIsOneReprobeAfterTheQuiet() {
        let uevents = Uevents()
        var probes: [Double] = []
        let source = HotplugSource(uevents) {
            probes.append(0)
            return []
        }
        #expect(source.nextWake == nil, "nothing to do until a uevent")
        // Drop, raise, drop, raise: 0.3 s apart.
        for t in [0.0, 0.3, 0.6, 0.9] {
            uevents.pending = 1
            _ = source.service(now: t)
            #expect(probes.isEmpty, "not re-probed while the uevents keep coming (t = \(t))")
        }
        #expect(source.nextWake == 0.9 + source.settle)
        _ = source.service(now: 1.5)
        #expect(probes.isEmpty, "still inside the quiet after the last uevent")
        _ = source.service(now: 0.9 + source.settle)
        #expect(probes.count == 1)
        #expect(source.nextWake == nil)
        _ = source.service(now: 5)
        #expect(probes.count == 1, "one re-probe per burst")
    }
}
