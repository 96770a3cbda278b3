#if canImport(Glibc)
import Glibc
#endif
import SystemIO

/// Keys from the controlling terminal when the kiosk runs by hand (over SSH,
/// say): the terminal in raw mode, keys decoded (letters, digits, space,
/// enter, escape, arrows as ESC [ A…D), and the saved settings put back on exit.
/// Ctrl-C still sends SIGINT, which the loop handles like SIGTERM.
public final class TerminalKeys {
    public let fd: Int32
    private var saved = termios()
    private var pending: [UInt8] = []

    /// nil when `fd` is not a terminal.
    public init?(fd: Int32 = 0) {
        guard isatty(fd) != 0, tcgetattr(fd, &saved) == 0 else { return nil }
        self.fd = fd
        var raw = saved
        cfmakeraw(&raw)
        raw.c_lflag |= tcflag_t(ISIG)        // keep Ctrl-C
        raw.c_oflag |= tcflag_t(OPOST | ONLCR) // keep log lines readable
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(fd, TCSAFLUSH, &raw)
        FileDescriptor.setNonBlocking(fd)
    }

    deinit { restore() }

    public func restore() {
        var s = saved
        tcsetattr(fd, TCSAFLUSH, &s)
        FileDescriptor.setNonBlocking(fd, false)
    }

    /// Key names read so far (a, 0, space, enter, escape, up, down, left, right).
    public func read() -> [String] {
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            pending.append(contentsOf: buffer[0..<n])
        }
        return Self.decode(&pending)
    }

    /// Decodes complete keys from `bytes`, leaving an unfinished escape sequence.
    public static func decode(_ bytes: inout [UInt8]) -> [String] {
        var keys: [String] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x1B {
                if i + 1 >= bytes.count { break }                // maybe the start of a sequence
                if bytes[i + 1] == UInt8(ascii: "O") {
                    // SS3: F1-F4 (ESC O P..S) and keypad keys; none is mapped.
                    if i + 2 >= bytes.count { break }
                    i += 3
                    continue
                }
                if bytes[i + 1] == UInt8(ascii: "[") {
                    // CSI: parameters, then one final byte (A-D are the arrows; ESC [ 1 5 ~ is F5).
                    var end = i + 2
                    while end < bytes.count && !(0x40...0x7E).contains(bytes[end]) { end += 1 }
                    if end >= bytes.count { break }
                    if end == i + 2 {
                        switch bytes[end] {
                        case UInt8(ascii: "A"): keys.append("up")
                        case UInt8(ascii: "B"): keys.append("down")
                        case UInt8(ascii: "C"): keys.append("right")
                        case UInt8(ascii: "D"): keys.append("left")
                        default: break
                        }
                    }
                    i = end + 1
                    continue
                }
                keys.append("escape")
                i += 1
                continue
            }
            switch b {
            case 0x20: keys.append("space")
            case 0x0D, 0x0A: keys.append("enter")
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): keys.append(String(UnicodeScalar(b)))
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): keys.append(String(UnicodeScalar(b + 32)))
            default: break
            }
            i += 1
        }
        bytes.removeFirst(i)
        return keys
    }
}
