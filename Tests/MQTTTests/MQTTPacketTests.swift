import Testing
@testable import MQTT

/// The packets as the MQTT 3.1.1 standard lays them out, byte for byte,
/// and what the decoder refuses from a broker.
@Suite struct MQTTPacketTests {
    @Test func connectIsLaidOutAsTheStandardSays() {
        let bytes = MQTTPacket.connect(.init(clientID: "kiosk", keepAliveSeconds: 30)).encoded()
        // Fixed header, remaining length 17; "MQTT", level 4, clean session, keep-alive 30 s, the client id.
        #expect(bytes == [0x10, 17, 0, 4, 0x4D, 0x51, 0x54, 0x54, 4, 0x02, 0, 30, 0, 5, 0x6B, 0x69, 0x6F, 0x73, 0x6B])
        let full = MQTTPacket.connect(.init(clientID: "k", username: "u", password: "p",
                                            will: MQTTMessage(topic: "t", text: "offline", retain: true), keepAliveSeconds: 60)).encoded()
        // Flags: user name, password, will retain, will (QoS 0), clean session.
        #expect(full[9] == 0x80 | 0x40 | 0x20 | 0x04 | 0x02)
        #expect(Array(full.suffix(3 + 9 + 3 + 3)) == [0, 1, 0x74, 0, 7] + Array("offline".utf8) + [0, 1, 0x75, 0, 1, 0x70])
    }

    @Test func remainingLengthsUseTheStandardsVariableLength() {
        // Section 2.2.3's table: the boundaries of one to three bytes.
        for (length, encoded) in [(0, [0x00]), (127, [0x7F]), (128, [0x80, 0x01]), (16_383, [0xFF, 0x7F]),
                                  (16_384, [0x80, 0x80, 0x01]), (2_097_151, [0xFF, 0xFF, 0x7F])] as [(Int, [UInt8])] {
            let topic = "t"
            let payload = [UInt8](repeating: 0x41, count: max(length - 3, 0))
            guard length >= 3 else { continue }
            let bytes = MQTTPacket.publish(MQTTMessage(topic: topic, payload: payload), packetID: nil).encoded()
            #expect(Array(bytes[1...encoded.count]) == encoded, "length \(length)")
            let decoded = try? MQTTPacket.decode(bytes, maximumSize: 4 << 20)
            #expect(decoded?.length == bytes.count && decoded?.packet == .publish(MQTTMessage(topic: topic, payload: payload), packetID: nil))
        }
        #expect(MQTTPacket.pingRequest.encoded() == [0xC0, 0x00])
        #expect(MQTTPacket.disconnect.encoded() == [0xE0, 0x00])
        #expect(MQTTPacket.subscribe(packetID: 1, topics: ["a/#"]).encoded() == [0x82, 8, 0, 1, 0, 3, 0x61, 0x2F, 0x23, 0])
    }

    @Test func packetsFromTheBrokerAreDecoded() throws {
        #expect(try MQTTPacket.decode([0x20, 2, 0, 0], maximumSize: 100)?.packet == .connectAcknowledged(sessionPresent: false, returnCode: 0))
        #expect(try MQTTPacket.decode([0x20, 2, 1, 5], maximumSize: 100)?.packet == .connectAcknowledged(sessionPresent: true, returnCode: 5))
        #expect(try MQTTPacket.decode([0xD0, 0], maximumSize: 100)?.packet == .pingResponse)
        #expect(try MQTTPacket.decode([0x90, 3, 0, 1, 0], maximumSize: 100)?.packet == .subscribeAcknowledged(packetID: 1, returnCodes: [0]))
        // A retained QoS 1 PUBLISH: topic "a/b", packet id 7, payload "ON".
        let publish: [UInt8] = [0x33, 9, 0, 3, 0x61, 0x2F, 0x62, 0, 7, 0x4F, 0x4E]
        #expect(try MQTTPacket.decode(publish, maximumSize: 100)?.packet
                == .publish(MQTTMessage(topic: "a/b", text: "ON", retain: true), packetID: 7))
        // Two packets in one read: the second starts where the first ended.
        let two = [0xD0, 0] + publish
        let first = try #require(try MQTTPacket.decode(two, maximumSize: 100))
        #expect(first.packet == .pingResponse && first.length == 2)
        #expect(try MQTTPacket.decode(two, from: first.length, maximumSize: 100)?.length == publish.count)
        // Incomplete: not yet a packet, not an error.
        for cut in 0..<publish.count { #expect(try MQTTPacket.decode(Array(publish.prefix(cut)), maximumSize: 100) == nil) }
    }

    /// A PUBLISH over the limit is told apart from malformed bytes: its
    /// whole length, header included, so that it can be passed over.
    @Test func anOversizedMessageCanBePassedOver() {
        let header: [UInt8] = [0x31, 0x80, 0x80, 0x04]  // PUBLISH, retained, 65,536 bytes
        #expect(throws: MQTTPacket.OversizedMessage(total: 4 + 65_536, bodyLength: 65_536)) {
            try MQTTPacket.decode(header, maximumSize: 65_535)
        }
        // Any other kind that long is malformed: the connection goes.
        #expect(throws: MQTTPacket.Malformed.self) { try MQTTPacket.decode([0x90, 0x80, 0x80, 0x04], maximumSize: 65_535) }
    }

    @Test func malformedPacketsAreRefused() {
        // Each refused for its own reason, said in its message.
        let bad: [(String, [UInt8])] = [
            ("longer than four bytes", [0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
            ("at most 100", [0x90, 0x80, 0x01] + [UInt8](repeating: 0, count: 128)),
            ("runs past its end", [0x30, 4, 0, 9, 0x61, 0x62]),
            ("QoS 3", [0x36, 3, 0, 1, 0x61]),
            ("not UTF-8", [0x30, 4, 0, 2, 0xC3, 0x28]),
            ("type 1", [0x10, 0]),
            ("CONNACK of 3 bytes", [0x20, 3, 0, 0, 0]),
        ]
        for (reason, bytes) in bad {
            do {
                _ = try MQTTPacket.decode(bytes, maximumSize: 100)
                Issue.record("accepted, expected refused: \(reason)")
            } catch {
                #expect("\(error)".contains(reason), "\(error)")
            }
        }
    }
}

/// Each refusal a broker may answer CONNECT with is said as what it means.
@Suite struct MQTTRefusalTests {
    @Test func everyReturnCodeIsNamed() {
        let said = (1...6).map { MQTTClient.refusal(UInt8($0)) }
        #expect(said == ["the broker refused the connection: protocol 3.1.1 not accepted", "the broker refused the client id",
                         "the broker is unavailable", "the broker refused the user name or password",
                         "the broker refused the connection: not authorised", "the broker refused the connection (code 6)"])
    }
}
