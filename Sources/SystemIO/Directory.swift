#if canImport(Glibc)
import Glibc
#endif

/// Lists a directory: the one scan behind finding DRM cards, GPIO chips and
/// input devices.
public enum Directory {
    /// Full paths of the entries of `path` whose names start with `prefix`,
    /// in natural order (card2 before card10); empty when it cannot be read.
    public static func entries(of path: String, prefix: String = "") -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix(prefix) && name != "." && name != ".." { names.append(name) }
        }
        let base = path.hasSuffix("/") ? path : path + "/"
        return names.sorted { $0.count == $1.count ? $0 < $1 : $0.count < $1.count }.map { base + $0 }
    }
}
