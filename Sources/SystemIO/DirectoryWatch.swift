#if canImport(Glibc)
import Glibc
#endif

/// Changes to the entries of one directory, from the kernel's inotify: a
/// file written and closed, moved in, created, removed. Non-blocking; its
/// descriptor is polled with the loop's others. The one wrapper of inotify:
/// the aircraft.json feed and the keyboard finder both watch through it.
public final class DirectoryWatch {
    /// Which changes to hear of.
    public struct Changes: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let created = Changes(rawValue: UInt32(IN_CREATE))
        /// Permissions or ownership changed (a device node udev has just given its group).
        public static let attributesChanged = Changes(rawValue: UInt32(IN_ATTRIB))
        /// A file opened for writing was closed: whatever was written is complete.
        public static let closedAfterWriting = Changes(rawValue: UInt32(IN_CLOSE_WRITE))
        public static let movedIn = Changes(rawValue: UInt32(IN_MOVED_TO))
        public static let movedOut = Changes(rawValue: UInt32(IN_MOVED_FROM))
        public static let deleted = Changes(rawValue: UInt32(IN_DELETE))
        /// The directory itself was removed (its watch is then gone).
        public static let directoryDeleted = Changes(rawValue: UInt32(IN_DELETE_SELF))
    }

    public let directory: String
    private let inotify: FileDescriptor
    private let changes: Changes
    private var watch: Int32 = -1
    private var buffer = [UInt8](repeating: 0, count: 8192)

    /// Watches `directory` for `changes`; throws when inotify cannot be had.
    /// A directory that does not exist yet is watched from when `rewatch` finds it.
    public init(_ directory: String, for changes: Changes) throws {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw SystemError.last("inotify_init1", directory) }
        inotify = FileDescriptor(owning: fd)
        self.directory = directory
        self.changes = changes
        rewatch()
    }

    /// The directory to watch for a file at `path`, and the entry's name in it
    /// ("/run/readsb/aircraft.json" → "/run/readsb", "aircraft.json"; a bare name is in ".").
    public static func directoryAndName(of path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    /// The descriptor to poll: readable when a change is waiting.
    public var descriptor: Int32 { inotify.rawValue }

    /// Whether the directory is watched now (false while it does not exist).
    public var isWatching: Bool { watch >= 0 }

    /// Watches the directory again if its watch was lost (the directory removed and made again).
    public func rewatch() {
        watch = inotify_add_watch(inotify.rawValue, directory, changes.rawValue)
    }

    /// Reads every waiting change, calling `body` with the entry's name
    /// ("" for the directory itself) and what happened to it.
    public func drain(_ body: (String, Changes) -> Void) {
        while case let .bytes(n) = buffer.withUnsafeMutableBytes({ inotify.read(into: $0) }) {
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= n {
                let (length, mask, name) = buffer.withUnsafeBytes { raw -> (Int, UInt32, String) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let start = offset + header, end = min(start + Int(event.len), n)
                    return (Int(event.len), event.mask, String(decoding: raw[start..<end].prefix { $0 != 0 }, as: UTF8.self))
                }
                if mask & UInt32(IN_IGNORED) != 0 { watch = -1 }
                body(name, Changes(rawValue: mask & ~UInt32(IN_ISDIR)))
                offset += header + length
            }
        }
    }
}
