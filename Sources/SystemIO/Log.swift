#if canImport(Glibc)
import Glibc
#endif

/// The kiosk's one logger: a line on standard error, which systemd puts in the
/// journal. Each message is one line: control characters in it (from a feed's
/// callsign, a client's command, a file name) are shown escaped, so nothing
/// from outside can start a forged journal line or cut one short.
public enum Log {
    /// Standard error, never closed (it is not this process's to close).
    nonisolated(unsafe) private static let standardError = FileDescriptor(borrowing: 2)

    /// Writes `message` as one line on standard error.
    public static func line(_ message: String) {
        try? standardError.writeAll(ExternalText.oneLine(message, maximumBytes: 4096) + "\n")
    }
}

/// Text from outside (a feed, a client, a file) made safe to show in one line:
/// control and invisible format characters escaped or dropped, the length
/// bounded in bytes without cutting a character in two.
public enum ExternalText {
    /// `text` on one line: C0/C1 controls, DEL, invisible format characters
    /// and separators as `\n`, `\u{1b}`, `\u{202e}` and so on, then cut to
    /// `maximumBytes` of UTF-8 (an ellipsis marks the cut): a length in bytes,
    /// so combining marks cannot stretch it.
    public static func oneLine(_ text: String, maximumBytes: Int) -> String {
        var out = ""
        var bytes = 0
        for scalar in text.unicodeScalars {
            let piece: String
            switch scalar.value {
            case 0x0A: piece = "\\n"
            case 0x0D: piece = "\\r"
            case 0x09: piece = "\\t"
            default: piece = isHidden(scalar) ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
            }
            let size = piece.utf8.count
            if bytes + size > maximumBytes {
                out += "…"
                break
            }
            out += piece
            bytes += size
        }
        return out
    }

    /// Whether `scalar` is a control character (C0, DEL, C1) or invisible
    /// formatting (bidi overrides, zero-width characters, line and paragraph
    /// separators, unassigned and private-use code points): what must be
    /// shown escaped, never obeyed or drawn.
    public static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F..<0xA0: return true
        default:
            switch scalar.properties.generalCategory {
            case .format, .lineSeparator, .paragraphSeparator, .unassigned, .privateUse, .surrogate: return true
            default: return false
            }
        }
    }
}
