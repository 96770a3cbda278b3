#if canImport(Glibc)
import Glibc
#endif
import Feed
import JSON
import SystemIO

/// The aircraft database PiAware's SkyAware web page ships (dump1090-fa's
/// html/db): hex address → registration and type, in JSON files split by
/// address prefix ("4.json", "4C.json", …, each naming its deeper files under
/// "children"). Read where it is installed, never shipped.
///
/// Reading files is not for the render loop: a lookup that is not cached yet
/// answers nil and queues the address; a background thread reads the files,
/// and the answer is there for the next feed update (a second later).
public final class SkyAwareDatabase {
    /// What the files say about one aircraft.
    public struct Record: Equatable, Sendable {
        public var registration: String?
        public var typeDesignator: String?
    }

    /// Where dump1090-fa and SkyAware install it, newest first.
    public static let installedDirectories = ["/usr/share/skyaware/html/db", "/usr/share/dump1090-fa/html/db"]

    public let directory: String
    private var cache: [String: Record?] = [:]
    private var pending: [String] = []
    private let worker = BackgroundWork<(String, Record?)>()
    /// Bounds: answers kept, and addresses waiting to be read.
    static let cacheLimit = 4096, queueLimit = 64
    /// The largest file read. dump1090-fa's files hold at most a few hundred
    /// entries (tens of kB) before they split into children; parsed, a JSON
    /// file costs several times its size, so a planted 8 MiB one would cost
    /// the kiosk most of the unit's memory limit on every lookup.
    static let fileLimit = 1 << 20

    public init(directory: String) { self.directory = directory }

    /// The installed database, if any.
    public static func installed() -> SkyAwareDatabase? {
        installedDirectories.first { !Directory.entries(of: $0, prefix: "").isEmpty }.map(SkyAwareDatabase.init)
    }

    /// The record for `hex` if it has been read; otherwise nil, and the read is queued.
    public func record(forAddress hex: String) -> Record? {
        collect()
        let key = hex.uppercased()
        if let known = cache[key] { return known }
        if !pending.contains(key) && pending.count < Self.queueLimit && key.utf8.count == 6 && key.allSatisfy(\.isHexDigit) {
            pending.append(key)
        }
        startNext()
        return nil
    }

    /// Takes a finished read, and starts the next one.
    func collect() {
        if let (key, record) = worker.take() {
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[key] = .some(record)
        }
        startNext()
    }

    private func startNext() {
        guard !worker.isBusy, !pending.isEmpty else { return }
        let key = pending.removeFirst()
        let directory = self.directory
        _ = worker.start(at: MonotonicClock.now()) { (key, Self.read(key, in: directory)) }
    }

    /// The lookup itself, as SkyAware's dbloader walks the files; blocking, so
    /// only on the worker (and in tests).
    static func read(_ hex: String, in directory: String) -> Record? {
        guard hex.utf8.count == 6, hex.allSatisfy(\.isHexDigit) else { return nil }
        var level = 1
        while level <= hex.count {
            let prefix = String(hex.prefix(level)), rest = String(hex.dropFirst(level))
            guard let bytes = try? FileContents.bytes(directory + "/" + prefix + ".json", limit: fileLimit),
                  let object = (try? JSONParser.parse(bytes))?.objectValue else { return nil }
            if let entry = object[rest] { return record(entry) }
            guard let children = object["children"]?.arrayValue,
                  children.contains(where: { $0.stringValue == prefix + String(rest.prefix(1)) }) else { return nil }
            level += 1
        }
        return nil
    }

    /// An entry: {"r": …, "t": …} (dump1090-fa) or [registration, type, …] (its forks).
    static func record(_ entry: JSONValue) -> Record? {
        if let o = entry.objectValue {
            return Record(registration: Plausible.identifier(o["r"]?.stringValue), typeDesignator: Plausible.identifier(o["t"]?.stringValue, length: 4))
        }
        if let a = entry.arrayValue {
            return Record(registration: a.first.flatMap { Plausible.identifier($0.stringValue) },
                          typeDesignator: a.count > 1 ? Plausible.identifier(a[1].stringValue, length: 4) : nil)
        }
        return nil
    }

    /// Waits for the queued reads (tests, and the one-shot `render --feed`).
    public func finishPending(timeout: Double = 5) {
        let deadline = MonotonicClock.now() + timeout
        while (worker.isBusy || !pending.isEmpty) && MonotonicClock.now() < deadline {
            var poll = pollfd(fd: worker.descriptor, events: Int16(POLLIN), revents: 0)
            _ = Glibc.poll(&poll, 1, 50)
            collect()
        }
    }
}
