import AnimationCore

/// The renderer's styles for the scene's leaves.
public enum KioskStyle: Int, Sendable, CaseIterable {
    /// The height of the kiosk's faces' capitals (B612's), per em: what a
    /// reader sees of a line of capitals and digits.
    public static let capHeightPerEm = 0.75

    case dial, marker, card, status, callsign, route, rowLabel, rowValue, note
    /// The card, its title and the aircraft's mark for an alert of urgency
    /// (amber: 7600, minimum fuel), of distress (red: 7500, 7700) and of
    /// interest (a calm blue: military, watched); see `AlertLevel`.
    case alertCard, alertStatus
    /// The credit a data source's terms ask for, small in standby's corner.
    case credit
    /// Which of several aircraft overhead the card shows ("2/3"), at its top right.
    case place
    /// Standby's corner: the local time, and today's overflights under it.
    case clock, today
    case distressCard, distressStatus, interestCard, interestStatus
    case alertMarker, distressMarker, interestMarker
    /// The card's journey: the leg as a line with the aircraft's place on it,
    /// and under it the distance to go and where to, at the line's right end.
    case journey, journeyDestination
    /// Standby's word while the feed is down: NO DATA, in the note's amber.
    case noDataStatus
    /// The registration, country and squawk, right-aligned beside the callsign.
    case registration

    /// The style as the animation core carries it.
    public var leafStyle: LeafStyle { LeafStyle(rawValue) }

    public init?(_ style: LeafStyle) { self.init(rawValue: style.rawValue) }

    /// Whether leaves of this style are text.
    public var isText: Bool { !isCard && !isMarker && self != .dial && self != .journey }

    /// Whether leaves of this style are the card's background (of any alert level).
    public var isCard: Bool { self == .card || self == .alertCard || self == .distressCard || self == .interestCard }

    /// Whether leaves of this style are the shown aircraft's mark on the dial.
    public var isMarker: Bool { self == .marker || self == .alertMarker || self == .distressMarker || self == .interestMarker }
}
