import Testing
@testable import Feed
import SystemIO
#if canImport(Glibc)
import Glibc
#endif

/// Live sources against real peers on loopback: an SBS-1 server that serves a
/// capture, stops, and comes back; an aircraft.json file that is replaced,
/// deleted and filled with garbage.
@Suite(.serialized) struct LiveSourceTests {
    /// A listening TCP socket on 127.0.0.1 (port 0 = any free port).
    func listener(port: UInt16 = 0) throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let ok = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard ok == 0, listen(fd, 4) == 0 else { throw FeedError("cannot listen") }
        var bound = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return (fd, UInt16(bigEndian: bound.sin_port))
    }

    /// Services the source until `done` holds of the events it has sent (ten
    /// seconds at most), and returns them: a loaded machine makes the wait
    /// longer, never the test wrong.
    func pump(_ source: any FeedSource, clock: inout Double, until done: ([FeedEvent]) -> Bool) -> [FeedEvent] {
        pump(source, for: 10, clock: &clock, until: done)
    }

    /// Services the source for `seconds`, collecting its events: for a step
    /// of a wait.
    func pump(_ source: any FeedSource, for seconds: Double, clock: inout Double) -> [FeedEvent] {
        pump(source, for: seconds, clock: &clock) { _ in false }
    }

    /// Services the source as the kiosk's loop does: waiting for its
    /// descriptors to be readable or writable as it asks (20 ms at most a
    /// turn, for a peer this test plays meanwhile), the clock following real
    /// time, and servicing it only when one is ready or its wake-up time has
    /// come, never on every turn (a source serviced on every turn hides one
    /// that forgets to ask for what it waits on), until `done` holds or
    /// `seconds` have passed.
    func pump(_ source: any FeedSource, for seconds: Double, clock: inout Double, until done: ([FeedEvent]) -> Bool) -> [FeedEvent] {
        var events: [FeedEvent] = []
        let end = clock + seconds
        var ready: [pollfd] = []
        while clock < end && !done(events) {
            ready.removeAll(keepingCapacity: true)
            source.forEachDescriptor { ready.append(pollfd(fd: $0, events: Int16(POLLIN), revents: 0)) }
            source.forEachWritableDescriptor { ready.append(pollfd(fd: $0, events: Int16(POLLOUT), revents: 0)) }
            let started = MonotonicClock.now()
            let waited = max(0, min(0.02, (source.nextWake ?? .infinity) - clock))
            let count = poll(&ready, nfds_t(ready.count), Int32((waited * 1000).rounded(.up)))
            clock += max(MonotonicClock.now() - started, 0.001)
            if count > 0 || clock >= (source.nextWake ?? .infinity) {
                events += source.service(now: clock)
            }
        }
        return events
    }

    @Test func sbsFeedFollowsAServerThatStopsAndComesBack() throws {
        let lines = try String(decoding: FeedParsingTests.bytes("sbs1_skypies_dump1090style_7lines.txt"), as: UTF8.self)
        var server = try listener()
        let source = SBSFeed(host: "127.0.0.1", port: server.port)
        var clock = 0.0
        // Every wait has a limit: a source that never connects fails the test, it does not hang the run.
        Descriptor.nonBlocking(server.fd)
        var peer = accept(server.fd, source: source, clock: &clock)
        #expect(peer >= 0)
        _ = lines.withCString { write(peer, $0, strlen($0)) }
        let first = pump(source, clock: &clock) { $0.contains(where: Self.isSnapshot) }
        let aircraft = first.compactMap { if case let .snapshot(s) = $0 { return s.aircraft.first } else { return nil } }.last
        #expect(aircraft?.callsign == "VRD961")
        // The receiver goes away: one failure, then retries.
        close(peer)
        close(server.fd)
        let gone = pump(source, clock: &clock) { $0.contains(where: Self.isFailure) }
        #expect(gone.filter { if case .failed = $0 { return true } else { return false } }.count >= 1)
        // It comes back on the same port: the source reconnects by itself.
        server = try listener(port: server.port)
        defer { close(server.fd) }
        Descriptor.nonBlocking(server.fd)
        peer = accept(server.fd, source: source, clock: &clock)
        #expect(peer >= 0, "the source reconnected")
        _ = lines.withCString { write(peer, $0, strlen($0)) }
        let back = pump(source, clock: &clock) { $0.contains(where: Self.isSnapshot) }
        #expect(back.contains { if case let .snapshot(s) = $0 { return s.aircraft.contains { $0.callsign == "VRD961" } } else { return false } })
        close(peer)
    }

    /// The connection `source` makes to the non-blocking listener `fd`,
    /// pumping the source meanwhile (ten seconds at most; -1 if none came).
    func accept(_ fd: Int32, source: any FeedSource, clock: inout Double) -> Int32 {
        var peer: Int32 = -1
        _ = pump(source, clock: &clock) { _ in
            peer = Glibc.accept(fd, nil, nil)
            return peer >= 0
        }
        return peer
    }

    static func isSnapshot(_ event: FeedEvent) -> Bool { if case .snapshot = event { return true } else { return false } }
    static func isFailure(_ event: FeedEvent) -> Bool { if case .failed = event { return true } else { return false } }

    @Test func fileFeedSurvivesDeletionAndGarbage() throws {
        let dir = "/tmp/rk-feed-\(getpid())-\(UInt16.random(in: 0...9999))"
        mkdir(dir, 0o755)
        let path = dir + "/aircraft.json"
        func replace(with text: String) {
            let temp = dir + "/.tmp"
            let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            _ = text.withCString { write(fd, $0, strlen($0)) }
            close(fd)
            rename(temp, path)
        }
        replace(with: #"{"now":1,"aircraft":[{"hex":"abc123","flight":"TEST1   "}]}"#)
        let source = try FileFeed(path: path)
        var clock = 0.0
        // What the source says next. Each fault is said once: the file is read
        // again only when it changes.
        func next() -> [FeedEvent] { pump(source, clock: &clock) { !$0.isEmpty } }
        let first = next()
        #expect(first.contains { if case let .snapshot(s) = $0 { return s.aircraft.first?.callsign == "TEST1" } else { return false } })
        unlink(path)
        let deleted = next()
        #expect(deleted == [.failed("\(path): No such file or directory")])
        replace(with: "garbage")
        let garbage = next()
        #expect(garbage.count == 1 && { if case let .failed(m) = garbage[0] { return m.hasPrefix("\(path): malformed JSON") } else { return false } }())
        replace(with: #"{"now":2,"aircraft":[]}"#)
        let back = next()
        #expect(back.contains { if case let .snapshot(s) = $0 { return s.now == 2 } else { return false } })
        unlink(path)
        rmdir(dir)
    }
}

enum Descriptor {
    static func nonBlocking(_ fd: Int32) { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
}

/// aircraft.json over HTTP from a loopback server that answers, stops, answers
/// with an error, and comes back.
@Suite(.serialized) struct HTTPSourceTests {
    @Test func httpFeedFollowsAServerThatStopsAndComesBack() throws {
        let live = LiveSourceTests()
        let body = try String(decoding: FeedParsingTests.bytes("readsb_overirvine_170ac.json"), as: UTF8.self)
        var server = try live.listener()
        Descriptor.nonBlocking(server.fd)
        let source = HTTPFeed(url: "http://127.0.0.1:\(server.port)/tar1090/data/aircraft.json")
        source.interval = 0.2
        var clock = 0.0
        var events: [FeedEvent] = []
        /// Serves one request with `answer`, pumping the source meanwhile.
        func serve(_ answer: String) -> String {
            var peer: Int32 = -1
            var request = ""
            // Up to ten seconds: after failures the feed backs off (2 s, 4 s, ...).
            for _ in 0..<500 where peer < 0 {
                events += live.pump(source, for: 0.02, clock: &clock)
                peer = accept(server.fd, nil, nil)
            }
            guard peer >= 0 else { return "" }
            // Read the request without blocking, pumping the source so it can send it.
            Descriptor.nonBlocking(peer)
            var buffer = [UInt8](repeating: 0, count: 4096)
            for _ in 0..<200 where !request.contains("\r\n\r\n") {
                events += live.pump(source, for: 0.02, clock: &clock)
                let n = read(peer, &buffer, buffer.count)
                if n > 0 { request += String(decoding: buffer[0..<n], as: UTF8.self) }
            }
            _ = answer.withCString { write(peer, $0, strlen($0)) }
            close(peer)
            // Until the answer has been taken in (parsed off the loop: slower
            // under emulation), for up to ten seconds.
            let before = events.count
            for _ in 0..<500 where events.count == before {
                events += live.pump(source, for: 0.02, clock: &clock)
            }
            return request
        }
        let request = serve("HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n" + body)
        #expect(request.hasPrefix("GET /tar1090/data/aircraft.json HTTP/1.1\r\n"))
        #expect(request.contains("\r\nUser-Agent: radar-kiosk/") && request.lowercased().contains("\r\naccept-encoding: "))
        #expect(events.contains { if case let .snapshot(s) = $0 { return s.aircraft.count == 170 } else { return false } })
        events.removeAll()
        _ = serve("HTTP/1.0 404 Not Found\r\n\r\nnope")
        #expect(events.contains(.failed("http://127.0.0.1:\(server.port)/tar1090/data/aircraft.json: HTTP 404")))
        // The server goes away, then comes back on the same port.
        close(server.fd)
        events.removeAll()
        events += live.pump(source, clock: &clock) { $0.contains(where: LiveSourceTests.isFailure) }
        #expect(events.contains { if case .failed = $0 { return true } else { return false } })
        server = try live.listener(port: server.port)
        Descriptor.nonBlocking(server.fd)
        defer { close(server.fd) }
        events.removeAll()
        _ = serve("HTTP/1.0 200 OK\r\n\r\n" + body)
        #expect(events.contains { if case let .snapshot(s) = $0 { return s.aircraft.count == 170 } else { return false } })
    }
}

/// A board without a real-time clock starts in 1970: every certificate would
/// look not yet valid, so no HTTPS request goes out until the clock is set.
@Suite(.serialized) struct ClockNotSetTests {
    @Test func httpsWaitsForTheClockAndStartsWithinASecondOfIt() throws {
        let live = LiveSourceTests()
        let server = try live.listener()
        defer { close(server.fd) }
        Descriptor.nonBlocking(server.fd)
        let source = HTTPFeed(url: "https://127.0.0.1:\(server.port)/data/aircraft.json")
        nonisolated(unsafe) var calendar = 0.0 // 1970-01-01
        source.wallClock = { calendar }
        var clock = 0.0
        let waiting = live.pump(source, for: 3, clock: &clock)
        #expect(waiting == [.failed("https://127.0.0.1:\(server.port)/data/aircraft.json: clock not set; waiting for time sync before HTTPS")],
                "one line for three seconds of waiting")
        #expect(Glibc.accept(server.fd, nil, nil) < 0, "no connection while the clock is not set")
        // NTP sets the clock: the request starts within a second.
        calendar = WallClock.now()
        let set = clock
        let peer = live.accept(server.fd, source: source, clock: &clock)
        #expect(peer >= 0 && clock - set <= 1.5, "connected \(clock - set) s after the clock was set")
        if peer >= 0 { close(peer) }
    }
}
