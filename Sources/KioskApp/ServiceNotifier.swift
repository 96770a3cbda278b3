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

    private let socket: LocalSocket.DatagramSender?
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
        socket = LocalSocket.DatagramSender(to: path)
    }

    /// Sends `message` (e.g. "READY=1\nSTATUS=…"); errors are ignored, as systemd's own client does.
    ///
    /// Never waits: a manager that stops reading leaves ten datagrams in the
    /// socket's queue (net.unix.max_dgram_qlen), and a blocking send after
    /// them would hold the loop, signals and all. A message that finds the
    /// queue full is dropped; a manager that reads nothing acts on nothing.
    public func send(_ message: String) {
        guard let socket else { return }
        var message = message
        message.withUTF8 { socket.send(UnsafeRawBufferPointer($0)) }
    }
}
