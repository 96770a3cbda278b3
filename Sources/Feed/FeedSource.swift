#if canImport(Glibc)
import Glibc
#endif
import SystemIO

/// What a live source produced.
public enum FeedEvent: Equatable, Sendable {
    case snapshot(AircraftSnapshot)
    /// The source is not usable now (missing file, refused connection, garbage);
    /// it keeps retrying. One line, naming the source.
    case failed(String)
}

/// A live ADS-B source as the event loop sees it: a descriptor to poll (or
/// none) and a time to be called back at (reconnects, polls).
public protocol FeedSource: EventSource<FeedEvent> {
    var name: String { get }
}

/// One source as `get` and MQTT report it: its name, and whether its data
/// is coming in now.
public struct FeedSourceStatus: Equatable, Sendable {
    public let name: String
    public let isLive: Bool

    public init(name: String, isLive: Bool) {
        self.name = name
        self.isLive = isLive
    }
}

/// A feed setting that cannot work, with what is wrong.
public struct FeedError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
