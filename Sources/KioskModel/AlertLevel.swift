/// How loud an alert is, so the room can tell them apart: distress (a
/// hijack 7500, an emergency 7700, a general, unlawful or downed emergency)
/// in red; urgency (radio failure 7600, minimum fuel, a lifeguard flight) in
/// amber; and interest (military, the watch list, a reason a command gave)
/// in a calm blue that is no alarm.
public enum AlertLevel: Sendable, Equatable {
    case distress, urgency, interest

    /// The level of the card's alert text ("EMERGENCY 7700", "MILITARY"...).
    public init(_ alert: String) {
        let words = alert.uppercased().split(separator: " ")
        guard words.first == "EMERGENCY" else { self = .interest; return }
        switch words.dropFirst().first {
        case nil, "7500", "7700", "GENERAL", "UNLAWFUL", "DOWNED": self = .distress
        default: self = .urgency
        }
    }

    /// The card's outline, its status word and the aircraft's mark on the dial.
    public var cardStyle: KioskStyle {
        switch self {
        case .distress: return .distressCard
        case .urgency: return .alertCard
        case .interest: return .interestCard
        }
    }

    public var statusStyle: KioskStyle {
        switch self {
        case .distress: return .distressStatus
        case .urgency: return .alertStatus
        case .interest: return .interestStatus
        }
    }

    public var markerStyle: KioskStyle {
        switch self {
        case .distress: return .distressMarker
        case .urgency: return .alertMarker
        case .interest: return .interestMarker
        }
    }
}
