@testable import KioskApp
import MQTT
import XCTest

/// Another client on the broker rewrites the kiosk's Home Assistant discovery:
/// what was ours is put back, what was never ours is emptied, at a bounded rate.
final class DiscoveryGuardTests: XCTestCase {
    private let messages = HomeAssistantDiscovery.messages(prefix: "homeassistant", base: "radar-kiosk", deviceID: "hall",
                                                                   device: .init(name: "Hall kiosk"), version: "0.9.0")

    func testItCoversOnlyConfigurationsUnderTheKiosksOwnDevice() {
        let guarding = DiscoveryGuard(prefix: "homeassistant", deviceID: "hall", messages: messages)
        XCTAssertEqual(guarding.filter, "homeassistant/+/hall/+/config")
        XCTAssertTrue(guarding.covers("homeassistant/switch/hall/screen/config"))
        XCTAssertTrue(guarding.covers("homeassistant/button/hall/quit/config"))
        XCTAssertFalse(guarding.covers("homeassistant/switch/hallway/screen/config"))
        XCTAssertFalse(guarding.covers("homeassistant/switch/hall/screen/state"))
        XCTAssertFalse(guarding.covers("homeassistant/switch/hall/a/b/config"))
        XCTAssertFalse(guarding.covers("radar-kiosk/command"))
    }

    func testAChangedConfigurationIsPutBackAndAnExtraOneEmptied() throws {
        var guarding = DiscoveryGuard(prefix: "homeassistant", deviceID: "hall", messages: messages)
        let screen = try XCTUnwrap(messages.first { $0.topic.hasSuffix("/screen/config") })
        guarding.observe(screen)
        XCTAssertTrue(guarding.repairs(now: 0).messages.isEmpty, "our own message, echoed back, is left alone")
        XCTAssertNil(guarding.nextRepair)
        guarding.observe(MQTTMessage(topic: screen.topic, text: #"{"name":"Owned"}"#, retain: true))
        XCTAssertEqual(guarding.nextRepair, -.infinity, "due at once")
        let (put, line) = guarding.repairs(now: 1)
        XCTAssertEqual(put, [screen])
        XCTAssertTrue(line?.contains("homeassistant/switch/hall/screen/config") == true, line ?? "nothing said")
        guarding.observe(MQTTMessage(topic: screen.topic, payload: []))
        XCTAssertEqual(guarding.repairs(now: 2).messages, [screen], "an emptied configuration (the entity removed) is published again")
        let quit = "homeassistant/button/hall/quit/config"
        guarding.observe(MQTTMessage(topic: quit, text: #"{"command_topic":"radar-kiosk/command"}"#))
        let (removal, quiet) = guarding.repairs(now: 3)
        XCTAssertEqual(removal, [MQTTMessage(topic: quit, payload: [], retain: true)])
        XCTAssertNil(quiet, "one line a minute, not one a repair")
        guarding.observe(MQTTMessage(topic: quit, payload: []))
        XCTAssertTrue(guarding.repairs(now: 4).messages.isEmpty, "our own removal, echoed back, is left alone")
    }

    func testTwoClientsFightingCostABoundedNumberOfMessagesAndTheLastFakeIsStillPutRight() {
        var guarding = DiscoveryGuard(prefix: "homeassistant", deviceID: "hall", messages: messages)
        var sent = 0
        for step in 0..<1000 {
            guarding.observe(MQTTMessage(topic: messages[step % messages.count].topic, text: "{}", retain: true))
            sent += guarding.repairs(now: Double(step) / 1000).messages.count
        }
        XCTAssertEqual(sent, DiscoveryGuard.repairsPerWindow)
        XCTAssertEqual(guarding.nextRepair, DiscoveryGuard.window, "the rest wait for the next window")
        XCTAssertEqual(guarding.repairs(now: DiscoveryGuard.window).messages.count, messages.count, "every faked one put back then")
        XCTAssertNil(guarding.nextRepair)
    }

    func testAClientInventingTopicsFillsABoundedQueue() {
        var guarding = DiscoveryGuard(prefix: "homeassistant", deviceID: "hall", messages: messages)
        for n in 0..<10_000 {
            let topic = "homeassistant/button/hall/b\(n)/config"
            guarding.observe(MQTTMessage(topic: topic, text: "{}"))
            if n % 2 == 1 { guarding.observe(MQTTMessage(topic: "homeassistant/button/hall/b\(n - 1)/config", payload: [])) }
        }
        var drained = 0
        var now = 0.0
        while guarding.nextRepair != nil, now < 10_000 {
            drained += guarding.repairs(now: now).messages.count
            now += DiscoveryGuard.window
        }
        XCTAssertLessThanOrEqual(drained, DiscoveryGuard.maximumWaiting)
        XCTAssertGreaterThan(drained, 0)
    }
}
