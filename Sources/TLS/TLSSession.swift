#if canImport(Glibc)
import Glibc
#endif
import COpenSSL
import SystemIO

/// TLS over a connected non-blocking socket, through OpenSSL: the broker's
/// certificate checked against the system's authorities (or a file of
/// them) and its name, SNI sent, TLS 1.2 at least. Nothing here blocks: the
/// handshake, reads and writes each say when they need the socket readable
/// or writable, and the caller polls for that. What went wrong is one line
/// ("certificate not trusted: unable to get local issuer certificate").
public final class TLSSession {
    /// How a step of the session ended.
    public enum Step: Equatable {
        case done
        /// Call again when the socket is readable.
        case wantsRead
        /// Call again when the socket is writable.
        case wantsWrite
        case failed(String)
    }

    /// What a read or a write did.
    public enum Transfer: Equatable {
        case bytes(Int)
        /// The peer closed the session.
        case end
        /// Nothing now: call again when the socket is ready (`wantsWrite` says for what).
        case wouldBlock
        case failed(String)
    }

    public let socket: FileDescriptor
    private let context: OpaquePointer
    private let ssl: OpaquePointer
    /// Whether the last step waits for room to write (the caller polls for it).
    public private(set) var wantsWrite = false

    /// A session for `socket`, to `host` (checked against the certificate,
    /// and sent as SNI unless it is an address), trusting `caFile`'s
    /// authorities or else the system's; with `certificateFile` and
    /// `keyFile`, it shows that certificate to a server that asks.
    public init(socket: FileDescriptor, host: String, caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil) throws {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw TLSError("cannot make a TLS context: \(Self.lastError())") }
        _ = radar_ssl_ctx_set_min_tls12(context)
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        let loaded = caFile.map { SSL_CTX_load_verify_locations(context, $0, nil) } ?? SSL_CTX_set_default_verify_paths(context)
        guard loaded == 1 else {
            SSL_CTX_free(context)
            throw TLSError(caFile.map { "cannot read the certificate authorities in \($0)" } ?? "cannot read the system's certificate authorities")
        }
        if let certificateFile {
            guard SSL_CTX_use_certificate_chain_file(context, certificateFile) == 1,
                  SSL_CTX_use_PrivateKey_file(context, keyFile ?? certificateFile, SSL_FILETYPE_PEM) == 1,
                  SSL_CTX_check_private_key(context) == 1 else {
                let reason = Self.lastError()
                SSL_CTX_free(context)
                throw TLSError("cannot use the client certificate \(certificateFile)\(keyFile.map { " with \($0)" } ?? ""): \(reason)")
            }
        }
        guard let ssl = SSL_new(context) else {
            SSL_CTX_free(context)
            throw TLSError("cannot make a TLS session: \(Self.lastError())")
        }
        self.context = context
        self.ssl = ssl
        self.socket = socket
        _ = radar_ssl_set_modes(ssl)
        SSL_set_fd(ssl, socket.rawValue)
        // The name the certificate must carry: a host name, or an address literal.
        let param = SSL_get0_param(ssl)
        if Self.isAddressLiteral(host) {
            X509_VERIFY_PARAM_set1_ip_asc(param, host)
        } else {
            X509_VERIFY_PARAM_set1_host(param, host, 0)
            _ = radar_ssl_set_host_name(ssl, host)
        }
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(context)
    }

    /// Moves the handshake on.
    public func handshake() -> Step {
        ERR_clear_error()
        let result = SSL_connect(ssl)
        if result == 1 { return settle(.done) }
        return settle(outcome(of: result, during: "handshake"))
    }

    /// Reads decrypted bytes into `buffer`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        ERR_clear_error()
        let n = SSL_read(ssl, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max))))
        if n > 0 { return settled(.bytes(Int(n))) }
        return transfer(outcome(of: n, during: "read"))
    }

    /// Encrypts and sends what it can of `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) -> Transfer {
        guard !bytes.isEmpty else { return .bytes(0) }
        ERR_clear_error()
        let n = SSL_write(ssl, bytes.baseAddress, Int32(min(bytes.count, Int(Int32.max))))
        if n > 0 { return settled(.bytes(Int(n))) }
        return transfer(outcome(of: n, during: "write"))
    }

    /// Whether decrypted bytes wait to be read (a record read in part).
    public var holdsDecrypted: Bool { SSL_pending(ssl) > 0 }

    /// Says goodbye (close_notify), without waiting for the answer.
    public func close() { _ = SSL_shutdown(ssl) }

    private func settle(_ step: Step) -> Step {
        wantsWrite = step == .wantsWrite
        return step
    }

    private func settled(_ transfer: Transfer) -> Transfer {
        wantsWrite = false
        return transfer
    }

    private func transfer(_ step: Step) -> Transfer {
        switch settle(step) {
        case .done: return .end
        case .wantsRead, .wantsWrite: return .wouldBlock
        case let .failed(message): return message == Self.closedMessage ? .end : .failed(message)
        }
    }

    private static let closedMessage = "the peer closed the TLS session"

    private func outcome(of result: Int32, during what: String) -> Step {
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ: return .wantsRead
        case SSL_ERROR_WANT_WRITE: return .wantsWrite
        case SSL_ERROR_ZERO_RETURN: return .failed(Self.closedMessage)
        case SSL_ERROR_SYSCALL:
            let code = errno
            return .failed(code == 0 ? "TLS \(what): the connection ended" : "TLS \(what): \(String(cString: strerror(code)))")
        default:
            let verify = SSL_get_verify_result(ssl)
            if verify != X509_V_OK {
                return .failed("TLS: the certificate is not accepted (\(String(cString: X509_verify_cert_error_string(verify))))")
            }
            return .failed("TLS \(what): \(Self.lastError())")
        }
    }

    /// OpenSSL's reason for the last failure, one line.
    private static func lastError() -> String {
        let code = ERR_get_error()
        guard code != 0, let reason = ERR_reason_error_string(code) else { return "unknown error" }
        return String(cString: reason)
    }

    static func isAddressLiteral(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}

/// A TLS session that could not be made: one line saying why.
public struct TLSError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
