/// The rows of a CSV file as the standing data writes them: comma-separated,
/// fields optionally in double quotes (a doubled quote inside is one quote),
/// a header row first, a UTF-8 byte-order mark at the start.
struct CSVRecords: Sequence, IteratorProtocol {
    private let bytes: [UInt8]
    private var position: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        position = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    /// The header row's names.
    mutating func header() -> [String] { next() ?? [] }

    mutating func next() -> [String]? {
        guard position < bytes.count else { return nil }
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        while position < bytes.count {
            let b = bytes[position]
            position += 1
            if quoted {
                if b == 0x22 {
                    if position < bytes.count && bytes[position] == 0x22 { field.append(0x22); position += 1 } else { quoted = false }
                } else {
                    field.append(b)
                }
                continue
            }
            switch b {
            case 0x22 where field.isEmpty: quoted = true
            case 0x2C: fields.append(String(decoding: field, as: UTF8.self)); field.removeAll(keepingCapacity: true)
            case 0x0A:
                fields.append(String(decoding: field, as: UTF8.self))
                return fields
            case 0x0D: break
            default: field.append(b)
            }
        }
        fields.append(String(decoding: field, as: UTF8.self))
        return fields
    }
}
