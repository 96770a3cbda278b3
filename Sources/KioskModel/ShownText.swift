import SystemIO

/// Text from a command that the card draws (a callsign, a route, a note):
/// checked where the command is parsed, so that what is drawn is what the
/// sender meant and costs what its length says. Control characters and
/// invisible formatting (bidi overrides, zero-width characters, line
/// separators) are refused rather than drawn as boxes or obeyed, and the
/// length counts Unicode scalars: one character carrying ten thousand
/// combining marks is ten thousand long, not one.
enum ShownText {
    /// Why `text` cannot be shown, or nil when it can.
    static func problem(_ text: String, maximumLength: Int) -> String? {
        var length = 0
        for scalar in text.unicodeScalars {
            length += 1
            if length > maximumLength { return "longer than \(maximumLength) characters" }
            if ExternalText.isHidden(scalar) { return "contains U+\(hex(scalar.value)), a control or invisible formatting character" }
        }
        return nil
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
