import Testing
@testable import KioskApp

/// A storm of SIGHUPs is at most one reload a second, and the last one is never lost.
@Suite struct ReloadPacingTests {
    @Test func aStormIsOneReloadASecondAndTheLastIsKept() throws {
        var pacing = ReloadPacing()
        let first = pacing.requested(at: 10)
        #expect(first && pacing.nextWake == nil, "the first SIGHUP reloads at once")
        var now = 10.0
        var reloads = 1
        // 1000 SIGHUPs a second for three seconds.
        for _ in 0..<3000 {
            now += 0.001
            if pacing.due(at: now) { reloads += 1 }
            if pacing.requested(at: now) { reloads += 1 }
        }
        #expect(reloads <= 4, "\(reloads) reloads in 3 s")
        // The storm ends: the SIGHUP owed is one reload when its second is up.
        let owed = try #require(pacing.nextWake)
        #expect(owed > now && owed <= now + 1)
        let early = pacing.due(at: now)
        let onTime = pacing.due(at: owed)
        let again = pacing.due(at: owed + 5)
        #expect(!early && onTime && !again && pacing.nextWake == nil, "the last edit takes effect, once")
        let later = pacing.requested(at: owed + 5)
        #expect(later, "a SIGHUP a while later reloads at once")
    }
}
