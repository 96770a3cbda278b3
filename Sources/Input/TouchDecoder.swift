/// A finger on a touchscreen, as the kiosk hears of it: which contact, whether
/// it came down, moved or lifted, and where, as fractions (0...1) of the
/// device's own axis ranges in its own orientation (a panel's touch is not
/// turned with the picture: mapping it onto the screen is the kiosk's).
public struct TouchEvent: Equatable, Sendable {
    public enum Phase: Equatable, Sendable { case began, moved, ended }
    /// The contact: its multitouch slot, or 0 on a single-touch device.
    public var id: Int
    public var phase: Phase
    public var x: Double
    public var y: Double

    public init(id: Int, phase: Phase, x: Double, y: Double) {
        self.id = id
        self.phase = phase
        self.x = x
        self.y = y
    }
}

/// Turns a touchscreen's evdev records into `TouchEvent`s, one batch per
/// SYN_REPORT: multitouch protocol B (slots and tracking ids: the Pi's
/// FT5406 panels, most USB panels) or single touch (ABS_X/ABS_Y with
/// BTN_TOUCH, or BTN_LEFT on an absolute pointer such as QEMU's tablet).
/// A contact already down when the kiosk started has no tracking id it saw
/// given: it is ignored until it lifts, never taken for a tap.
public struct TouchDecoder: Sendable {
    /// One axis's range as the device reports it (EVIOCGABS).
    public struct AxisRange: Equatable, Sendable {
        public var minimum: Int32
        public var maximum: Int32
        public init(minimum: Int32, maximum: Int32) {
            self.minimum = minimum
            self.maximum = maximum
        }
        func fraction(_ value: Int32) -> Double {
            guard maximum > minimum else { return 0 }
            return min(max(Double(value - minimum) / Double(maximum - minimum), 0), 1)
        }
    }

    public let x: AxisRange
    public let y: AxisRange
    public let multitouch: Bool
    /// Slots followed at most (panels report 5 or 10).
    public static let maximumSlots = 16

    private struct Contact {
        var down = false
        var began = false
        var lifted = false
        var moved = false
        var x: Int32 = 0
        var y: Int32 = 0
    }
    private var contacts = [Contact](repeating: Contact(), count: maximumSlots)
    private var slot = 0
    /// Records after a SYN_DROPPED are incomplete until the next report.
    private var dropping = false

    static let absX: UInt16 = 0x00, absY: UInt16 = 0x01, absMTSlot: UInt16 = 0x2f, absMTPositionX: UInt16 = 0x35,
               absMTPositionY: UInt16 = 0x36, absMTTrackingID: UInt16 = 0x39, btnLeft: UInt16 = 0x110, btnTouch: UInt16 = 0x14a

    public init(x: AxisRange, y: AxisRange, multitouch: Bool) {
        self.x = x
        self.y = y
        self.multitouch = multitouch
    }

    /// Takes records read from the device; returns the touches of each completed report.
    public mutating func feed(_ records: [EvdevRecord]) -> [TouchEvent] {
        var events: [TouchEvent] = []
        for record in records {
            switch (record.type, record.code) {
            case (EvdevDecoder.evSyn, EvdevDecoder.synReport):
                if dropping { dropping = false } else { report(into: &events) }
            case (EvdevDecoder.evSyn, EvdevDecoder.synDropped):
                // What was lost cannot be pieced together: every finger counts as lifted.
                dropping = true
                for i in contacts.indices where contacts[i].down && !contacts[i].began {
                    events.append(TouchEvent(id: i, phase: .ended, x: x.fraction(contacts[i].x), y: y.fraction(contacts[i].y)))
                }
                contacts = [Contact](repeating: Contact(), count: Self.maximumSlots)
            case _ where dropping:
                continue
            case (EvdevDecoder.evAbs, Self.absMTSlot) where multitouch:
                slot = Int(record.value)
            case (EvdevDecoder.evAbs, Self.absMTTrackingID) where multitouch:
                guard contacts.indices.contains(slot) else { continue }
                if record.value < 0 { contacts[slot].lifted = true } else { contacts[slot].began = true }
            case (EvdevDecoder.evAbs, Self.absMTPositionX) where multitouch:
                if contacts.indices.contains(slot) { contacts[slot].x = record.value; contacts[slot].moved = true }
            case (EvdevDecoder.evAbs, Self.absMTPositionY) where multitouch:
                if contacts.indices.contains(slot) { contacts[slot].y = record.value; contacts[slot].moved = true }
            case (EvdevDecoder.evAbs, Self.absX) where !multitouch:
                contacts[0].x = record.value
                contacts[0].moved = true
            case (EvdevDecoder.evAbs, Self.absY) where !multitouch:
                contacts[0].y = record.value
                contacts[0].moved = true
            case (EvdevDecoder.evKey, Self.btnTouch) where !multitouch, (EvdevDecoder.evKey, Self.btnLeft) where !multitouch:
                if record.value == 1 { contacts[0].began = true } else if record.value == 0 { contacts[0].lifted = true }
            default:
                continue
            }
        }
        return events
    }

    private mutating func report(into events: inout [TouchEvent]) {
        for i in contacts.indices {
            var c = contacts[i]
            let (fx, fy) = (x.fraction(c.x), y.fraction(c.y))
            if c.began && !c.down {
                c.down = true
                events.append(TouchEvent(id: i, phase: .began, x: fx, y: fy))
            } else if c.down && c.moved && !c.lifted {
                events.append(TouchEvent(id: i, phase: .moved, x: fx, y: fy))
            }
            // A lift of a contact never seen coming down (down before the kiosk started) says nothing.
            if c.lifted && c.down {
                c.down = false
                events.append(TouchEvent(id: i, phase: .ended, x: fx, y: fy))
            }
            c.began = false
            c.lifted = false
            c.moved = false
            contacts[i] = c
        }
    }
}
