import Testing
@testable import Input
#if canImport(Glibc)
import Glibc
#endif

@Suite struct EvdevTests {
    /// One input_event record: two words of time, type, code, value (little-endian).
    func record(wordSize: Int, type: UInt16, code: UInt16, value: Int32) -> [UInt8] {
        var bytes = [UInt8](repeating: 0xEE, count: 2 * wordSize)   // a time nobody should read
        bytes += [UInt8(type & 0xFF), UInt8(type >> 8), UInt8(code & 0xFF), UInt8(code >> 8)]
        let v = UInt32(bitPattern: value)
        bytes += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)]
        return bytes
    }

    @Test(arguments: [8, 4])
    func decodesRecordsByWordSizeThroughAPipe(wordSize: Int) throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var stream: [UInt8] = []
        stream += record(wordSize: wordSize, type: 4, code: 4, value: 30)        // EV_MSC scan code: ignored
        stream += record(wordSize: wordSize, type: 1, code: 24, value: 1)        // KEY_O press
        stream += record(wordSize: wordSize, type: 0, code: 0, value: 0)         // SYN_REPORT
        stream += record(wordSize: wordSize, type: 1, code: 24, value: 2)        // autorepeat
        stream += record(wordSize: wordSize, type: 0, code: 3, value: 0)         // SYN_DROPPED
        stream += record(wordSize: wordSize, type: 1, code: 24, value: 0)        // release
        #expect(stream.count == 6 * (2 * wordSize + 8))
        var decoder = EvdevDecoder(wordSize: wordSize)
        var events: [KeyEvent] = []
        // Written in awkward pieces: partial records must wait for the rest.
        var offset = 0
        for piece in [5, 17, 3, 40, 1000] where offset < stream.count {
            let end = min(offset + piece, stream.count)
            _ = stream[offset..<end].withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
            var buffer = [UInt8](repeating: 0, count: 256)
            let n = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            events += buffer.withUnsafeBytes { decoder.decode(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            offset = end
        }
        #expect(events == [KeyEvent(code: 24, value: 1), KeyEvent(code: 24, value: 2), KeyEvent(code: 24, value: 0)])
        #expect(decoder.droppedSynchronisations == 1)
    }
}

@Suite struct TerminalKeyTests {
    @Test func decodesKeysAndWaitsForTheRestOfASequence() {
        var bytes = Array("o Q9\r".utf8) + [0x1B, 0x5B, 0x41, 0x1B, 0x5B]
        #expect(TerminalKeys.decode(&bytes) == ["o", "space", "q", "9", "enter", "up"])
        #expect(bytes == [0x1B, 0x5B], "an unfinished sequence waits for its last byte")
        bytes += [0x44, 0x1B, 0x78]
        #expect(TerminalKeys.decode(&bytes) == ["left", "escape", "x"])
        #expect(bytes.isEmpty)
        // F1 (ESC O P) and F5 (ESC [ 1 5 ~) are keys of their own, not escape, o, p.
        bytes = [0x1B, 0x4F, 0x50] + Array("o".utf8) + [0x1B, 0x5B, 0x31, 0x35, 0x7E, 0x1B, 0x4F]
        #expect(TerminalKeys.decode(&bytes) == ["o"])
        #expect(bytes == [0x1B, 0x4F], "an unfinished SS3 waits")
    }
}
