import AnimationCore

/// The renderer's styles for the scene's leaves.
public enum KioskStyle: Int, Sendable, CaseIterable {
    case dial, marker, card, status, callsign, route, rowLabel, rowValue, note
    /// The card and its title when the aircraft is an alert (emergency, military, watched).
    case alertCard, alertStatus
    /// The credit a data source's terms ask for, small in standby's corner.
    case credit
    /// Which of several aircraft overhead the card shows ("2/3"), at its top right.
    case place
    /// Standby's corner: the local time, and today's overflights under it.
    case clock, today

    /// The style as the animation core carries it.
    public var leafStyle: LeafStyle { LeafStyle(rawValue) }

    public init?(_ style: LeafStyle) { self.init(rawValue: style.rawValue) }

    /// Whether leaves of this style are text.
    public var isText: Bool { self != .dial && self != .marker && self != .card && self != .alertCard }
}
