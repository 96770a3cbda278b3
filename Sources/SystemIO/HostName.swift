#if canImport(Glibc)
import Glibc
#endif

/// The machine's host name (the kernel's, as `hostname` prints it), cleaned
/// to one printable line; nil when it is unset or only "localhost".
public enum HostName {
    public static func current() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = ExternalText.oneLine(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), maximumBytes: 64)
        return name.isEmpty || name == "localhost" || name == "(none)" ? nil : name
    }
}
