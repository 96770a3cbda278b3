#if canImport(Glibc)
import Glibc
#endif

/// The TZ variable, checked as the C library will read it. A TZ the C
/// library cannot use is not an error to it: `Europe/Lndon` or `garbage`
/// silently reads as UTC, and a night schedule then starts an hour or more
/// off with nothing said. The kiosk says it once, at start.
public enum TimeZoneSetting {
    /// Why `value` (TZ; nil when unset) will read as UTC, or nil when it
    /// names a zone file that exists (under `zoneDirectory`, or a path) or is
    /// a POSIX rule ("GMT0BST,M3.5.0/1,M10.5.0"); unset and empty are fine
    /// (/etc/localtime, and UTC by the standard's word).
    public static func problem(_ value: String?, zoneDirectory: String = "/usr/share/zoneinfo") -> String? {
        guard let value, !value.isEmpty else { return nil }
        let name = value.hasPrefix(":") ? String(value.dropFirst()) : value
        let path = name.hasPrefix("/") ? name : zoneDirectory + "/" + name
        if isZoneFile(path) { return nil }
        if !value.hasPrefix(":"), isPOSIXRule(name) { return nil }
        return "TZ '\(ExternalText.oneLine(value, maximumBytes: 64))' is neither a time zone on this system (\(zoneDirectory)) "
            + "nor a rule like GMT0BST,M3.5.0/1,M10.5.0: local time reads as UTC"
    }

    /// Whether `path` is a compiled zone file (it starts "TZif").
    private static func isZoneFile(_ path: String) -> Bool {
        guard let file = try? FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) else { return false }
        defer { file.close() }
        var info = stat()
        guard fstat(file.rawValue, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        var magic: [UInt8] = [0, 0, 0, 0]
        let read = magic.withUnsafeMutableBytes { file.read(into: $0) }
        return read == .bytes(4) && magic == Array("TZif".utf8)
    }

    /// A POSIX TZ rule's start: a zone name (three or more letters, or
    /// `<...>`) and then its offset from UTC; glibc takes a name without an
    /// offset as UTC under that name.
    private static func isPOSIXRule(_ rule: String) -> Bool {
        var rest = Substring(rule)
        if rest.hasPrefix("<") {
            guard let close = rest.firstIndex(of: ">"), rest.distance(from: rest.startIndex, to: close) >= 4 else { return false }
            rest = rest[rest.index(after: close)...]
        } else {
            let letters = rest.prefix { $0.isASCII && $0.isLetter }
            guard letters.count >= 3 else { return false }
            rest = rest.dropFirst(letters.count)
        }
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        return rest.first.map { $0.isASCII && $0.isNumber } == true
    }
}
