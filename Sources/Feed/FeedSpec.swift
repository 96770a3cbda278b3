import JSON

/// Where live aircraft come from, as the configuration and `--feed` give it:
/// one parser for both, so `check-config` accepts exactly what `run` can use.
public enum FeedSpec: Equatable, Sendable, CustomStringConvertible {
    /// readsb's or dump1090-fa's aircraft.json, whichever this machine has.
    case auto
    /// aircraft.json at an absolute path.
    case file(String)
    /// aircraft.json over HTTP.
    case http(host: String, port: UInt16, path: String)
    /// aircraft.json over HTTPS (the certificate checked against the system's
    /// authorities, or `feed.ca_file`'s).
    case https(host: String, port: UInt16, path: String)
    /// SBS-1 BaseStation over TCP.
    case sbs(host: String, port: UInt16)
    /// A public aggregator's aircraft around the station.
    case aggregator(Aggregator)
    /// Several sources at once, merged by address (`A, B`; 2 to 4 of them).
    case several([FeedSpec])

    /// The most sources one kiosk merges.
    public static let maximumSources = 4

    /// The forms, for help texts and errors.
    public static let forms = "auto, an absolute path, http://HOST[:PORT]/PATH, https://HOST[:PORT]/PATH, sbs://HOST:PORT (an IPv6 address in brackets), adsb.lol or adsb.fi"

    /// Parses `auto`, `/path`, `http[s]://HOST[:PORT]/PATH` or `sbs://HOST:PORT`.
    public init(parsing text: String) throws {
        if text.contains(",") {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmed(" \t") }
            guard !parts.contains(where: \.isEmpty) else { throw FeedError("'\(text)': an empty source between commas") }
            guard parts.count <= Self.maximumSources else { throw FeedError("'\(text)': at most \(Self.maximumSources) sources") }
            let specs = try parts.map { try FeedSpec(parsing: $0) }
            guard Set(specs.map(\.description)).count == specs.count else { throw FeedError("'\(text)': a source is named twice") }
            self = .several(specs)
        } else if text == "auto" {
            self = .auto
        } else if let service = Aggregator(rawValue: text) {
            self = .aggregator(service)
        } else if text.hasPrefix("/") {
            self = .file(text)
        } else if text.hasPrefix("http://") || text.hasPrefix("https://") {
            let secure = text.hasPrefix("https://")
            let rest = text.dropFirst(secure ? 8 : 7)
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            let (host, port) = try Self.authority(rest[..<slash], defaultPort: secure ? 443 : 80, in: text)
            let path = slash == rest.endIndex ? "/" : String(rest[slash...])
            // The path goes into a request line: nothing that could end it or smuggle a header.
            guard path.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
                throw FeedError("'\(text)': the path must be printable ASCII without spaces (percent-encode the rest)")
            }
            self = secure ? .https(host: host, port: port, path: path) : .http(host: host, port: port, path: path)
        } else if text.hasPrefix("sbs://") {
            let (host, port) = try Self.authority(text.dropFirst(6), defaultPort: nil, in: text)
            self = .sbs(host: host, port: port)
        } else {
            throw FeedError("expected \(Self.forms), not '\(text)'")
        }
    }

    /// HOST[:PORT] or [IPV6][:PORT]; the port 1...65535.
    public static func authority(_ text: Substring, defaultPort: UInt16?, in whole: String) throws -> (String, UInt16) {
        var host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw FeedError("'\(whole)': an IPv6 address needs its closing ]") }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw FeedError("'\(whole)': expected :PORT after the address") }
                portText = after.dropFirst()
            }
        } else {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { throw FeedError("'\(whole)': put an IPv6 address in brackets, e.g. [::1]:30003") }
            host = parts[0]
            portText = parts.count == 2 ? parts[1] : nil
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || ".-_:%".contains($0) }) else {
            throw FeedError("'\(whole)': no host name")
        }
        let port: UInt16
        if let portText {
            guard portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber), let p = UInt16(portText), p > 0 else {
                throw FeedError("'\(whole)': the port must be 1...65535, not '\(portText)'")
            }
            port = p
        } else if let defaultPort {
            port = defaultPort
        } else {
            throw FeedError("'\(whole)': expected sbs://HOST:PORT")
        }
        return (String(host), port)
    }

    public var description: String {
        switch self {
        case .auto: return "auto"
        case let .file(path): return path
        case let .http(host, port, path): return "http://\(Self.bracketed(host))\(port == 80 ? "" : ":\(port)")\(path)"
        case let .https(host, port, path): return "https://\(Self.bracketed(host))\(port == 443 ? "" : ":\(port)")\(path)"
        case let .sbs(host, port): return "sbs://\(Self.bracketed(host)):\(port)"
        case let .aggregator(service): return service.rawValue
        case let .several(specs): return specs.map(\.description).joined(separator: ", ")
        }
    }

    /// The credit the source's terms ask for on the screen, if any.
    public var attribution: String? {
        switch self {
        case let .aggregator(service): return service.attribution
        case let .several(specs): return specs.compactMap(\.attribution).first
        default: return nil
        }
    }

    /// The sources this spec names: itself, or each of several.
    public var sources: [FeedSpec] {
        if case let .several(specs) = self { return specs }
        return [self]
    }

    private static func bracketed(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }

    /// Where local receivers write aircraft.json, tried in order by `auto`
    /// (design/adsb-and-devices.md §1.1).
    public static let automaticPaths = ["/run/readsb/aircraft.json", "/run/dump1090-fa/aircraft.json",
                                        "/run/dump1090-mutability/aircraft.json", "/run/skyaware978/aircraft.json"]

    /// Where docker and feeder images (ultrafeeder, adsb.im) serve aircraft.json:
    /// `auto` takes it when no local file exists and something answers there.
    public static let automaticURL = FeedSpec.http(host: "127.0.0.1", port: 8080, path: "/data/aircraft.json")
}
