/// Linux key codes (linux/input-event-codes.h) for the keys the kiosk maps,
/// by the names the configuration and the terminal use.
public enum KeyNames {
    static let table: [String: UInt16] = {
        var t: [String: UInt16] = ["space": 57, "enter": 28, "escape": 1, "up": 103, "down": 108, "left": 105, "right": 106]
        let letters = "qwertyuiop".map { String($0) }, home = "asdfghjkl".map { String($0) }, bottom = "zxcvbnm".map { String($0) }
        for (i, k) in letters.enumerated() { t[k] = UInt16(16 + i) }
        for (i, k) in home.enumerated() { t[k] = UInt16(30 + i) }
        for (i, k) in bottom.enumerated() { t[k] = UInt16(44 + i) }
        for d in 1...9 { t[String(d)] = UInt16(1 + d) }
        t["0"] = 11
        return t
    }()

    static let names: [UInt16: String] = Dictionary(table.map { ($0.value, $0.key) }, uniquingKeysWith: { a, _ in a })

    public static func code(for name: String) -> UInt16? { table[name.lowercased()] }
    public static func name(for code: UInt16) -> String? { names[code] }
}
