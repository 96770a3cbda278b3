/// The MQTT 3.1.1 control packets a client sends and receives (OASIS
/// standard, section 3), as values: `encoded()` gives the bytes to send,
/// `MQTTPacket.decode` takes one packet off the front of a buffer, refusing
/// any that is malformed or larger than the client allows.
public enum MQTTPacket: Equatable, Sendable {
    case connect(Connect)
    case connectAcknowledged(sessionPresent: Bool, returnCode: UInt8)
    case publish(MQTTMessage, packetID: UInt16?)
    case publishAcknowledged(packetID: UInt16)
    case subscribe(packetID: UInt16, topics: [String])
    case subscribeAcknowledged(packetID: UInt16, returnCodes: [UInt8])
    case pingRequest
    case pingResponse
    case disconnect

    /// What CONNECT carries.
    public struct Connect: Equatable, Sendable {
        public var clientID: String
        public var username: String?
        public var password: String?
        /// Published by the broker for us if we vanish without DISCONNECT.
        public var will: MQTTMessage?
        public var keepAliveSeconds: UInt16
        public init(clientID: String, username: String? = nil, password: String? = nil, will: MQTTMessage? = nil, keepAliveSeconds: UInt16 = 30) {
            self.clientID = clientID
            self.username = username
            self.password = password
            self.will = will
            self.keepAliveSeconds = keepAliveSeconds
        }
    }

    /// What is wrong with bytes from the broker, in one line.
    public struct Malformed: Error, Equatable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// A PUBLISH longer than the client takes: its `total` bytes (header
    /// and body) can be passed over as they come, and the connection kept
    /// (one oversized retained message would otherwise lock the client off
    /// its broker, meeting it again at every reconnect).
    public struct OversizedMessage: Error, Equatable, CustomStringConvertible {
        public let total: Int
        public let bodyLength: Int
        public var description: String { "a message of \(bodyLength) bytes" }
    }

    // MARK: encoding

    public func encoded() -> [UInt8] {
        var body: [UInt8] = []
        let header: UInt8
        switch self {
        case let .connect(c):
            header = 0x10
            Self.append(string: "MQTT", to: &body)
            body.append(4)   // protocol level 3.1.1
            var flags: UInt8 = 0x02   // clean session: nothing kept for us between connections
            if let will = c.will { flags |= 0x04 | (will.retain ? 0x20 : 0) }
            if c.username != nil { flags |= 0x80 }
            if c.password != nil { flags |= 0x40 }
            body.append(flags)
            body += [UInt8(c.keepAliveSeconds >> 8), UInt8(c.keepAliveSeconds & 0xFF)]
            Self.append(string: c.clientID, to: &body)
            if let will = c.will {
                Self.append(string: will.topic, to: &body)
                Self.append(bytes: will.payload, to: &body)
            }
            if let username = c.username { Self.append(string: username, to: &body) }
            if let password = c.password { Self.append(string: password, to: &body) }
        case let .connectAcknowledged(present, code):
            header = 0x20
            body = [present ? 1 : 0, code]
        case let .publish(message, packetID):
            header = 0x30 | (packetID == nil ? 0 : 0x02) | (message.retain ? 0x01 : 0)
            Self.append(string: message.topic, to: &body)
            if let packetID { body += [UInt8(packetID >> 8), UInt8(packetID & 0xFF)] }
            body += message.payload
        case let .publishAcknowledged(packetID):
            header = 0x40
            body = [UInt8(packetID >> 8), UInt8(packetID & 0xFF)]
        case let .subscribe(packetID, topics):
            header = 0x82
            body = [UInt8(packetID >> 8), UInt8(packetID & 0xFF)]
            for topic in topics {
                Self.append(string: topic, to: &body)
                body.append(0)   // QoS 0
            }
        case let .subscribeAcknowledged(packetID, codes):
            header = 0x90
            body = [UInt8(packetID >> 8), UInt8(packetID & 0xFF)] + codes
        case .pingRequest: header = 0xC0
        case .pingResponse: header = 0xD0
        case .disconnect: header = 0xE0
        }
        var packet: [UInt8] = [header]
        var length = body.count
        repeat {
            var byte = UInt8(length % 128)
            length /= 128
            if length > 0 { byte |= 0x80 }
            packet.append(byte)
        } while length > 0
        return packet + body
    }

    private static func append(string: String, to body: inout [UInt8]) { append(bytes: Array(string.utf8), to: &body) }

    private static func append(bytes: [UInt8], to body: inout [UInt8]) {
        let n = min(bytes.count, 0xFFFF)
        body += [UInt8(n >> 8), UInt8(n & 0xFF)]
        body += bytes.prefix(n)
    }

    // MARK: decoding

    /// The first packet in `buffer[start...]` and the bytes it took, or nil
    /// while it is incomplete. Throws for a packet that is malformed, of a
    /// kind a client never receives, or longer than `maximumSize`
    /// (`OversizedMessage` for a PUBLISH, which may be passed over).
    public static func decode(_ buffer: [UInt8], from start: Int = 0, maximumSize: Int) throws -> (packet: MQTTPacket, length: Int)? {
        guard buffer.count - start >= 2 else { return nil }
        var length = 0, multiplier = 1, index = start + 1
        while true {
            guard index < buffer.count else { return nil }
            let byte = buffer[index]
            length += Int(byte & 0x7F) * multiplier
            index += 1
            if byte & 0x80 == 0 { break }
            multiplier *= 128
            guard multiplier <= 128 * 128 * 128 else { throw Malformed("a remaining length longer than four bytes") }
        }
        guard length <= maximumSize else {
            if buffer[start] >> 4 == 3 { throw OversizedMessage(total: index - start + length, bodyLength: length) }
            throw Malformed("a packet of \(length) bytes (at most \(maximumSize))")
        }
        guard buffer.count - index >= length else { return nil }
        let body = buffer[index..<(index + length)]
        let header = buffer[start]
        let total = index + length - start
        func id(_ at: Int) -> UInt16 { UInt16(body[body.startIndex + at]) << 8 | UInt16(body[body.startIndex + at + 1]) }
        switch header >> 4 {
        case 2:
            guard length == 2 else { throw Malformed("CONNACK of \(length) bytes") }
            return (.connectAcknowledged(sessionPresent: body[body.startIndex] & 1 != 0, returnCode: body[body.startIndex + 1]), total)
        case 3:
            let qos = (header >> 1) & 0x03
            guard qos < 3, length >= 2 else { throw Malformed("PUBLISH with QoS 3 or no topic") }
            let topicLength = Int(id(0))
            var offset = 2 + topicLength
            guard offset <= length else { throw Malformed("PUBLISH whose topic runs past its end") }
            let topicBytes = body[(body.startIndex + 2)..<(body.startIndex + offset)]
            guard let topic = String(validating: topicBytes, as: UTF8.self) else { throw Malformed("PUBLISH topic is not UTF-8") }
            var packetID: UInt16?
            if qos > 0 {
                guard offset + 2 <= length else { throw Malformed("PUBLISH without its packet id") }
                packetID = id(offset)
                offset += 2
            }
            let message = MQTTMessage(topic: topic, payload: Array(body[(body.startIndex + offset)...]), retain: header & 1 != 0)
            return (.publish(message, packetID: packetID), total)
        case 4:
            guard length == 2 else { throw Malformed("PUBACK of \(length) bytes") }
            return (.publishAcknowledged(packetID: id(0)), total)
        case 9:
            guard length >= 2 else { throw Malformed("SUBACK of \(length) bytes") }
            return (.subscribeAcknowledged(packetID: id(0), returnCodes: Array(body.dropFirst(2))), total)
        case 13:
            return (.pingResponse, total)
        default:
            throw Malformed("a packet of type \(header >> 4), which a broker does not send a client")
        }
    }
}

/// A message on a topic.
public struct MQTTMessage: Equatable, Sendable {
    public var topic: String
    public var payload: [UInt8]
    /// Kept by the broker as the topic's last value, for whoever subscribes later.
    public var retain: Bool

    public init(topic: String, payload: [UInt8], retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
    }

    public init(topic: String, text: String, retain: Bool = false) {
        self.init(topic: topic, payload: Array(text.utf8), retain: retain)
    }
}
