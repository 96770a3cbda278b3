#if canImport(Glibc)
import Glibc
#endif

/// A regular file mapped read-only into memory: its bytes are read by the
/// kernel as they are touched, so a large table costs resident memory only for
/// the pages a lookup visits, and opening it reads nothing. Unmapped when the
/// object goes away.
public final class MappedFile {
    public let path: String
    public let count: Int
    private let base: UnsafeRawPointer?
    /// Kept open to ask whether the file is still as long as the mapping.
    private let file: FileDescriptor

    public init(path: String) throws {
        let file: FileDescriptor
        do { file = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY) } catch let e as SystemError {
            throw FileContentsError("\(path): cannot open (\(e.reason))", cause: e)
        }
        guard file.isRegularFile else { throw FileContentsError("\(path): not a regular file") }
        var info = stat()
        guard fstat(file.rawValue, &info) == 0 else { throw FileContentsError("\(path): cannot stat (\(SystemError.lastReason))") }
        self.path = path
        self.file = file
        count = Int(info.st_size)
        if count == 0 {
            base = nil
            return
        }
        let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, file.rawValue, 0)
        guard let mapped, mapped != MAP_FAILED else {
            throw FileContentsError("\(path): cannot map (\(SystemError.lastReason))")
        }
        base = UnsafeRawPointer(mapped)
    }

    deinit {
        if let base { munmap(UnsafeMutableRawPointer(mutating: base), count) }
    }

    /// Asks the kernel to read the whole file into the page cache now, in the
    /// background: later lookups then touch memory, not the disk (an SD card).
    public func prefetch() {
        if let base { _ = madvise(UnsafeMutableRawPointer(mutating: base), count, MADV_WILLNEED) }
    }

    /// Whether every mapped byte is still in the file. A file cut short in
    /// place (`cp` over it truncates first) makes touching the lost pages a
    /// SIGBUS that kills the process: ask before each lookup. (One fstat;
    /// replacing the file by rename, as dpkg and `install` do, keeps the
    /// mapped one whole.)
    public var isIntact: Bool {
        var info = stat()
        return fstat(file.rawValue, &info) == 0 && Int(info.st_size) >= count
    }

    /// The file's bytes, valid while this object lives.
    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }
}
