import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import SystemIO

@Suite struct SystemIOTests {
    func pipe() -> (read: FileDescriptor, write: FileDescriptor) {
        var fds: [Int32] = [0, 0]
        _ = Glibc.pipe(&fds)
        let r = FileDescriptor(owning: fds[0])
        r.setNonBlocking()
        return (r, FileDescriptor(owning: fds[1]))
    }

    @Test func linesComeAFewAtATimeAndTheLastOneWithoutANewlineCounts() throws {
        let (r, w) = pipe()
        var reader = LineReader(maximumLineLength: 8)
        try w.writeAll("a\r\nb\nccccccccccccc\nd\ne\nlast")
        w.close()
        var (lines, closed) = reader.read(from: r, maxLines: 2)
        #expect(lines == [.text("a"), .text("b")] && !closed && reader.hasPendingLines)
        (lines, closed) = reader.read(from: r, maxLines: 2)
        #expect(lines == [.tooLong(13), .text("d")] && !closed)
        (lines, closed) = reader.read(from: r)
        #expect(lines == [.text("e"), .text("last")] && closed, "an unfinished last line is a line when the writer closes")
    }

    @Test func textLinesSplitLFCRLFAndCR() {
        #expect("a\r\nb\nc\rd".textLines == ["a", "b", "c", "d"])
        #expect("# comment\r\nkey = value\r\n".textLines == ["# comment", "key = value"])
        #expect("".textLines.isEmpty && "x".textLines == ["x"])
    }

    @Test func aConnectRefusedOnThisMachineNamesTheServicesPolicy() {
        let refused = SystemError.connectReason(EPERM)
        #expect(refused.hasPrefix("Operation not permitted (refused on this machine") && refused.contains("IPAddressAllow="))
        #expect(SystemError.connectReason(ECONNREFUSED) == "Connection refused", "a peer's refusal is the peer's")
    }

    @Test func textFromOutsideIsOneCleanLine() {
        #expect(ExternalText.oneLine("BAW\nSTOPPING=1\n", maximumBytes: 100) == "BAW\\nSTOPPING=1\\n")
        #expect(ExternalText.oneLine("a\u{0}b\u{1b}[31m", maximumBytes: 100) == "a\\u{0}b\\u{1b}[31m")
        #expect(ExternalText.oneLine("evil\u{202E}txt.png\u{200B}", maximumBytes: 100) == "evil\\u{202e}txt.png\\u{200b}")
        #expect(ExternalText.oneLine("line\u{2028}two", maximumBytes: 100) == "line\\u{2028}two")
        // Combining marks cannot stretch a limit counted in bytes.
        let zalgo = "Z" + String(repeating: "\u{0301}", count: 10_000)
        #expect(ExternalText.oneLine(zalgo, maximumBytes: 64).utf8.count <= 64 + 3)
        #expect(ExternalText.oneLine("Zürich ✈︎ 東京", maximumBytes: 100) == "Zürich ✈︎ 東京")
    }

    @Test func onlyRegularFilesAreRead() throws {
        let path = "/tmp/rk-fifo-\(getpid())"
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        #expect(throws: FileContentsError.self) { try FileContents.text(path) }
        do { _ = try FileContents.text(path) } catch { #expect("\(error)" == "\(path): not a regular file") }
        #expect(throws: FileContentsError.self) { try FileContents.text("/proc/self") }
        let bom = "/tmp/rk-bom-\(getpid())"
        let file = try FileDescriptor.open(bom, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600)
        defer { unlink(bom) }
        try file.writeAll("\u{FEFF}display = drm\r\n")
        #expect(try FileContents.text(bom) == "display = drm\r\n")
    }

    @Test func directoriesListInNaturalOrder() throws {
        let dir = "/tmp/rk-dir-\(getpid())"
        mkdir(dir, 0o700)
        defer { for n in ["card0", "card2", "card10", "renderD128"] { unlink(dir + "/" + n) }; rmdir(dir) }
        for n in ["card10", "card2", "renderD128", "card0"] { close(open(dir + "/" + n, O_CREAT | O_WRONLY, 0o600)) }
        #expect(Directory.entries(of: dir, prefix: "card") == [dir + "/card0", dir + "/card2", dir + "/card10"])
    }

    @Test func aFailureIsReportedOncePerKind() {
        var report = FailureReport()
        let first = report.isNew("gone"), again = report.isNew("gone"), other = report.isNew("garbage")
        #expect(first && !again && other && report.isFailing)
        report.clear()
        let afterClear = report.isNew("garbage")
        #expect(afterClear)
    }

    @Test func workRunsOffTheLoopAndCanBeAbandoned() throws {
        let work = BackgroundWork<Int>()
        #expect(work.start(at: 0) { 6 * 7 })
        #expect(!work.start(at: 0) { 0 }, "one job at a time")
        var ready = pollfd(fd: work.descriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 5000) == 1)
        #expect(work.take() == 42 && !work.isBusy)
        // A job past its time is abandoned: its late result is dropped. The
        // slow job waits on a pipe the test holds, so it finishes when told.
        let (gate, release) = pipe()
        let gateFD = gate.rawValue
        FileDescriptor.setNonBlocking(gateFD, false)
        #expect(work.start(at: 1) { var b: UInt8 = 0; _ = read(gateFD, &b, 1); return 1 })
        work.abandon()
        #expect(work.start(at: 2) { 2 })
        #expect(poll(&ready, 1, 5000) == 1)
        #expect(work.take() == 2)
        try release.writeAll("go")
        // The abandoned job's result must never signal: wait up to half a second for a signal that must not come.
        #expect(poll(&ready, 1, 500) == 0)
        #expect(work.take() == nil)
    }

    @Test func aReceiverConnectionIsKeptAliveSoAPoweredOffOneIsNoticed() throws {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(server) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(server, $0, length) } }
        listen(server, 1)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(server, $0, &length) } }
        let connection = TCPConnection(host: "127.0.0.1", port: UInt16(bigEndian: address.sin_port))
        var progress = connection.begin(at: 0)
        var socketFD: FileDescriptor?
        for step in 0..<100 {
            if case let .connected(fd) = progress { socketFD = fd; break }
            if case let .failed(message) = progress { Issue.record("connect failed: \(message)"); return }
            usleep(10_000)
            progress = connection.step(at: Double(step) * 0.01)
        }
        let fd = try #require(socketFD)
        var on: Int32 = 0, idle: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd.rawValue, SOL_SOCKET, SO_KEEPALIVE, &on, &size)
        getsockopt(fd.rawValue, Int32(IPPROTO_TCP), TCP_KEEPIDLE, &idle, &size)
        #expect(on == 1 && idle == 30)
    }
}

@Suite struct LoopbackProbeTests {
    @Test func aListeningPortAcceptsAndAClosedOneDoesNot() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        // Closed once, in the middle: a second close could hit a descriptor
        // that a test running alongside has opened under the same number.
        let listener = FileDescriptor(owning: fd)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        #expect(bound && listen(fd, 4) == 0)
        let port = UInt16(bigEndian: address.sin_port)
        #expect(TCPConnection.accepts(host: "127.0.0.1", port: port, within: 2))
        listener.close()
        #expect(!TCPConnection.accepts(host: "127.0.0.1", port: port, within: 0.3), "closed now: refused")
        #expect(!TCPConnection.accepts(host: "not-an-address", port: port, within: 0.3), "names are not looked up at start")
    }
}

/// The one reconnect rule: the first delay, doubled per failure in a row, capped; a success starts over.
@Suite struct BackoffTests {
    @Test func delaysDoubleUpToTheLongestAndASuccessStartsOver() {
        var retry = Backoff(first: 1, longest: 30)
        var delays: [Double] = []
        for t in stride(from: 0.0, to: 700, by: 100) {
            retry.failed(at: t)
            delays.append(retry.due - t)
        }
        #expect(delays == [1, 2, 4, 8, 16, 30, 30])
        #expect(!retry.isDue(at: 600.5) && retry.isDue(at: 630))
        retry.succeeded()
        retry.failed(at: 1000)
        #expect(retry.due == 1001, "after a success the first delay again")
        retry.failed(at: 2000, wait: 600)
        #expect(retry.due == 2600, "the peer's own word on how long")
        #expect(Backoff.delay(first: 2, longest: 60, failuresInARow: 10_000) == 60)
    }
}

/// The board as home automation's device page names it.
@Suite struct BoardModelTests {
    private func tree(_ files: [String: [UInt8]]) throws -> String {
        let root = "/tmp/board-model-\(getpid())-\(files.count)"
        for (path, bytes) in files {
            var dir = ""
            for part in (root + path).split(separator: "/").dropLast() {
                dir += "/" + part
                mkdir(dir, 0o755)
            }
            let file = try FileDescriptor.open(root + path, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
            try file.writeAll(String(decoding: bytes, as: UTF8.self))
        }
        return root
    }

    @Test func theDeviceTreeNamesAPiAndTheFirmwareAPC() throws {
        let pi = try tree(["/proc/device-tree/model": Array("Raspberry Pi 4 Model B Rev 1.4".utf8) + [0]])
        #expect(BoardModel.read(root: pi) == "Raspberry Pi 4 Model B Rev 1.4")
        let pc = try tree(["/sys/class/dmi/id/product_name": Array("NUC11TNHi5\n".utf8), "/sys/class/dmi/id/sys_vendor": Array("Intel(R) Client Systems\n".utf8)])
        #expect(BoardModel.read(root: pc) == "Intel(R) Client Systems NUC11TNHi5")
        let hostile = try tree(["/proc/device-tree/model": Array("Pi\u{1b}[2J\nforged line".utf8) + [0, 65]])
        #expect(BoardModel.read(root: hostile).map { !$0.contains("\n") && !$0.contains("\u{1b}") } == true)
        #expect(BoardModel.read(root: "/nonexistent-root") == nil)
    }
}
