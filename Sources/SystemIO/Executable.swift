#if canImport(Glibc)
import Glibc
#endif

/// Where this program's binary is, to find what is installed beside it (fonts, the allocation counter).
public enum Executable {
    /// The binary's absolute path, from /proc/self/exe.
    public static var path: String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { readlink("/proc/self/exe", $0.baseAddress!.assumingMemoryBound(to: CChar.self), 4095) }
        return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : nil
    }

    /// The directory holding the binary.
    public static var directory: String? {
        guard let path, let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }
}
