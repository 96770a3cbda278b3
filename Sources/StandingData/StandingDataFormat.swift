/// The layout of the kiosk's standing-data file (`radar-kiosk
/// import-standing-data` writes it, `StandingData` maps it): fixed-size records
/// sorted by their keys, so a lookup is a binary search in place, touching a
/// few pages and allocating nothing.
///
/// All integers are little-endian. The header is the magic, then one UInt32
/// per `Field`. Keys are ASCII, upper case, NUL-padded to four bytes.
enum StandingDataFormat {
    /// Version 2 added each airport's city and how many routes call there;
    /// version 3 the country and military flag of each ICAO address block.
    static let magic: [UInt8] = Array("RKSDATA".utf8) + [3]

    /// The header's fields after the magic, in order.
    enum Field: Int, CaseIterable {
        case airportsOffset, airportsCount
        case airlinesOffset, airlinesCount
        case iataOffset, iataCount
        case typesOffset, typesCount
        case aircraftOffset, aircraftCount
        case blocksOffset, blocksCount
        case routesOffset, routesCount
        case legsOffset, legsCount
        case stringsOffset, stringsLength
        case addressBlocksOffset, addressBlocksCount
    }

    static let headerSize = magic.count + Field.allCases.count * 4

    /// code[4] iata[3] pad[1] latitude:Float32 longitude:Float32 cityOffset:UInt32 cityLength:UInt16 routes:UInt16
    /// (the scheduled routes that call there, at most 65535: how large it is)
    static let airportSize = 24
    /// code[4] nameOffset:UInt32 nameLength:UInt16 pad[2]
    static let airlineSize = 12
    /// iata[2] pad[2] airline:UInt32 (airlines that also have an ICAO code)
    static let iataSize = 8
    /// designator[4] nameOffset:UInt32 nameLength:UInt16 species:UInt8 engineType:UInt8
    static let typeSize = 12
    /// address:UInt32 designator[4] registrationOffset:UInt32 registrationLength:UInt16 pad[2]
    static let aircraftSize = 16
    /// airline[4] first:UInt32 count:UInt32 (a run of routes)
    static let blockSize = 12
    /// number[4] legs:UInt32 (index into the UInt16 legs: a count, then airport indices)
    static let routeSize = 8
    /// start:UInt32 country[2] military:UInt8 pad[1] nameOffset:UInt32 nameLength:UInt16 pad[2]:
    /// the address blocks flattened, so each record holds from its start to
    /// the next one's (the most specific of the nested blocks wins); country
    /// zero where none is assigned.
    static let addressBlockSize = 16

    /// A code as a four-byte key, or nil when it does not fit.
    static func key(_ code: Substring) -> UInt32? {
        let bytes = code.utf8
        guard (1...4).contains(bytes.count) else { return nil }
        var key: UInt32 = 0
        var shift: UInt32 = 24
        for b in bytes {
            let upper = (b >= 97 && b <= 122) ? b - 32 : b
            guard upper > 32 && upper < 127 else { return nil }
            key |= UInt32(upper) << shift
            shift &-= 8
        }
        return key
    }

    static func key(_ code: String) -> UInt32? { key(Substring(code)) }
}
