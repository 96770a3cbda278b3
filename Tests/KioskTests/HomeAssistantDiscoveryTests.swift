@testable import KioskApp
import JSON
import MQTT
import XCTest

/// What Home Assistant is told about the kiosk: entities it can convert,
/// graph and automate on, a device it can tell from another kiosk, and
/// availability that says when a value is not known.
final class HomeAssistantDiscoveryTests: XCTestCase {
    private func configs(device: HomeAssistantDiscovery.Device = .init(name: "Hall kiosk", hardware: "Raspberry Pi 4 Model B Rev 1.4", area: "Hall"),
                         deviceID: String = "hall") throws -> [String: [String: JSONValue]] {
        var out: [String: [String: JSONValue]] = [:]
        for message in HomeAssistantDiscovery.messages(prefix: "homeassistant", base: "radar/hall", deviceID: deviceID, device: device, version: "0.9.0") {
            let parts = message.topic.split(separator: "/")
            XCTAssertEqual(parts.count, 5, message.topic)
            XCTAssertTrue(message.retain)
            out["\(parts[1]).\(parts[3])"] = try XCTUnwrap(JSONParser.parse(String(decoding: message.payload, as: UTF8.self)).objectValue)
        }
        return out
    }

    func testTheDeviceNamesItsVersionBoardAndArea() throws {
        let all = try configs()
        let device = try XCTUnwrap(all["switch.screen"]?["device"]?.objectValue)
        XCTAssertEqual(device["name"]?.stringValue, "Hall kiosk")
        XCTAssertEqual(device["sw_version"]?.stringValue, "0.9.0")
        XCTAssertEqual(device["hw_version"]?.stringValue, "Raspberry Pi 4 Model B Rev 1.4")
        XCTAssertEqual(device["suggested_area"]?.stringValue, "Hall")
        XCTAssertEqual(device["identifiers"], .array([.string("hall")]))
        XCTAssertNil(device["configuration_url"], "the kiosk has no web page to link to")
        let bare = try XCTUnwrap(configs(device: .init(name: "Radar kiosk"))["switch.screen"]?["device"]?.objectValue)
        XCTAssertNil(bare["hw_version"])
        XCTAssertNil(bare["suggested_area"])
    }

    func testEveryEntityHasItsIdsAndTheEntityIdItIsDocumentedUnder() throws {
        for (key, config) in try configs() {
            let object = String(key.split(separator: ".")[1])
            XCTAssertEqual(config["unique_id"]?.stringValue, "hall_\(object)", key)
            XCTAssertEqual(config["object_id"]?.stringValue, "hall_\(object)", key)
            XCTAssertEqual(config["default_entity_id"]?.stringValue, "\(key.split(separator: ".")[0]).hall_\(object)", key)
            XCTAssertNotNil(config["origin"]?.objectValue?["name"], key)
        }
        let dashed = try configs(deviceID: "radar-kiosk.2")
        XCTAssertEqual(dashed["sensor.callsign"]?["default_entity_id"]?.stringValue, "sensor.radar_kiosk_2_callsign")
    }

    func testMeasurementsCarryDeviceAndStateClasses() throws {
        let all = try configs()
        for (key, deviceClass, unit) in [("sensor.distance", "distance", "nmi"), ("sensor.altitude", "distance", "ft"), ("sensor.speed", "speed", "kn")] {
            XCTAssertEqual(all[key]?["device_class"]?.stringValue, deviceClass, key)
            XCTAssertEqual(all[key]?["unit_of_measurement"]?.stringValue, unit, key)
            XCTAssertEqual(all[key]?["state_class"]?.stringValue, "measurement", key)
        }
        XCTAssertNil(all["sensor.callsign"]?["state_class"], "text is no measurement")
    }

    func testAvailabilityFollowsTheAircraftAndTheFeed() throws {
        let all = try configs()
        func topics(_ key: String) -> [String] {
            all[key]?["availability"]?.arrayValue?.compactMap { $0.objectValue?["topic"]?.stringValue } ?? []
        }
        for key in ["sensor.callsign", "sensor.type", "sensor.route", "sensor.distance", "sensor.altitude", "sensor.speed"] {
            XCTAssertEqual(topics(key), ["radar/hall/status", "radar/hall/aircraft/availability"], key)
            XCTAssertEqual(all[key]?["availability_mode"]?.stringValue, "all", key)
        }
        for key in ["binary_sensor.overhead", "binary_sensor.alert"] {
            XCTAssertEqual(topics(key), ["radar/hall/status", "radar/hall/feed/availability"], key)
        }
        XCTAssertEqual(all["switch.screen"]?["availability_topic"]?.stringValue, "radar/hall/status")
    }

    func testTheScreenHasAModeAWakeAndTheOverflightsTheirEvents() throws {
        let all = try configs()
        XCTAssertEqual(all["select.screen_mode"]?["options"], .array([.string("auto"), .string("on"), .string("off")]))
        XCTAssertEqual(all["select.screen_mode"]?["command_topic"]?.stringValue, "radar/hall/screen/set")
        XCTAssertEqual(all["button.wake"]?["payload_press"]?.stringValue, #"{"cmd":"wake"}"#)
        XCTAssertEqual(all["event.overflight"]?["event_types"], .array([.string("overflight_start"), .string("overflight_end")]))
        XCTAssertEqual(all["binary_sensor.overhead"]?["json_attributes_topic"]?.stringValue, "radar/hall/state")
        XCTAssertEqual(all["binary_sensor.overhead"]?["device_class"]?.stringValue, "occupancy")
        XCTAssertEqual(all["sensor.overflights_today"]?["state_class"]?.stringValue, "total_increasing")
        XCTAssertEqual(Set(all.keys).count, 15)
    }

    func testEntitySlugsAreWhatHomeAssistantWrites() {
        XCTAssertEqual(HomeAssistantDiscovery.entitySlug("Radar-Kiosk.2_callsign"), "radar_kiosk_2_callsign")
        XCTAssertEqual(HomeAssistantDiscovery.entitySlug("--x--"), "x")
        XCTAssertEqual(HomeAssistantDiscovery.entitySlug("..."), "radar_kiosk")
    }
}
