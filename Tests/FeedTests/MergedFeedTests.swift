import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import Feed

/// Several feeds as one: merged by address, the freshest position winning
/// (a local receiver over an aggregator's late one), gaps filled from any
/// source, and a source that fails taking only its own aircraft away.
@Suite(.serialized) struct MergedFeedTests {
    func report(_ hex: String, lat: Double, age: Double?, callsign: String? = nil, type: String? = nil) -> AircraftReport {
        var r = AircraftReport(hex: hex)
        r.latitude = lat
        r.longitude = 0
        r.positionAge = age
        r.callsign = callsign
        r.typeCode = type
        return r
    }

    func part(_ reports: [AircraftReport], now: Double = 100, at time: Double = 0, delayed: Bool = false) -> MergedFeed.Part {
        MergedFeed.Part(snapshot: AircraftSnapshot(now: now, aircraft: reports), receivedAt: time, isDelayed: delayed)
    }

    @Test func theFreshestPositionWinsAndGapsAreFilled() {
        let stale = part([report("abc123", lat: 51.0, age: 20, callsign: "BAW283"), report("def456", lat: 52, age: 1)], now: 100)
        let fresh = part([report("abc123", lat: 51.5, age: 1, type: "B789")], now: 103)
        let merged = MergedFeed.merge([stale, fresh], at: 0)
        #expect(merged.aircraft.count == 2 && merged.now == 103)
        let a = merged.aircraft.first { $0.hex == "abc123" }
        #expect(a?.latitude == 51.5 && a?.positionAge == 1, "the fresh position")
        #expect(a?.callsign == "BAW283" && a?.typeCode == "B789", "identity from either source")
    }

    @Test func aLocalReceiverOutranksAnAggregatorUnlessItsPositionIsOld() {
        let local = part([report("abc123", lat: 51.0, age: 4)])
        let aggregator = part([report("abc123", lat: 51.9, age: 1)], delayed: true)
        #expect(MergedFeed.merge([aggregator, local], at: 0).aircraft.first?.latitude == 51.0, "4 s local beats 1 s aggregated (+5 s)")
        let oldLocal = part([report("abc123", lat: 51.0, age: 10)])
        #expect(MergedFeed.merge([oldLocal, aggregator], at: 0).aircraft.first?.latitude == 51.9, "the aggregator fills a blind side")
    }

    @Test func agesCountTheTimeSinceEachPartCame() {
        // The same 1 s position, received 8 s ago, is older than a 3 s one received now.
        let early = part([report("abc123", lat: 51.0, age: 1)], at: 0)
        let now = part([report("abc123", lat: 51.5, age: 3)], at: 8)
        let merged = MergedFeed.merge([early, now], at: 8)
        #expect(merged.aircraft.first?.latitude == 51.5 && merged.aircraft.first?.positionAge == 3)
    }

    @Test func twoFilesMergedAndOneTakenAway() throws {
        let dir = "/tmp/rk-merged-\(getpid())-\(UInt16.random(in: 0...9999))"
        mkdir(dir, 0o755)
        defer { unlink(dir + "/a.json"); unlink(dir + "/b.json"); rmdir(dir) }
        func put(_ name: String, _ text: String) {
            let temp = dir + "/.tmp"
            let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            _ = text.withCString { write(fd, $0, strlen($0)) }
            close(fd)
            rename(temp, dir + "/" + name)
        }
        // The same aircraft in both, its position 30 s old in a and 1 s old in b; each has one of its own.
        put("a.json", #"{"now":1000,"aircraft":[{"hex":"abc123","flight":"BAW283","lat":51.0,"lon":0,"seen_pos":30},{"hex":"aaaaaa","lat":50,"lon":0,"seen_pos":1}]}"#)
        put("b.json", #"{"now":1001,"aircraft":[{"hex":"abc123","lat":51.5,"lon":0,"seen_pos":1},{"hex":"bbbbbb","lat":49,"lon":0,"seen_pos":1}]}"#)
        let feed = MergedFeed([.init(try FileFeed(path: dir + "/a.json"), isDelayed: false),
                               .init(try FileFeed(path: dir + "/b.json"), isDelayed: false)])
        #expect(feed.name == "\(dir)/a.json, \(dir)/b.json")
        let live = LiveSourceTests()
        var clock = 0.0
        func latest(_ events: [FeedEvent]) -> AircraftSnapshot? {
            events.compactMap { if case let .snapshot(s) = $0 { return s } else { return nil } }.last
        }
        let both = live.pump(feed, clock: &clock) { latest($0).map { Set($0.aircraft.map(\.hex)).count == 3 } ?? false }
        let merged = try #require(latest(both))
        let shared = merged.aircraft.first { $0.hex == "abc123" }
        #expect(shared?.latitude == 51.5 && shared?.callsign == "BAW283", "b's fresh position, a's callsign")
        #expect(Set(feed.liveSources) == [dir + "/a.json", dir + "/b.json"])
        // b goes away: one line in the log, no failure for the kiosk, and only a's aircraft.
        unlink(dir + "/b.json")
        let without = live.pump(feed, clock: &clock) { latest($0)?.aircraft.count == 2 }
        #expect(!without.contains(where: LiveSourceTests.isFailure), "the other feed carries on")
        #expect(Set(latest(without)?.aircraft.map(\.hex) ?? []) == ["abc123", "aaaaaa"])
        #expect(latest(without)?.aircraft.first { $0.hex == "abc123" }?.latitude == 51.0, "a's position is all there is")
        #expect(feed.liveSources == [dir + "/a.json"])
        // Both gone: now the kiosk hears of it.
        unlink(dir + "/a.json")
        let none = live.pump(feed, clock: &clock) { $0.contains(where: LiveSourceTests.isFailure) }
        #expect(none == [.failed("\(dir)/a.json: No such file or directory")])
    }
}
