/// The ranges a receiver's numbers must fall in to be believed, and the
/// cleaning of its strings, applied where each feed is parsed: whatever a
/// feed sends, a report holds finite, plausible numbers and short printable
/// text, or nothing.
public enum Plausible {
    public static let altitudeFeet = -2_000.0...99_999
    public static let groundSpeedKnots = 0.0...2_000
    public static let trackDegrees = 0.0...360
    /// Vertical rates in feet per minute: a fighter climbs at 60,000.
    public static let verticalRate = -60_000.0...60_000
    /// Ages in seconds: a week is already absurd.
    public static let ageSeconds = 0.0...604_800

    /// `value` when finite and in `range`, else nil.
    public static func number(_ value: Double?, in range: ClosedRange<Double>) -> Double? {
        guard let value, value.isFinite, range.contains(value) else { return nil }
        return value
    }

    /// A whole number of feet when plausible.
    public static func altitude(_ value: Double?) -> Int? {
        number(value, in: altitudeFeet).map { Int($0.rounded()) }
    }

    /// A callsign, registration or type as a card can show it: ASCII letters,
    /// digits, '-' and '.', upper-cased, at most `length`; nil when nothing is left.
    public static func identifier<S: StringProtocol>(_ text: S?, length: Int = 10) -> String? {
        guard let text else { return nil }
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "a"..."z": out.unicodeScalars.append(Unicode.Scalar(c.value - 32)!)
            case "A"..."Z", "0"..."9", "-", ".": out.unicodeScalars.append(c)
            case " ": continue
            default: return nil
            }
            if out.count > length { return nil }
        }
        return out.isEmpty ? nil : out
    }

    /// A name from outside for the card (readsb's `desc`, `ownOp`): printable
    /// characters only, runs of spaces as one, at most `length` characters;
    /// nil when nothing is left.
    public static func name<S: StringProtocol>(_ text: S?, length: Int = 40) -> String? {
        guard let text else { return nil }
        var out = ""
        var count = 0
        for c in text.unicodeScalars {
            if c.properties.generalCategory == .control || c.properties.generalCategory == .format
                || c.properties.generalCategory == .lineSeparator || c.properties.generalCategory == .paragraphSeparator { continue }
            if c.properties.isWhitespace {
                if out.isEmpty || out.unicodeScalars.last == " " { continue }
                out.unicodeScalars.append(" ")
            } else {
                out.unicodeScalars.append(c)
            }
            count += 1
            if count >= length { break }
        }
        while out.hasSuffix(" ") { out.removeLast() }
        return out.isEmpty ? nil : out
    }

    /// A squawk: four octal digits.
    public static func squawk<S: StringProtocol>(_ text: S?) -> String? {
        guard let text, text.count == 4, text.allSatisfy({ ("0"..."7").contains($0) }) else { return nil }
        return String(text)
    }
}
