#if canImport(Glibc)
import Glibc
#endif
import SystemIO
import TLS

/// An MQTT 3.1.1 client that never blocks the loop: the broker's name is
/// looked up off the loop and connected to without blocking (TCPConnection),
/// what it sends is read within a byte budget and a message budget per loop
/// turn (and not at all while a turn's bytes wait to be taken, so that a
/// flooding broker is held back by TCP, not by our memory), what we send waits in a bounded queue (a slow broker loses
/// messages, never memory), and a broker that goes away or stops answering
/// is reconnected to with backoff (1 s doubling to a minute). QoS 0 both
/// ways; the state is published retained, so a reconnect restores it. With
/// `tls`, the connection is TLS (OpenSSL), the broker's certificate and name
/// checked, its handshake driven by the loop like the rest.
public final class MQTTClient {
    public struct Options: Sendable {
        public var host: String
        public var port: UInt16
        public var connect: MQTTPacket.Connect
        /// Topics to subscribe to on each connection.
        public var subscriptions: [String]
        /// TLS to the broker (whom it trusts, and the client's own
        /// certificate if the broker asks for one); nil for plain TCP.
        public var tls: TLSOptions?
        public init(host: String, port: UInt16 = 1883, connect: MQTTPacket.Connect, subscriptions: [String] = [], tls: TLSOptions? = nil) {
            self.host = host
            self.port = port
            self.connect = connect
            self.subscriptions = subscriptions
            self.tls = tls
        }
    }

    /// A TLS connection's settings: the authorities it trusts (a file, or
    /// the system's), and the client's certificate and key (PEM) for a
    /// broker that asks for one.
    public struct TLSOptions: Equatable, Sendable {
        public var caFile: String?
        public var certificateFile: String?
        public var keyFile: String?
        public init(caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil) {
            self.caFile = caFile
            self.certificateFile = certificateFile
            self.keyFile = keyFile
        }
    }

    /// What happened, for the owner to act on.
    public enum Event: Equatable, Sendable {
        /// Connected and subscribed: publish the retained state now.
        case connected
        /// The connection failed or ended; it is retried. One line, said once per cause.
        case failed(String)
        case message(MQTTMessage)
        /// A message too long to take is being passed over (said once a connection).
        case skipped(String)
    }

    public let options: Options
    /// Bytes read per loop turn at most.
    public var readBudget = 32 << 10
    /// Messages handed out per loop turn at most; the rest wait in the buffer.
    public var messagesPerTurn = 16
    /// Packets of any kind taken per loop turn at most.
    public var packetsPerTurn = 256
    /// The largest packet taken from the broker; a longer PUBLISH is passed over.
    public var maximumPacket = 64 << 10
    /// Bytes read and dropped per loop turn at most while passing over a message.
    public var skipBudget = 1 << 20
    /// Bytes waiting to be sent at most: beyond it new messages are dropped.
    public var maximumQueued = 256 << 10
    /// How long the broker has to answer CONNECT, or a PINGREQ.
    public var answerTimeout = 10.0

    private let connector: TCPConnection
    private var socket: BrokerLink?
    private var connecting = false
    /// TLS's handshake is under way (before MQTT's CONNECT).
    private var securing = false
    private var handshaking = false
    private var connected = false
    private var retry = Backoff(first: 1, longest: 60)
    private var input: [UInt8] = []
    private var inputStart = 0
    private var output: [UInt8] = []
    /// Where each read lands before it joins `input`: one buffer for every turn.
    private var chunk = [UInt8](repeating: 0, count: 4096)
    private var lastSent = 0.0
    private var lastHeard = 0.0
    private var pingSentAt: Double?
    private var handshakeStarted = 0.0
    private var failures = FailureReport()
    /// Bytes of an oversized message still to pass over.
    private var skipping = 0
    /// Whether this connection has said it passes a message over.
    private var saidSkipping = false
    private var lastServiced = 0.0
    /// When the broker last accepted the connection.
    private var connectedAt = 0.0
    /// A connection that lasted this long resets the backoff when it ends.
    static let lastingConnection = 60.0
    /// Messages dropped because the queue was full, since the last report.
    public private(set) var dropped = 0

    public init(_ options: Options) {
        self.options = options
        connector = TCPConnection(host: options.host, port: options.port)
        input.reserveCapacity(readBudget)
    }

    public var isConnected: Bool { connected }

    public func forEachDescriptor(_ body: (Int32) -> Void) {
        // With a turn's worth of bytes waiting to be taken, the socket is left
        // unread (TCP holds the broker back) and not polled (it would wake the
        // loop at once, every turn); `nextWake` comes back for the rest.
        if let socket { if !inputIsFull { body(socket.descriptor.rawValue) } } else if connecting, let fd = connector.descriptor { body(fd) }
    }

    /// Whether more bytes wait to be taken than a turn reads and the largest
    /// packet together (so that the largest packet can always be read whole).
    private var inputIsFull: Bool { input.count - inputStart >= readBudget + maximumPacket }

    /// The connect in progress (a broker says nothing until it has CONNECT),
    /// or a TLS session waiting for room to write.
    public func forEachWritableDescriptor(_ body: (Int32) -> Void) {
        if let socket, socket.wantsWrite { body(socket.descriptor.rawValue) }
        if socket == nil, connecting, let fd = connector.writableDescriptor { body(fd) }
    }

    public var nextWake: Double? {
        if socket != nil {
            // Unsent bytes, or messages left in the buffer: soon. Else the keep-alive.
            if !output.isEmpty || input.count > inputStart || skipping > 0 || socket?.holdsDecrypted == true { return lastServiced + 0.02 }
            if handshaking || securing { return handshakeStarted + answerTimeout }
            return min(lastSent + Double(options.connect.keepAliveSeconds) / 2, pingSentAt.map { $0 + answerTimeout } ?? .infinity)
        }
        return connecting ? connector.nextWake : retry.due
    }

    /// Queues a message; false when it was dropped (not connected, or the queue is full).
    @discardableResult
    public func publish(_ message: MQTTMessage) -> Bool { send(.publish(message, packetID: nil)) }

    private func send(_ packet: MQTTPacket) -> Bool {
        guard socket != nil else { return false }
        let bytes = packet.encoded()
        guard output.count + bytes.count <= maximumQueued else {
            dropped += 1
            return false
        }
        output += bytes
        return true
    }

    /// Moves the connection on and reads what came, within this turn's budgets.
    public func service(now: Double) -> [Event] {
        lastServiced = now
        var events: [Event] = []
        if socket == nil {
            guard connecting || retry.isDue(at: now) else { return [] }
            let progress = connector.attempt(at: now, continuing: connecting)
            connecting = true
            switch progress {
            case .waiting: return []
            case let .failed(message): return fail(now, message)
            case let .connected(fd):
                connecting = false
                handshakeStarted = now
                (input, inputStart, output, pingSentAt) = ([], 0, [], nil)
                (skipping, saidSkipping) = (0, false)
                lastHeard = now
                if let tls = options.tls {
                    do {
                        socket = .tls(try TLSSession(socket: fd, host: options.host, caFile: tls.caFile,
                                                     certificateFile: tls.certificateFile, keyFile: tls.keyFile))
                    } catch {
                        return fail(now, "\(error)")
                    }
                    securing = true
                } else {
                    socket = .plain(fd)
                    handshaking = true
                    _ = send(.connect(options.connect))
                }
            }
        }
        guard let socket else { return events }
        if securing, case let .tls(session) = socket {
            switch session.handshake() {
            case .done:
                securing = false
                handshaking = true
                _ = send(.connect(options.connect))
            case .wantsRead, .wantsWrite:
                if now - handshakeStarted > answerTimeout { return fail(now, "no TLS handshake in \(Int(answerTimeout)) s") }
                return events
            case let .failed(message):
                return fail(now, message)
            }
        }
        // Read what is there, within the budget (a larger one while only passing bytes over).
        var room = inputIsFull ? 0 : skipping > 0 ? skipBudget : readBudget
        while room > 0 {
            let transfer = chunk.withUnsafeMutableBytes { socket.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<min(4096, room)])) }
            switch transfer {
            case let .bytes(n):
                // Bytes of a message passed over never join the input.
                let dropped = min(skipping, n)
                skipping -= dropped
                if dropped < n { input += chunk[dropped..<n] }
                room -= n
                lastHeard = now
                // A short read emptied the socket; TLS may hold more of a record than it gave.
                if n < min(4096, room + n) && !socket.holdsDecrypted { room = 0 }
            case .wouldBlock: room = 0
            case .end: return events + fail(now, "the broker closed the connection")
            case let .failed(reason): return events + fail(now, reason)
            }
        }
        // Take the packets that are whole, at most `messagesPerTurn` messages
        // and `packetsPerTurn` packets of any kind (a flood of PINGRESPs too).
        var taken = 0, packets = 0
        while taken < messagesPerTurn && packets < packetsPerTurn {
            packets += 1
            let decoded: (packet: MQTTPacket, length: Int)?
            do { decoded = try MQTTPacket.decode(input, from: inputStart, maximumSize: maximumPacket) } catch let oversized as MQTTPacket.OversizedMessage {
                // What of it is here goes now, the rest as it comes.
                let here = min(oversized.total, input.count - inputStart)
                inputStart += here
                skipping = oversized.total - here
                if !saidSkipping {
                    saidSkipping = true
                    events.append(.skipped("mqtt \(options.host):\(options.port): passing over \(oversized) (at most \(maximumPacket))"))
                }
                continue
            } catch {
                return events + fail(now, "the broker sent \(error)")
            }
            guard let (packet, length) = decoded else { break }
            inputStart += length
            switch packet {
            case let .connectAcknowledged(_, code):
                guard code == 0 else { return events + fail(now, Self.refusal(code)) }
                handshaking = false
                connected = true
                connectedAt = now
                failures.clear()
                if !options.subscriptions.isEmpty { _ = send(.subscribe(packetID: 1, topics: options.subscriptions)) }
                events.append(.connected)
            case let .publish(message, packetID):
                if let packetID { _ = send(.publishAcknowledged(packetID: packetID)) }
                events.append(.message(message))
                taken += 1
            case .pingResponse: pingSentAt = nil
            default: break
            }
        }
        if inputStart > 0 && (inputStart == input.count || inputStart > 16 << 10) {
            input.removeFirst(inputStart)
            inputStart = 0
        }
        if handshaking && now - handshakeStarted > answerTimeout { return events + fail(now, "no answer to CONNECT in \(Int(answerTimeout)) s") }
        if let sent = pingSentAt, now - sent > answerTimeout { return events + fail(now, "no answer to a ping in \(Int(answerTimeout)) s") }
        if connected && pingSentAt == nil && now - lastSent >= Double(options.connect.keepAliveSeconds) / 2 {
            if send(.pingRequest) { pingSentAt = now }
        }
        // Send what waits, as much as the socket takes now.
        if !output.isEmpty {
            let transfer = output.withUnsafeBytes { socket.write($0) }
            switch transfer {
            case let .bytes(n):
                output.removeFirst(n)
                lastSent = now
            case .wouldBlock, .end: break
            case let .failed(reason): return events + fail(now, reason)
            }
        }
        return events
    }

    /// Says goodbye (the broker then does not publish our will) and closes.
    public func disconnect() {
        guard let socket, connected else { return }
        let bytes = MQTTPacket.disconnect.encoded()
        output += bytes
        _ = output.withUnsafeBytes { socket.write($0) }
        socket.close()
        self.socket = nil
        connected = false
    }

    private func fail(_ now: Double, _ message: String) -> [Event] {
        // A connection that lasted is a success: the backoff starts over. One
        // that ends within a minute (another client taking our client id, a
        // broker that drops us at once) keeps doubling it, so two clients
        // with one id do not throw each other off every second for ever.
        if connected && now - connectedAt >= Self.lastingConnection { retry.succeeded() }
        socket = nil
        connecting = false
        securing = false
        handshaking = false
        connected = false
        retry.failed(at: now)
        let line = "mqtt \(options.host):\(options.port): \(message)"
        return failures.isNew(line) ? [.failed(line)] : []
    }

    static func refusal(_ code: UInt8) -> String {
        switch code {
        case 1: return "the broker refused the connection: protocol 3.1.1 not accepted"
        case 2: return "the broker refused the client id"
        case 3: return "the broker is unavailable"
        case 4: return "the broker refused the user name or password"
        case 5: return "the broker refused the connection: not authorised"
        default: return "the broker refused the connection (code \(code))"
        }
    }
}
