#if canImport(Glibc)
import Glibc
#endif
import CCurl
import SystemIO

/// One HTTP or HTTPS request at a time, through libcurl's multi interface,
/// driven by the kiosk's own poll: curl names the sockets it waits on and
/// when it wants to be called back (its socket and timer callbacks), the loop
/// polls them, and `service` hands curl what is ready. Nothing blocks the
/// loop: names are looked up on curl's resolver thread, TLS is curl's
/// (OpenSSL, the system's CA store unless `caFile` names another, host name
/// and certificate checked), and at most `readBudget` bytes of body are taken
/// a turn (the transfer is paused, not dropped, when a turn's budget is
/// spent). The connection is kept between requests (HTTP/1.1 keep-alive),
/// answers may be gzipped or chunked, at most two redirects are followed,
/// and the body is capped at `maximumAnswer` bytes after decompression.
/// All of curl's pointers stay inside this type.
public final class HTTPTransfer {
    /// A complete answer. Its strings come from the server: cleaned, short.
    public struct Answer: Sendable {
        public let status: Int
        /// The Content-Type header, without parameters, in lower case.
        public let contentType: String?
        /// Retry-After (seconds, or an HTTP date as seconds from now), if sent.
        public let retryAfter: Double?
        public let body: [UInt8]

        public init(status: Int, contentType: String?, retryAfter: Double?, body: [UInt8]) {
            self.status = status
            self.contentType = contentType
            self.retryAfter = retryAfter
            self.body = body
        }
    }

    /// How an exchange ended.
    public enum Outcome: Sendable {
        case answered(Answer)
        /// One stable line (the same failure reads the same each time).
        case failed(String)
    }

    public let url: String
    public var readBudget = 1 << 20
    public var maximumAnswer = 32 << 20
    /// The whole exchange, connect and name lookup included.
    public var timeout = 5.0

    private let multi: UnsafeMutableRawPointer
    private let easy: UnsafeMutableRawPointer
    private let headers: UnsafeMutablePointer<curl_slist>?
    private let errorText: UnsafeMutablePointer<CChar>
    /// The sockets curl waits on, and for what (CURL_POLL_IN, _OUT, _INOUT).
    private var watched: [(fd: Int32, what: Int32)] = []
    private var readiness: [pollfd] = []
    private var timerDeadline: Double?
    /// The loop time of the curl call in progress, for the timer callback.
    private var clockNow = 0.0
    private var body: [UInt8] = []
    private var takenThisTurn = 0
    private var paused = false
    private var tooLarge = false
    public private(set) var isBusy = false

    /// curl_global_init once, before the first handle (not thread-safe before 7.84).
    private static let initialised: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// A transfer of `url` (http:// or https://). `caFile` replaces the
    /// system's CA bundle (a receiver's own certificate authority).
    public init(url: String, userAgent: String, accept: String = "application/json", caFile: String? = nil) {
        precondition(Self.initialised, "curl_global_init failed")
        self.url = url
        guard let multi = curl_multi_init(), let easy = curl_easy_init() else { fatalError("libcurl: out of memory") }
        self.multi = multi
        self.easy = easy
        headers = curl_slist_append(nil, "Accept: \(accept)")
        errorText = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorText.initialize(to: 0)

        let me = Unmanaged.passUnretained(self).toOpaque()
        radar_curl_multi_set_socket_function(multi, Self.onSocket)
        radar_curl_multi_set_pointer(multi, CURLMOPT_SOCKETDATA, me)
        radar_curl_multi_set_timer_function(multi, Self.onTimer)
        radar_curl_multi_set_pointer(multi, CURLMOPT_TIMERDATA, me)
        // One feed, one server: one connection kept for the next request.
        radar_curl_multi_set_long(multi, CURLMOPT_MAXCONNECTS, 1)

        radar_curl_easy_set_string(easy, CURLOPT_URL, url)
        radar_curl_easy_set_string(easy, CURLOPT_USERAGENT, userAgent)
        radar_curl_easy_set_pointer(easy, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headers))
        radar_curl_easy_set_write_function(easy, Self.onBody)
        radar_curl_easy_set_pointer(easy, CURLOPT_WRITEDATA, me)
        radar_curl_easy_set_pointer(easy, CURLOPT_ERRORBUFFER, errorText)
        radar_curl_easy_set_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        radar_curl_easy_set_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        radar_curl_easy_set_long(easy, CURLOPT_FOLLOWLOCATION, 1)
        radar_curl_easy_set_long(easy, CURLOPT_MAXREDIRS, 2)
        // Every encoding this libcurl can undo (gzip, deflate, brotli, zstd).
        radar_curl_easy_set_string(easy, CURLOPT_ACCEPT_ENCODING, "")
        // No signals from curl's resolver thread; the loop owns the signals.
        radar_curl_easy_set_long(easy, CURLOPT_NOSIGNAL, 1)
        radar_curl_easy_set_long(easy, CURLOPT_TCP_KEEPALIVE, 1)
        // A lookup that never answers is left to finish on its own thread:
        // without this, dropping the transfer waits for it (20 s on the loop).
        radar_curl_easy_set_long(easy, CURLOPT_QUICK_EXIT, 1)
        if let caFile { radar_curl_easy_set_string(easy, CURLOPT_CAINFO, caFile) }
    }

    deinit {
        if isBusy { curl_multi_remove_handle(multi, easy) }
        curl_easy_cleanup(easy)
        curl_multi_cleanup(multi)
        curl_slist_free_all(headers)
        errorText.deallocate()
    }

    /// Starts the request (a transfer already under way is dropped).
    public func start(at now: Double) {
        cancel()
        clockNow = now
        body.removeAll(keepingCapacity: true)
        tooLarge = false
        paused = false
        takenThisTurn = 0
        errorText[0] = 0
        let milliseconds = Int((timeout * 1000).rounded())
        radar_curl_easy_set_long(easy, CURLOPT_TIMEOUT_MS, milliseconds)
        radar_curl_easy_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
        radar_curl_easy_set_offset(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(maximumAnswer))
        isBusy = curl_multi_add_handle(multi, easy) == CURLM_OK
    }

    /// Drops the transfer under way, if any (its connection is closed by curl
    /// if it was mid-answer, kept if it was idle).
    public func cancel() {
        guard isBusy else { return }
        curl_multi_remove_handle(multi, easy)
        isBusy = false
        watched.removeAll(keepingCapacity: true)
        timerDeadline = nil
        // One big answer must not keep its buffer for ever.
        if body.capacity > 1 << 20 { body = [] }
    }

    public func forEachDescriptor(_ body: (Int32) -> Void) {
        for socket in watched where socket.what & Int32(CURL_POLL_IN) != 0 { body(socket.fd) }
    }

    public func forEachWritableDescriptor(_ body: (Int32) -> Void) {
        for socket in watched where socket.what & Int32(CURL_POLL_OUT) != 0 { body(socket.fd) }
    }

    /// curl's timer, or at once while a transfer is paused on this turn's budget.
    public var nextWake: Double? {
        guard isBusy else { return nil }
        return paused ? clockNow : timerDeadline
    }

    /// Hands curl what is ready now; the outcome once the exchange is over.
    public func service(now: Double) -> Outcome? {
        guard isBusy else { return nil }
        clockNow = now
        takenThisTurn = 0
        var running: Int32 = 0
        if paused {
            // Unpausing gives back the piece held and asks to be run at once
            // (TLS may hold decrypted bytes the socket no longer shows): run
            // it now rather than trust a timer callback curl may not repeat.
            paused = false
            let resumed = curl_easy_pause(easy, radar_curl_pause_continue)
            // The piece given back may itself be refused (over the cap): then
            // the transfer ends here, and curl will not report it done.
            if resumed != CURLE_OK {
                cancel()
                return .failed(failure(resumed))
            }
            curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &running)
        }
        // Which of curl's sockets are ready, asked of the kernel without waiting.
        readiness.removeAll(keepingCapacity: true)
        for socket in watched {
            var events: Int16 = 0
            if socket.what & Int32(CURL_POLL_IN) != 0 { events |= Int16(POLLIN) }
            if socket.what & Int32(CURL_POLL_OUT) != 0 { events |= Int16(POLLOUT) }
            readiness.append(pollfd(fd: socket.fd, events: events, revents: 0))
        }
        if !readiness.isEmpty, poll(&readiness, nfds_t(readiness.count), 0) > 0 {
            for ready in readiness where ready.revents != 0 {
                var mask: Int32 = 0
                if ready.revents & Int16(POLLIN) != 0 { mask |= CURL_CSELECT_IN }
                if ready.revents & Int16(POLLOUT) != 0 { mask |= CURL_CSELECT_OUT }
                if ready.revents & Int16(POLLERR | POLLNVAL) != 0 || (ready.revents & Int16(POLLHUP) != 0 && mask == 0) {
                    mask |= CURL_CSELECT_ERR
                }
                curl_multi_socket_action(multi, ready.fd, mask, &running)
            }
        }
        if let deadline = timerDeadline, now >= deadline {
            timerDeadline = nil
            curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &running)
        }
        return finished()
    }

    private func finished() -> Outcome? {
        var left: Int32 = 0
        var result: CURLcode?
        while let message = curl_multi_info_read(multi, &left) {
            if message.pointee.msg == CURLMSG_DONE { result = message.pointee.data.result }
        }
        guard let result else { return nil }
        defer { cancel() }
        guard result == CURLE_OK else { return .failed(failure(result)) }
        var status = 0
        radar_curl_easy_get_long(easy, CURLINFO_RESPONSE_CODE, &status)
        var type: UnsafeMutablePointer<CChar>?
        radar_curl_easy_get_string(easy, CURLINFO_CONTENT_TYPE, &type)
        var retryAfter: curl_off_t = 0
        radar_curl_easy_get_offset(easy, CURLINFO_RETRY_AFTER, &retryAfter)
        let contentType = type.map { Self.mediaType(String(cString: $0)) }
        return .answered(Answer(status: status, contentType: contentType,
                                retryAfter: retryAfter > 0 ? Double(retryAfter) : nil, body: body))
    }

    /// A failure as one line that reads the same each time it happens (curl's
    /// own text says "after 5001 ms", which would make every retry news).
    private func failure(_ code: CURLcode) -> String {
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return "no answer within \(Int(timeout.rounded())) s"
        case CURLE_WRITE_ERROR where tooLarge, CURLE_FILESIZE_EXCEEDED:
            return "answer larger than \(maximumAnswer >> 20) MiB"
        case CURLE_COULDNT_CONNECT:
            var error = 0
            radar_curl_easy_get_long(easy, CURLINFO_OS_ERRNO, &error)
            return error != 0 ? SystemError.connectReason(Int32(error)) : "cannot connect"
        case CURLE_COULDNT_RESOLVE_HOST:
            return "cannot resolve the host name"
        case CURLE_TOO_MANY_REDIRECTS:
            return "more than 2 redirects"
        default:
            // curl's words for TLS failures say which check failed
            // ("SSL certificate problem: certificate has expired").
            let detail = String(cString: errorText)
            let words = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
            return ExternalText.oneLine(words, maximumBytes: 200)
        }
    }

    /// `application/json; charset=utf-8` as `application/json`.
    static func mediaType(_ header: String) -> String {
        let bare = header.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        return ExternalText.oneLine(bare.trimmingSpaces.lowercased(), maximumBytes: 100)
    }

    private func watch(_ fd: Int32, _ what: Int32) {
        watched.removeAll { $0.fd == fd }
        if what != CURL_POLL_REMOVE { watched.append((fd, what)) }
    }

    private func takeBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        if takenThisTurn >= readBudget {
            // curl keeps this piece and gives it again when unpaused next turn.
            paused = true
            return radar_curl_write_pause
        }
        if body.count + bytes.count > maximumAnswer {
            tooLarge = true
            return 0
        }
        body.append(contentsOf: bytes)
        takenThisTurn += bytes.count
        return bytes.count
    }

    private static let onSocket: curl_socket_callback = { _, fd, what, context, _ in
        Unmanaged<HTTPTransfer>.fromOpaque(context!).takeUnretainedValue().watch(fd, what)
        return 0
    }

    private static let onTimer: curl_multi_timer_callback = { _, milliseconds, context in
        let me = Unmanaged<HTTPTransfer>.fromOpaque(context!).takeUnretainedValue()
        me.timerDeadline = milliseconds < 0 ? nil : me.clockNow + Double(milliseconds) / 1000
        return 0
    }

    private static let onBody: curl_write_callback = { data, size, count, context in
        let me = Unmanaged<HTTPTransfer>.fromOpaque(context!).takeUnretainedValue()
        return me.takeBody(UnsafeRawBufferPointer(start: data, count: size * count))
    }
}

private extension String {
    var trimmingSpaces: Substring {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map { index(after: $0) } ?? start
        return self[start..<max(start, end)]
    }
}
