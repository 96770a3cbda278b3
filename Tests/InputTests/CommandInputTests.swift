import Testing
@testable import Input
@testable import KioskModel
import SystemIO
#if canImport(Glibc)
import Glibc
#endif

/// Commands as JSON lines: parsing and error replies, line splitting on a real
/// pipe, and the unix control socket with its bounded queue.
@Suite struct CommandInputTests {
    @Test func commandsParseAndBadOnesSayWhatIsWrong() throws {
        #expect(try KioskCommand.parse(#"{"cmd":"get"}"#) == .get)
        #expect(try KioskCommand.parse(#"{"cmd":"set","state":{"mode":"standby"}}"#) == .set(.standby))
        #expect(try KioskCommand.parse(#"{"cmd":"screenshot","path":"/tmp/x.png"}"#) == .screenshot(path: "/tmp/x.png"))
        #expect(try KioskCommand.parse(#"{"cmd":"set","state":{"mode":"overflight"}}"#) == .set(KioskState(mode: .overflight)),
                "something overhead, nothing more known")
        let cases: [(String, String)] = [
            ("hello", "malformed JSON at line 1, column 1: unexpected character 'h'"),
            ("nonsense", "malformed JSON at line 1, column 2: invalid literal, expected null"),
            ("[]", "a command is a JSON object"),
            (#"{"state":{}}"#, #"missing "cmd" (set, get, screenshot, screen or wake)"#),
            (#"{"cmd":"fly"}"#, #"unknown command "fly" (expected set, get, screenshot, screen or wake)"#),
            (#"{"cmd":"set"}"#, #"set: missing "state""#),
            (#"{"cmd":"set","state":{"mode":"overflight","aircraft":{"callsign":"X","bearing_deg":400}}}"#,
             "set: state.aircraft.bearing_deg: 400.0 is outside 0.0...360.0"),
            (#"{"cmd":"get","extra":1}"#, #"get: unknown field "extra""#),
            (#"{"cmd":"screenshot"}"#, #"screenshot: missing "path""#),
        ]
        for (line, message) in cases {
            do {
                _ = try KioskCommand.parse(line)
                Issue.record("\(line) parsed")
            } catch {
                #expect("\(error)" == message)
            }
        }
        #expect(KioskCommand.errorReply("x") == #"{"error":"x","ok":false}"#)
    }

    @Test func linesFromAPipeIncludingTooLongOnes() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        FileDescriptor.setNonBlocking(fds[0])
        var reader = LineReader(maximumLineLength: 16)
        try FileDescriptor(borrowing: fds[1]).writeAll("{\"cmd\":\"get\"}\r\nsecond\n" + String(repeating: "x", count: 40) + "\npart")
        var (lines, closed) = reader.read(from: FileDescriptor(borrowing: fds[0]))
        #expect(lines == [.text("{\"cmd\":\"get\"}"), .text("second"), .tooLong(40)] && !closed)
        try FileDescriptor(borrowing: fds[1]).writeAll("ial\n")
        close(fds[1])
        (lines, closed) = reader.read(from: FileDescriptor(borrowing: fds[0]))
        #expect(lines == [.text("partial")])
        // The end of input shows on the next read (poll reports it readable).
        (lines, closed) = reader.read(from: FileDescriptor(borrowing: fds[0]))
        #expect(lines.isEmpty && closed)
    }

    func connect(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard ok == 0 else { throw InputError("connect failed") }
        // A reply that never comes fails the test after ten seconds; it does not hang the run.
        var limit = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    func readLine(_ fd: Int32) -> String {
        var bytes: [UInt8] = []
        var b: UInt8 = 0
        while read(fd, &b, 1) == 1 && b != 0x0A { bytes.append(b) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Services `server` until `done` holds, waiting between turns for one
    /// of its descriptors to be readable, as the kiosk's loop does (ten
    /// seconds at most): a client's bytes are there when the kernel has
    /// passed them on, not after a set time.
    func service(_ server: CommandSocket, until done: () -> Bool) {
        for _ in 0..<100 {
            server.service(now: 0)
            if done() { return }
            var ready: [pollfd] = []
            server.forEachDescriptor { ready.append(pollfd(fd: $0, events: Int16(POLLIN), revents: 0)) }
            _ = poll(&ready, nfds_t(ready.count), 100)
        }
    }

    /// Bytes waiting to be read on `fd`.
    func unreadBytes(_ fd: Int32) -> Int {
        var count: Int32 = 0
        return ioctl(fd, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
    }

    @Test func controlSocketAnswersEveryCommandAndRefusesAFlood() throws {
        let path = "/tmp/rk-test-\(getpid())-\(UInt16.random(in: 0...9999)).sock"
        let server = try CommandSocket(path: path)
        server.maximumQueue = 4
        var st = stat()
        #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o660)
        let client = try connect(path)
        defer { close(client) }
        try FileDescriptor(borrowing: client).writeAll("{\"cmd\":\"get\"}\nbad\n")
        service(server) { server.queue.count == 2 }
        let queued = server.takeQueue()
        #expect(queued.count == 2)
        for (c, line) in queued {
            guard case let .text(text) = line else { continue }
            server.reply(to: c.id, text == "bad" ? KioskCommand.errorReply("malformed") : KioskCommand.okReply)
        }
        #expect(readLine(client) == #"{"ok":true}"#)
        #expect(readLine(client) == #"{"error":"malformed","ok":false}"#)
        // A flood: past the queue's bound each command is refused at once.
        try FileDescriptor(borrowing: client).writeAll(String(repeating: "{\"cmd\":\"get\"}\n", count: 10))
        let refusals = 6 * (server.busyReply.utf8.count + 1)
        service(server) { server.queue.count >= 4 && unreadBytes(client) >= refusals }
        #expect(server.queue.count == 4)
        for _ in 0..<6 { #expect(readLine(client) == server.busyReply) }
    }

    @Test func aLiveSocketIsRefusedAStaleOneReplacedAndAFileLeftAlone() throws {
        let path = "/tmp/rk-test-\(getpid())-\(UInt16.random(in: 0...9999)).sock"
        var first: CommandSocket? = try CommandSocket(path: path)
        #expect(throws: InputError.self, "a second kiosk must not steal a live socket") { try CommandSocket(path: path) }
        #expect(access(path, F_OK) == 0, "and must not delete it")
        // A socket left by a kiosk that died (SIGKILL leaves the file): replaced.
        first = nil
        try LocalSocket.listen(at: path, mode: 0o600).close()
        #expect(access(path, F_OK) == 0, "the stale socket file is there")
        var second: CommandSocket? = try CommandSocket(path: path)
        _ = second
        second = nil
        #expect(access(path, F_OK) != 0, "removed on exit: it was ours")
        // A regular file at the path is not a socket to replace.
        let fd = open(path, O_CREAT | O_WRONLY, 0o600)
        close(fd)
        defer { unlink(path) }
        #expect(throws: InputError.self) { try CommandSocket(path: path) }
        #expect(access(path, F_OK) == 0)
        _ = first
    }

    @Test func idleClientsAreClosedAndFloodsReadAFewLinesATurn() throws {
        let path = "/tmp/rk-test-\(getpid())-\(UInt16.random(in: 0...9999)).sock"
        let server = try CommandSocket(path: path)
        server.idleTimeout = 5
        let idle = try connect(path)
        defer { close(idle) }
        let busy = try connect(path)
        defer { close(busy) }
        // A unix socket's write lands in the server's buffer at once: nothing to wait for.
        try FileDescriptor(borrowing: busy).writeAll(String(repeating: "\n", count: 100))
        server.service(now: 1)
        #expect(server.clients.count == 2)
        #expect(server.takeQueue().count == server.linesPerTurn, "a burst is read a few lines a turn")
        #expect(server.hasPendingLines)
        for t in 2...7 { server.service(now: Double(t)); _ = server.takeQueue() }
        #expect(server.clients.count == 1 && server.clients[0].lastHeard >= 6, "the idle client is gone, the talking one stays")
    }

    @Test func scriptsMayBeCRLFWithABOMAndNotesAreShort() throws {
        let script = try TimedCommand.parseScript("# comment\r\n{\"at\":1,\"cmd\":\"get\"}\r\n\r\n{\"at\":0.5,\"cmd\":\"set\",\"state\":{\"mode\":\"standby\"}}\r\n", name: "a.jsonl")
        #expect(script == [TimedCommand(at: 0.5, command: .set(.standby)), TimedCommand(at: 1, command: .get)])
        let long = String(repeating: "n", count: KioskState.maximumNoteLength + 1)
        #expect(throws: CommandError.self) { try KioskCommand.parse(#"{"cmd":"set","state":{"mode":"standby","note":"\#(long)"}}"#) }
    }

    /// What a client on the broker or the socket might try to put on the card:
    /// each is refused, naming the field and the character, and nothing of
    /// it is drawn (the kiosk keeps its state).
    @Test(arguments: [
        (#""callsign":"BAW\u202e283""#, "state.aircraft.callsign: contains U+202E, a control or invisible formatting character"),
        (#""callsign":"BAW283","route":"LHR\n→ JFK""#, "state.aircraft.route: contains U+000A, a control or invisible formatting character"),
        (#""callsign":"BAW283","airline":"British\u0000Airways""#, "state.aircraft.airline: contains U+0000, a control or invisible formatting character"),
        (#""callsign":"BAW\u200b283""#, "state.aircraft.callsign: contains U+200B, a control or invisible formatting character"),
        (#""callsign":"BAW283","model":"A\u2028B""#, "state.aircraft.model: contains U+2028, a control or invisible formatting character"),
        (#""callsign":"BAW283","type":"B\u009b9""#, "state.aircraft.type: contains U+009B, a control or invisible formatting character"),
        // One grapheme, 5,001 scalars: counted as what it costs to shape.
        (#""callsign":"B"# + String(repeating: #"\u0301"#, count: 5_000) + #"""#, "state.aircraft.callsign: longer than 12 characters"),
    ])
    func hiddenCharactersAndStackedMarksAreRefused(fields: String, message: String) {
        do {
            _ = try KioskCommand.parse(#"{"cmd":"set","state":{"mode":"overflight","aircraft":{"# + fields + "}}}")
            Issue.record("\(message): parsed")
        } catch {
            #expect("\(error)" == "set: " + message)
        }
        let note = #"{"cmd":"set","state":{"mode":"standby","note":"READY=1\nSTATUS=forged"}}"#
        #expect(throws: CommandError.self) { try KioskCommand.parse(note) }
        // What a card really shows passes: accents, arrows, a middle dot.
        #expect((try? KioskCommand.parse(#"{"cmd":"set","state":{"mode":"overflight","aircraft":{"callsign":"AFR1234","route":"CDG → NCE","airline":"Aérospatiale · Société"}}}"#)) != nil)
    }
}
