/// The number grammar of the kiosk's line formats (configuration values,
/// SBS-1 fields, flags): an optional minus, digits, an optional fraction.
/// Swift's `Double(_:)` also takes `nan`, `inf`, hex and exponents, which no
/// receiver or person writes, and which would carry a non-finite number in.
public enum PlainNumber {
    public static func parse<S: StringProtocol>(_ text: S) -> Double? {
        var digits = 0, dots = 0
        for (i, c) in text.utf8.enumerated() {
            switch c {
            case UInt8(ascii: "-") where i == 0: continue
            case UInt8(ascii: "."): dots += 1
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            default: return nil
            }
        }
        guard digits > 0, digits <= 18, dots <= 1, let v = Double(String(text)), v.isFinite else { return nil }
        return v
    }
}
