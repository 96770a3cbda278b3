#if canImport(Glibc)
import Glibc
#endif
import SystemIO

/// systemd's notification protocol without libsystemd: one datagram per
/// message to $NOTIFY_SOCKET (a path, or an abstract name written @name).
/// When the variable is unset nothing is sent.
public final class ServiceNotifier {
    /// `STATUS=` with `text` made one clean line: a callsign or a note from
    /// outside cannot add an assignment (`\nSTOPPING=1`) to the datagram.
    public static func status(_ text: String) -> String {
        "STATUS=" + ExternalText.oneLine(text, maximumBytes: 200)
    }

    private let socket: FileDescriptor?
    private var address = sockaddr_un()
    private var addressLength: socklen_t = 0
    /// Half of $WATCHDOG_USEC, when systemd asked for keep-alives.
    public let watchdogInterval: Double?
    public var isActive: Bool { socket != nil }

    public init(environment: (String) -> String? = { name in getenv(name).map { String(cString: $0) } }) {
        if let usec = environment("WATCHDOG_USEC").flatMap(UInt64.init), usec > 0,
           environment("WATCHDOG_PID").flatMap(Int32.init).map({ $0 == getpid() }) ?? true {
            watchdogInterval = Double(usec) / 1e6 / 2
        } else {
            watchdogInterval = nil
        }
        guard let path = environment("NOTIFY_SOCKET"), !path.isEmpty, path.utf8.count < 108,
              path.hasPrefix("/") || path.hasPrefix("@") else {
            socket = nil
            return
        }
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        socket = fd >= 0 ? FileDescriptor(owning: fd) : nil
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            // An abstract name starts with a NUL byte instead of the @.
            if bytes.first == UInt8(ascii: "@") { raw[0] = 0 }
        }
        let base = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        addressLength = socklen_t(base + bytes.count + (bytes.first == UInt8(ascii: "@") ? 0 : 1))
    }

    /// Sends `message` (e.g. "READY=1\nSTATUS=…"); errors are ignored, as systemd's own client does.
    ///
    /// Never waits: a manager that stops reading leaves ten datagrams in the
    /// socket's queue (net.unix.max_dgram_qlen), and a blocking send after
    /// them would hold the loop, signals and all. A message that finds the
    /// queue full is dropped; a manager that reads nothing acts on nothing.
    public func send(_ message: String) {
        guard let fd = socket?.rawValue else { return }
        var bytes = Array(message.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { a in
                bytes.withUnsafeMutableBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT), a, addressLength) }
            }
        }
    }
}
