import JSON
import MQTT

/// Home Assistant's MQTT discovery for the kiosk: retained configuration
/// messages under `PREFIX/COMPONENT/DEVICE/OBJECT/config` that make the kiosk
/// one device, named for its room or host, with what a Home Assistant user
/// looks for: whether an aircraft is overhead (its details as attributes),
/// an alert, the aircraft's sensors with device and state classes (so Home
/// Assistant converts units and keeps statistics), an overflight event
/// entity for automations, today's count and the last overflight, the
/// screen's switch, mode (auto, on, off) and brightness, and a wake button.
///
/// Availability says what is known: the aircraft's sensors are available
/// only while an aircraft is shown (never the text "None" between aircraft),
/// and the overhead and alert sensors only while the feed is live (a
/// receiver that is down is "unavailable", not "nothing overhead").
enum HomeAssistantDiscovery {
    /// The device as Home Assistant lists it.
    struct Device: Equatable {
        /// The device's name, and so the start of each entity's friendly name.
        var name: String
        /// The board ("Raspberry Pi 4 Model B Rev 1.4"), if the kernel says.
        var hardware: String?
        /// The area Home Assistant suggests putting it in.
        var area: String?
    }

    /// The topics under the kiosk's base topic that discovery refers to.
    enum Topic {
        static let status = "status"
        static let state = "state"
        static let overhead = "overhead"
        static let event = "event"
        static let command = "command"
        static let screen = "screen"
        static let screenMode = "screen/mode"
        static let screenSet = "screen/set"
        static let brightness = "brightness"
        static let brightnessSet = "brightness/set"
        /// `online` while an aircraft is shown, else `offline`.
        static let aircraftAvailability = "aircraft/availability"
        /// `online` while the feed is live (or the kiosk has none), else `offline`.
        static let feedAvailability = "feed/availability"
        static let overflightsToday = "overflights/today"
        static let lastOverflight = "overflights/last"
    }

    /// The event types of the overflight event entity (the `event_type` of each message on `TOPIC/event`).
    static let eventTypes = ["overflight_start", "overflight_end"]

    static func messages(prefix: String, base: String, deviceID: String, device: Device, version: String) -> [MQTTMessage] {
        var deviceFields: [String: JSONValue] = [
            "identifiers": .array([.string(deviceID)]), "name": .string(device.name),
            "manufacturer": .string("RadarKiosk"), "model": .string("Radar kiosk"), "sw_version": .string(version),
        ]
        if let hardware = device.hardware { deviceFields["hw_version"] = .string(hardware) }
        if let area = device.area { deviceFields["suggested_area"] = .string(area) }
        let origin: JSONValue = .object(["name": .string("radar-kiosk"), "sw_version": .string(version)])
        func topic(_ name: String) -> JSONValue { .string(base + "/" + name) }
        func availability(_ extra: String?) -> [String: JSONValue] {
            guard let extra else { return ["availability_topic": topic(Topic.status)] }
            return ["availability": .array([.object(["topic": topic(Topic.status)]), .object(["topic": topic(extra)])]),
                    "availability_mode": .string("all")]
        }
        func entity(_ component: String, _ object: String, _ name: String, available: String? = nil,
                    _ fields: [String: JSONValue]) -> MQTTMessage {
            var config = fields.merging(availability(available)) { field, _ in field }
            let objectID = "\(deviceID)_\(object)"
            config["name"] = .string(name)
            config["unique_id"] = .string(objectID)
            // object_id gives the entity id the docs list; Home Assistant stops reading it in 2026.4, default_entity_id replaces it.
            config["object_id"] = .string(objectID)
            config["default_entity_id"] = .string("\(component).\(entitySlug(objectID))")
            config["device"] = .object(deviceFields)
            config["origin"] = origin
            return MQTTMessage(topic: "\(prefix)/\(component)/\(deviceID)/\(object)/config", text: JSONValue.object(config).serialized, retain: true)
        }
        func aircraftSensor(_ object: String, _ name: String, _ field: String, icon: String,
                            measured: (deviceClass: String, unit: String)? = nil) -> MQTTMessage {
            var fields: [String: JSONValue] = [
                "state_topic": topic(Topic.state), "icon": .string(icon),
                // Shown only while an aircraft is (the availability says so); a field
                // the aircraft lacks is unknown, not the text "None".
                "value_template": .string("{{ value_json.aircraft.\(field) if value_json.aircraft is defined and value_json.aircraft.\(field) is defined else none }}"),
            ]
            if let measured {
                fields["device_class"] = .string(measured.deviceClass)
                fields["unit_of_measurement"] = .string(measured.unit)
                fields["state_class"] = .string("measurement")
            }
            return entity("sensor", object, name, available: Topic.aircraftAvailability, fields)
        }
        let aircraftAttributes = "{{ value_json.aircraft | tojson if value_json.mode == 'overflight' and value_json.aircraft is defined else '{}' }}"
        return [
            entity("binary_sensor", "overhead", "Aircraft overhead", available: Topic.feedAvailability, [
                "state_topic": topic(Topic.overhead), "payload_on": .string("ON"), "payload_off": .string("OFF"),
                "device_class": .string("occupancy"), "icon": .string("mdi:airplane"),
                "json_attributes_topic": topic(Topic.state), "json_attributes_template": .string(aircraftAttributes),
            ]),
            entity("binary_sensor", "alert", "Alert", available: Topic.feedAvailability, [
                "state_topic": topic(Topic.state), "icon": .string("mdi:alert-octagon"),
                "value_template": .string("{{ 'ON' if value_json.mode == 'overflight' and value_json.aircraft is defined and value_json.aircraft.alert is defined else 'OFF' }}"),
                "json_attributes_topic": topic(Topic.state),
                "json_attributes_template": .string("{{ {'reason': value_json.aircraft.alert, 'callsign': value_json.aircraft.callsign} | tojson if value_json.mode == 'overflight' and value_json.aircraft is defined and value_json.aircraft.alert is defined else '{}' }}"),
            ]),
            aircraftSensor("callsign", "Callsign", "callsign", icon: "mdi:airplane"),
            aircraftSensor("type", "Aircraft type", "type", icon: "mdi:airplane-cog"),
            aircraftSensor("route", "Route", "route", icon: "mdi:airplane-marker"),
            aircraftSensor("distance", "Distance", "distance_nm", icon: "mdi:map-marker-distance", measured: ("distance", "nmi")),
            aircraftSensor("altitude", "Altitude", "altitude_ft", icon: "mdi:airplane-takeoff", measured: ("distance", "ft")),
            aircraftSensor("speed", "Ground speed", "ground_speed_kt", icon: "mdi:speedometer", measured: ("speed", "kn")),
            entity("event", "overflight", "Overflight", [
                "state_topic": topic(Topic.event), "event_types": .array(eventTypes.map(JSONValue.string)), "icon": .string("mdi:airplane-clock"),
            ]),
            entity("sensor", "overflights_today", "Overflights today", [
                "state_topic": topic(Topic.overflightsToday), "state_class": .string("total_increasing"), "icon": .string("mdi:counter"),
            ]),
            entity("sensor", "last_overflight", "Last overflight", [
                "state_topic": topic(Topic.lastOverflight), "value_template": .string("{{ value_json.callsign }}"),
                "json_attributes_topic": topic(Topic.lastOverflight), "icon": .string("mdi:history"),
            ]),
            entity("switch", "screen", "Screen", [
                "state_topic": topic(Topic.screen), "command_topic": topic(Topic.screenSet),
                "payload_on": .string("ON"), "payload_off": .string("OFF"), "icon": .string("mdi:monitor"),
            ]),
            entity("select", "screen_mode", "Screen mode", [
                "state_topic": topic(Topic.screenMode), "command_topic": topic(Topic.screenSet),
                "options": .array(["auto", "on", "off"].map(JSONValue.string)), "icon": .string("mdi:monitor-shimmer"),
            ]),
            entity("number", "brightness", "Screen brightness", [
                "state_topic": topic(Topic.brightness), "command_topic": topic(Topic.brightnessSet),
                "min": .number(1), "max": .number(100), "unit_of_measurement": .string("%"), "icon": .string("mdi:brightness-6"),
            ]),
            entity("button", "wake", "Wake screen", [
                "command_topic": topic(Topic.command), "payload_press": .string(#"{"cmd":"wake"}"#), "icon": .string("mdi:gesture-tap"),
            ]),
        ]
    }

    /// An entity id's object part as Home Assistant writes one: lower case, words joined by `_`.
    static func entitySlug(_ text: String) -> String {
        var slug = ""
        for scalar in text.lowercased().unicodeScalars {
            let keep = (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9")
            if keep { slug.unicodeScalars.append(scalar) } else if !slug.isEmpty && !slug.hasSuffix("_") { slug += "_" }
        }
        while slug.hasSuffix("_") { slug.removeLast() }
        return slug.isEmpty ? "radar_kiosk" : slug
    }
}
