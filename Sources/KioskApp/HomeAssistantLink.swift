import Feed
import JSON
import KioskModel
import MQTT
import SystemIO

/// The kiosk on an MQTT broker, for home automation (Home Assistant, Node-RED):
/// it publishes the state, whether something is overhead, whether an aircraft
/// is shown and whether the feed is live (what Home Assistant's availability
/// follows), the screen, its mode and brightness, today's overflights and the
/// last one (all retained, so a late subscriber and a reconnect see them), an
/// event as each overflight starts and ends, and Home Assistant's discovery
/// configuration; it takes commands on `TOPIC/command` (the socket's JSON),
/// `TOPIC/screen/set` (ON, OFF, AUTO) and `TOPIC/brightness/set` (1-100), at
/// most a few a loop turn, with replies on `TOPIC/reply`. The broker's will
/// marks the kiosk offline if it vanishes.
final class HomeAssistantLink: EventSource {
    private typealias Topic = HomeAssistantDiscovery.Topic
    let client: MQTTClient
    let base: String
    let deviceID: String
    /// The retained values last published, by topic: only changes are sent.
    private var published: [String: String] = [:]
    private var tracker = OverflightTracker()
    /// Today's count and the last overflight, from the log and then as they end.
    private var overflights: OverflightDay
    /// The aircraft whose start was announced.
    private var announced: String?
    private var droppedReported = 0
    /// When a status faked by another client was last put right (at most every 10 s),
    /// and when the one that came too soon after is due.
    private var statusRestored = -Double.infinity
    private var statusRestoreDue: Double?
    /// The command topics whose retained message was ignored and said so.
    private var retainedIgnored: Set<String> = []
    /// Our discovery configurations, kept ours against other clients.
    private var discovery: DiscoveryGuard?

    init(broker: NetworkAddress, tls: MQTTClient.TLSOptions?, base: String, clientID: String, username: String?, password: String?,
         discoveryPrefix: String?, device: HomeAssistantDiscovery.Device, overflightLog: String?) {
        self.base = base
        deviceID = clientID
        overflights = OverflightDay(log: overflightLog, today: WallClock.day(WallClock.now()))
        discovery = discoveryPrefix.map {
            DiscoveryGuard(prefix: $0, deviceID: clientID, messages: HomeAssistantDiscovery.messages(
                prefix: $0, base: base, deviceID: clientID, device: device, version: RadarKioskVersion.string))
        }
        let will = MQTTMessage(topic: base + "/status", text: "offline", retain: true)
        client = MQTTClient(.init(host: broker.host, port: broker.port,
                                  connect: .init(clientID: clientID, username: username, password: password, will: will, keepAliveSeconds: 30),
                                  subscriptions: [base + "/command", base + "/screen/set", base + "/brightness/set", base + "/status"]
                                      + (discovery.map { [$0.filter] } ?? []), tls: tls))
    }

    func forEachDescriptor(_ body: (Int32) -> Void) { client.forEachDescriptor(body) }
    func forEachWritableDescriptor(_ body: (Int32) -> Void) { client.forEachWritableDescriptor(body) }
    var nextWake: Double? { [client.nextWake, statusRestoreDue, discovery?.nextRepair].compactMap { $0 }.min() }

    func service(now: Double) -> [KioskEvent] {
        var events: [KioskEvent] = []
        for event in client.service(now: now) {
            switch event {
            case .connected:
                Log.line("radar-kiosk: mqtt connected to \(client.options.host):\(client.options.port) as \(deviceID), topics \(base)/…")
                // A new session: everything retained is sent again.
                published.removeAll()
                statusRestoreDue = nil
                discovery?.reconnected()
                client.publish(MQTTMessage(topic: base + "/status", text: "online", retain: true))
                for message in discovery?.messages ?? [] { client.publish(message) }
                events.append(.mqttConnected)
            case let .failed(line):
                Log.line("radar-kiosk: \(ExternalText.oneLine(line, maximumBytes: 200)); retrying")
            case let .skipped(line):
                Log.line("radar-kiosk: \(ExternalText.oneLine(line, maximumBytes: 200))")
            case let .message(message) where message.topic == base + "/status":
                // Our availability is ours to say: another client's "offline" is put
                // right. What the broker kept from before (retained, at subscribing)
                // is already answered by the "online" sent on connecting.
                // A fake too soon after the last is put right once 10 s have passed.
                guard !message.retain, message.payload != Array("online".utf8) else { break }
                if now - statusRestored >= 10 {
                    statusRestored = now
                    Log.line("radar-kiosk: mqtt: \(base)/status was set to \(ExternalText.oneLine(String(decoding: message.payload.prefix(40), as: UTF8.self), maximumBytes: 40)) by another client; saying online again")
                    client.publish(MQTTMessage(topic: base + "/status", text: "online", retain: true))
                } else {
                    statusRestoreDue = statusRestored + 10
                }
            case let .message(message) where discovery?.covers(message.topic) == true:
                discovery?.observe(message)
            case let .message(message):
                // A command acts once, when it is sent: a retained one would act
                // again at every reconnect (and at every restart).
                if message.retain {
                    if retainedIgnored.insert(message.topic).inserted {
                        Log.line("radar-kiosk: mqtt: a retained message on \(ExternalText.oneLine(message.topic, maximumBytes: 120)) is ignored: commands act once, when they are sent")
                    }
                    continue
                }
                if let event = command(message) { events.append(event) }
            }
        }
        if let due = statusRestoreDue, now >= due, client.isConnected {
            statusRestoreDue = nil
            statusRestored = now
            client.publish(MQTTMessage(topic: base + "/status", text: "online", retain: true))
        }
        if client.isConnected, let (repairs, line) = discovery?.repairs(now: now) {
            if let line { Log.line("radar-kiosk: " + line) }
            for repair in repairs { client.publish(repair) }
        }
        // Today's count starts again at midnight, whether or not anything happens then.
        let today = WallClock.day(WallClock.now())
        if client.isConnected, today != overflights.day {
            overflights.roll(to: today)
            retain(Topic.overflightsToday, String(overflights.count))
        }
        if client.dropped > droppedReported + 100 {
            droppedReported = client.dropped
            Log.line("radar-kiosk: mqtt: the broker takes messages slower than they come: \(client.dropped) dropped so far")
        }
        return events
    }

    /// What a message on one of our command topics asks for.
    private func command(_ message: MQTTMessage) -> KioskEvent? {
        guard message.payload.count <= 4096 else { return .commandLine(.tooLong(message.payload.count), client: .mqtt) }
        let text = String(decoding: message.payload, as: UTF8.self).trimmed(" \t\r\n")
        switch message.topic {
        case base + "/command":
            return .commandLine(.text(text), client: .mqtt)
        case base + "/screen/set":
            let power = ["on": "on", "off": "off", "auto": "auto"][text.lowercased()]
            return .commandLine(.text(power.map { #"{"cmd":"screen","power":"\#($0)"}"# } ?? #"{"cmd":"screen","power":"?"}"#), client: .mqtt)
        case base + "/brightness/set":
            guard let percent = PlainNumber.parse(text), percent.isFinite else {
                return .commandLine(.text(#"{"cmd":"screen","brightness":"?"}"#), client: .mqtt)
            }
            return .commandLine(.text(#"{"cmd":"screen","brightness":\#(percent.rounded())}"#), client: .mqtt)
        default:
            return nil
        }
    }

    /// A command's answer, on TOPIC/reply.
    func reply(_ answer: String) {
        client.publish(MQTTMessage(topic: base + "/reply", text: answer))
    }

    /// Publishes what changed: the state, overhead, whether an aircraft is
    /// shown and the feed live, the screen, its mode and brightness, today's
    /// overflights, and an event when an overflight starts or ends.
    func observe(_ state: KioskState, screen policy: ScreenPolicy, power: ScreenPower, feeds: [FeedSourceStatus]? = nil, wallClock: Double) {
        overflights.roll(to: WallClock.day(wallClock))
        if let ended = tracker.observe(state, at: wallClock) {
            overflights.add(ended)
            publishEvent(#"{"event":"overflight_end","event_type":"overflight_end","overflight":\#(ended.jsonLine)}"#)
        }
        let shown = state.mode == .overflight ? state.aircraft : nil
        if let shown, announced != shown.callsign {
            publishEvent(#"{"event":"overflight_start","event_type":"overflight_start","aircraft":\#(shown.json.serialized)}"#)
        }
        announced = shown?.callsign
        // The aircraft's sensors go unavailable before the state leaves the
        // aircraft, and come back after it has one: no value in between.
        if shown == nil { retain(Topic.aircraftAvailability, "offline") }
        retain(Topic.state, state.json.serialized)
        if shown != nil { retain(Topic.aircraftAvailability, "online") }
        retain(Topic.overhead, state.mode == .overflight ? "ON" : "OFF")
        // Without a feed the state comes by command, key or line, and is always known.
        retain(Topic.feedAvailability, feeds.map { $0.contains { $0.isLive } } ?? true ? "online" : "offline")
        retain(Topic.screen, power.isOn ? "ON" : "OFF")
        retain(Topic.screenMode, policy.override.rawValue)
        // The brightness asked for, dark or not: what Home Assistant's number set.
        retain(Topic.brightness, String(Int((policy.dayBrightness * 100).rounded())))
        retain(Topic.overflightsToday, String(overflights.count))
        if let last = overflights.last { retain(Topic.lastOverflight, last.jsonLine) }
        if let feeds { retain("feeds", KioskCommand.feedsJSON(feeds).serialized) }
    }

    private func publishEvent(_ json: String) {
        client.publish(MQTTMessage(topic: base + "/" + Topic.event, text: json))
    }

    /// Publishes `value` retained on `base/name`, if it changed.
    private func retain(_ name: String, _ value: String) {
        guard published[name] != value else { return }
        if client.publish(MQTTMessage(topic: base + "/" + name, text: value, retain: true)) { published[name] = value }
    }

    /// Goes offline politely at exit (the will is for vanishing).
    func close(at now: Double) {
        client.publish(MQTTMessage(topic: base + "/status", text: "offline", retain: true))
        _ = client.service(now: now)
        client.disconnect()
    }
}
