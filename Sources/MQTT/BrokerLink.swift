import SystemIO
import TLS

/// The bytes between the client and its broker: the socket itself, or TLS
/// over it (port 8883). Reads and writes say the same things either way.
enum BrokerLink {
    case plain(FileDescriptor)
    case tls(TLSSession)

    /// What a read or a write did; a failure is one line.
    enum Transfer: Equatable {
        case bytes(Int)
        case end
        case wouldBlock
        case failed(String)
    }

    var descriptor: FileDescriptor {
        switch self {
        case let .plain(socket): return socket
        case let .tls(session): return session.socket
        }
    }

    /// Whether the link waits for room to write before it can go on (TLS
    /// may need to write to read).
    var wantsWrite: Bool {
        if case let .tls(session) = self { return session.wantsWrite }
        return false
    }

    /// Whether TLS holds decrypted bytes not read yet: the socket will not
    /// say so by being readable.
    var holdsDecrypted: Bool {
        if case let .tls(session) = self { return session.holdsDecrypted }
        return false
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        switch self {
        case let .plain(socket): return Self.transfer(socket.read(into: buffer))
        case let .tls(session): return Self.transfer(session.read(into: buffer))
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> Transfer {
        switch self {
        case let .plain(socket): return Self.transfer(socket.write(bytes))
        case let .tls(session): return Self.transfer(session.write(bytes))
        }
    }

    /// Ends a TLS session with close_notify; a plain socket just closes.
    func close() {
        if case let .tls(session) = self { session.close() }
    }

    private static func transfer(_ t: FileDescriptor.Transfer) -> Transfer {
        switch t {
        case let .bytes(n): return .bytes(n)
        case .end: return .end
        case .wouldBlock: return .wouldBlock
        case let .failed(error): return .failed(error.reason)
        }
    }

    private static func transfer(_ t: TLSSession.Transfer) -> Transfer {
        switch t {
        case let .bytes(n): return .bytes(n)
        case .end: return .end
        case .wouldBlock: return .wouldBlock
        case let .failed(message): return .failed(message)
        }
    }
}
