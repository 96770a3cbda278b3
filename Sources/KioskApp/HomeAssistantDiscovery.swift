import JSON
import MQTT

/// Home Assistant's MQTT discovery for the kiosk: retained configuration
/// messages under `PREFIX/COMPONENT/DEVICE/OBJECT/config` that make the kiosk
/// one device with sensors (overhead, callsign, distance, altitude), a
/// switch for the screen and a number for its brightness.
enum HomeAssistantDiscovery {
    static func messages(prefix: String, base: String, deviceID: String) -> [MQTTMessage] {
        let device: JSONValue = .object(["identifiers": .array([.string(deviceID)]), "name": .string("Radar kiosk"),
                                         "manufacturer": .string("RadarKiosk"), "model": .string("radar-kiosk")])
        func entity(_ component: String, _ object: String, _ fields: [String: JSONValue]) -> MQTTMessage {
            var config = fields
            config["unique_id"] = .string("\(deviceID)_\(object)")
            config["object_id"] = .string("\(deviceID)_\(object)")
            config["availability_topic"] = .string(base + "/status")
            config["device"] = device
            return MQTTMessage(topic: "\(prefix)/\(component)/\(deviceID)/\(object)/config", text: JSONValue.object(config).serialized, retain: true)
        }
        func aircraftSensor(_ object: String, _ name: String, _ field: String, unit: String? = nil) -> MQTTMessage {
            var fields: [String: JSONValue] = [
                "name": .string(name), "state_topic": .string(base + "/state"),
                "value_template": .string("{{ value_json.aircraft.\(field) if value_json.mode == 'overflight' and value_json.aircraft is defined and value_json.aircraft.\(field) is defined else none }}"),
            ]
            if let unit { fields["unit_of_measurement"] = .string(unit) }
            return entity("sensor", object, fields)
        }
        return [
            entity("binary_sensor", "overhead", ["name": .string("Aircraft overhead"), "state_topic": .string(base + "/overhead"),
                                                 "payload_on": .string("ON"), "payload_off": .string("OFF"), "icon": .string("mdi:airplane")]),
            aircraftSensor("callsign", "Callsign", "callsign"),
            aircraftSensor("type", "Aircraft type", "type"),
            aircraftSensor("route", "Route", "route"),
            aircraftSensor("distance", "Distance", "distance_nm", unit: "nmi"),
            aircraftSensor("altitude", "Altitude", "altitude_ft", unit: "ft"),
            entity("switch", "screen", ["name": .string("Screen"), "state_topic": .string(base + "/screen"),
                                        "command_topic": .string(base + "/screen/set"), "payload_on": .string("ON"),
                                        "payload_off": .string("OFF"), "icon": .string("mdi:monitor")]),
            entity("number", "brightness", ["name": .string("Screen brightness"), "state_topic": .string(base + "/brightness"),
                                            "command_topic": .string(base + "/brightness/set"), "min": .number(1), "max": .number(100),
                                            "unit_of_measurement": .string("%"), "icon": .string("mdi:brightness-6")]),
        ]
    }
}
