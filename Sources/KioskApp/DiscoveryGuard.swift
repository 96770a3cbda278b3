import MQTT
import SystemIO

/// Keeps the kiosk's Home Assistant discovery its own: any client on the
/// broker may publish under `PREFIX/COMPONENT/DEVICE/OBJECT/config`, so a
/// changed or emptied configuration of ours would rename, break or remove an
/// entity, and an extra one under our device id would add a control (a
/// button wired to a quit, say) that looks like the kiosk's. The kiosk
/// listens on its own device's configurations and puts back what it
/// published, or empties (Home Assistant's "remove") what it never did.
/// Repairs wait in a bounded queue and go out at most `repairsPerWindow` a
/// window, so two clients fighting over a topic cost a few messages a
/// second, and the last fake is still put right when the fight stops.
struct DiscoveryGuard {
    /// The subscription that shows every configuration under our device.
    let filter: String
    /// The configurations the kiosk publishes (retained) at each connect.
    let messages: [MQTTMessage]
    private let ours: [String: [UInt8]]
    private let prefix: String
    private let deviceSegment: String
    static let window = 10.0
    static let repairsPerWindow = 16
    /// Topics beyond this many waiting are dropped until the queue drains (a client inventing topics gains nothing).
    static let maximumWaiting = 256
    /// The payload to put back, by topic, and the order they came in.
    private var waiting: [String: [UInt8]] = [:]
    private var order: [String] = []
    private var windowStart = -Double.infinity
    private var repairsInWindow = 0
    /// Changes by others since the last line said, and when it was said (at most one a minute).
    private var unsaid = 0
    private var lastSaid = -Double.infinity

    init(prefix: String, deviceID: String, messages: [MQTTMessage]) {
        self.prefix = prefix + "/"
        deviceSegment = "/" + deviceID + "/"
        filter = "\(prefix)/+/\(deviceID)/+/config"
        self.messages = messages
        ours = Dictionary(messages.map { ($0.topic, $0.payload) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether `topic` is a configuration under our device (so the message is the guard's, not a command).
    func covers(_ topic: String) -> Bool {
        guard topic.hasPrefix(prefix), topic.hasSuffix("/config") else { return false }
        let rest = topic.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        return rest.count == 4 && "/\(rest[1])/" == deviceSegment
    }

    /// Takes in what the broker sent on one of our configurations: ours (our
    /// own publish coming back) settles it, anything else waits to be put right.
    mutating func observe(_ message: MQTTMessage) {
        let wanted = ours[message.topic] ?? []
        if message.payload == wanted {
            waiting[message.topic] = nil
            return
        }
        if waiting[message.topic] == nil {
            guard waiting.count < Self.maximumWaiting else { return }
            // Topics settled since they were queued leave stale places behind.
            if order.count >= 2 * Self.maximumWaiting { order.removeAll { waiting[$0] == nil } }
            order.append(message.topic)
        }
        waiting[message.topic] = wanted
        unsaid += 1
    }

    /// The repairs due now (within the window's budget), and a line to log when one is due.
    mutating func repairs(now: Double) -> (messages: [MQTTMessage], line: String?) {
        guard !waiting.isEmpty else { return ([], nil) }
        if now - windowStart >= Self.window { windowStart = now; repairsInWindow = 0 }
        var due: [MQTTMessage] = []
        while repairsInWindow < Self.repairsPerWindow, !order.isEmpty {
            let topic = order.removeFirst()
            guard let payload = waiting.removeValue(forKey: topic) else { continue }
            due.append(MQTTMessage(topic: topic, payload: payload, retain: true))
            repairsInWindow += 1
        }
        var line: String?
        if let latest = due.last, now - lastSaid >= 60 {
            line = "mqtt: another client changed the kiosk's Home Assistant discovery (\(unsaid) time\(unsaid == 1 ? "" : "s") since the last line, "
                + "latest \(ExternalText.oneLine(latest.topic, maximumBytes: 120))); putting back the kiosk's own"
            lastSaid = now
            unsaid = 0
        }
        return (due, line)
    }

    /// When the next repair may go out, if one waits.
    var nextRepair: Double? {
        guard !waiting.isEmpty else { return nil }
        return repairsInWindow < Self.repairsPerWindow ? windowStart : windowStart + Self.window
    }

    /// A new session: the kiosk publishes all of its own again, so nothing of ours waits; the extras the broker
    /// kept come again at subscribing.
    mutating func reconnected() {
        waiting.removeAll()
        order.removeAll()
    }
}
