import Feed
import SystemIO

/// Routes, airports, airlines, aircraft types and a sparse aircraft table,
/// from Virtual Radar Server's standing data (CC0), in the kiosk's compact
/// file. The file is mapped, not read: opening it costs no parsing, resident
/// memory grows only by the pages lookups touch, and a lookup is a binary
/// search over fixed-size records that allocates nothing until it returns a
/// name.
public final class StandingData {
    /// An airport on a route.
    public struct Airport: Equatable, Sendable {
        /// The code routes use: ICAO, or IATA when it has no ICAO code.
        public var code: String
        public var iata: String?
        public var position: (latitude: Double, longitude: Double)
        /// The place it serves, as the data names it ("Los Angeles"); nil when the data has none.
        public var city: String?
        /// How many scheduled routes call there (at most 65535): the data has
        /// no sizes, and this tells a hub from an airfield.
        public var routeCount: Int
        /// What the card shows: the IATA code travellers know, else the code.
        public var shortName: String { iata ?? code }

        /// The longest city name kept: the card has one line for it.
        public static let cityLength = 32

        public init(code: String, iata: String? = nil, position: (latitude: Double, longitude: Double), city: String? = nil, routeCount: Int = 0) {
            self.code = code
            self.iata = iata
            self.position = position
            self.city = city
            self.routeCount = routeCount
        }

        public static func == (a: Airport, b: Airport) -> Bool {
            a.code == b.code && a.iata == b.iata && a.position == b.position && a.city == b.city && a.routeCount == b.routeCount
        }
    }

    /// A scheduled route: two or more airports in order.
    public struct Route: Equatable, Sendable {
        public var airports: [Airport]
    }

    /// What the data says about an aircraft type designator.
    public struct AircraftType: Equatable, Sendable {
        /// Manufacturer and model, as the data names them ("Boeing 787-9 Dreamliner").
        public var name: String
        /// VRS species: L land plane, S seaplane, A amphibian, H helicopter, G gyrocopter, T tiltwing, V ground vehicle, R tower.
        public var species: Character?
    }

    /// What the data says about one airframe, by its 24-bit address.
    public struct AircraftRecord: Equatable, Sendable {
        public var registration: String?
        public var typeDesignator: String?
    }

    /// What an ICAO address's block says: the country that assigned it, and
    /// whether the block is one a country keeps for its military.
    public struct AddressBlock: Equatable, Sendable {
        /// ISO 3166 two-letter code ("GB"); nil where no country is assigned.
        public var countryCode: String?
        /// The country's name as the data writes it ("United Kingdom").
        public var countryName: String?
        public var isMilitary: Bool
    }

    private let file: MappedFile
    private let fields: [UInt32]
    private var cutShort = false

    public var path: String { file.path }
    public var routeCount: Int { Int(field(.routesCount)) }
    public var airportCount: Int { Int(field(.airportsCount)) }

    public init(path: String) throws {
        file = try MappedFile(path: path)
        let bytes = file.bytes
        guard bytes.count >= StandingDataFormat.headerSize,
              bytes.prefix(StandingDataFormat.magic.count).elementsEqual(StandingDataFormat.magic) else {
            throw StandingDataError("\(path): not a radar-kiosk standing-data file (run radar-kiosk import-standing-data)")
        }
        fields = StandingDataFormat.Field.allCases.map {
            bytes.loadUnaligned(fromByteOffset: StandingDataFormat.magic.count + $0.rawValue * 4, as: UInt32.self).littleEndian
        }
        // Every table must lie inside the file: a truncated or corrupt file is refused, never read past its end.
        let tables: [(StandingDataFormat.Field, StandingDataFormat.Field, Int)] = [
            (.airportsOffset, .airportsCount, StandingDataFormat.airportSize), (.airlinesOffset, .airlinesCount, StandingDataFormat.airlineSize),
            (.iataOffset, .iataCount, StandingDataFormat.iataSize), (.typesOffset, .typesCount, StandingDataFormat.typeSize),
            (.aircraftOffset, .aircraftCount, StandingDataFormat.aircraftSize), (.blocksOffset, .blocksCount, StandingDataFormat.blockSize),
            (.routesOffset, .routesCount, StandingDataFormat.routeSize), (.legsOffset, .legsCount, 2), (.stringsOffset, .stringsLength, 1),
            (.addressBlocksOffset, .addressBlocksCount, StandingDataFormat.addressBlockSize),
        ]
        for (offset, count, size) in tables where Int(fields[offset.rawValue]) + Int(fields[count.rawValue]) * size > bytes.count {
            throw StandingDataError("\(path): truncated or corrupt (\(count) runs past the end)")
        }
        file.prefetch()
    }

    // MARK: Lookups

    /// Whether the file is still whole: one cut short under the kiosk (`cp`
    /// over it) answers nothing from then on, said once, rather than a
    /// lookup touching a page that is gone (SIGBUS).
    private var isReadable: Bool {
        if cutShort { return false }
        if file.isIntact { return true }
        cutShort = true
        Log.line("radar-kiosk: standing data \(path) was changed in place while in use; no routes or names until the kiosk restarts"
                 + " (replace it by renaming a new file over it, as install and dpkg do)")
        return false
    }

    /// The scheduled route of a callsign, normalised as the data's README says.
    public func route(forCallsign callsign: String) -> Route? {
        guard isReadable else { return nil }
        guard let (airline, number) = normalise(callsign),
              let block = search(.blocksOffset, .blocksCount, StandingDataFormat.blockSize, for: airline) else { return nil }
        let base = offset(.blocksOffset) + block * StandingDataFormat.blockSize
        let first = Int(u32(base + 4)), count = Int(u32(base + 8))
        // The block's run of routes must lie inside the routes table: a
        // corrupt record is found nothing in, never followed out of the file.
        guard first <= routeCount, count <= routeCount - first else { return nil }
        guard let index = search(offset(.routesOffset) + first * StandingDataFormat.routeSize, count: count,
                                 size: StandingDataFormat.routeSize, for: number) else { return nil }
        let legs = Int(u32(offset(.routesOffset) + (first + index) * StandingDataFormat.routeSize + 4))
        guard legs < Int(field(.legsCount)) else { return nil }
        let n = Int(u16(offset(.legsOffset) + legs * 2))
        guard n >= 2, legs + n < Int(field(.legsCount)) else { return nil }
        var airports: [Airport] = []
        airports.reserveCapacity(n)
        for k in 1...n {
            guard let airport = airport(at: Int(u16(offset(.legsOffset) + (legs + k) * 2))) else { return nil }
            airports.append(airport)
        }
        return Route(airports: airports)
    }

    /// An airport by the code routes use (ICAO, or IATA for airports without one).
    public func airport(code: String) -> Airport? {
        guard isReadable else { return nil }
        guard let key = StandingDataFormat.key(code),
              let i = search(.airportsOffset, .airportsCount, StandingDataFormat.airportSize, for: key) else { return nil }
        return airport(at: i)
    }

    /// The airports within `radiusNM` of `center` that at least
    /// `minimumRoutes` scheduled routes call at, nearest first. A pass over
    /// every airport (34,000, a millisecond or two): for a station set or
    /// changed, never per frame.
    public func airports(within radiusNM: Double, of center: GeoPoint, minimumRoutes: Int) -> [Airport] {
        guard isReadable, radiusNM.isFinite, radiusNM > 0 else { return [] }
        // A degree of latitude is 60 NM: airports further north or south are passed over unread.
        let latitudeSpan = radiusNM / 60 + 0.01
        var found: [(distance: Double, airport: Airport)] = []
        for i in 0..<airportCount {
            let base = offset(.airportsOffset) + i * StandingDataFormat.airportSize
            guard Int(u16(base + 22)) >= minimumRoutes else { continue }
            let lat = Double(Float(bitPattern: u32(base + 8))), lon = Double(Float(bitPattern: u32(base + 12)))
            guard abs(lat - center.latitude) <= latitudeSpan else { continue }
            let distance = center.distanceNM(to: GeoPoint(latitude: lat, longitude: lon))
            if distance <= radiusNM, let airport = airport(at: i) { found.append((distance, airport)) }
        }
        return found.sorted { $0.distance < $1.distance }.map(\.airport)
    }

    /// The airline's name, by its ICAO (or, for airlines without one, IATA) code.
    public func airlineName(code: String) -> String? {
        guard isReadable else { return nil }
        guard let key = StandingDataFormat.key(code),
              let i = search(.airlinesOffset, .airlinesCount, StandingDataFormat.airlineSize, for: key) else { return nil }
        let base = offset(.airlinesOffset) + i * StandingDataFormat.airlineSize
        return string(u32(base + 4), u16(base + 8))
    }

    /// An ICAO type designator's manufacturer and model.
    public func aircraftType(designator: String) -> AircraftType? {
        guard isReadable else { return nil }
        guard let key = StandingDataFormat.key(designator),
              let i = search(.typesOffset, .typesCount, StandingDataFormat.typeSize, for: key) else { return nil }
        let base = offset(.typesOffset) + i * StandingDataFormat.typeSize
        guard let name = string(u32(base + 4), u16(base + 8)) else { return nil }
        let species = file.bytes[base + 10]
        return AircraftType(name: name, species: species == 0 ? nil : Character(Unicode.Scalar(species)))
    }

    /// The data's record of an airframe by its 24-bit address ("4ca7b5" or "4CA7B5").
    public func aircraft(address hex: String) -> AircraftRecord? {
        guard isReadable else { return nil }
        guard hex.utf8.count == 6, let address = UInt32(hex, radix: 16),
              let i = search(.aircraftOffset, .aircraftCount, StandingDataFormat.aircraftSize, for: address) else { return nil }
        let base = offset(.aircraftOffset) + i * StandingDataFormat.aircraftSize
        let designator = keyString(u32(base + 4))
        return AircraftRecord(registration: string(u32(base + 8), u16(base + 12)), typeDesignator: designator.isEmpty ? nil : designator)
    }

    /// The block of a 24-bit address ("43c123"); nil for an address that is
    /// not six hex digits (a non-ICAO "~" address) or a file without blocks.
    public func addressBlock(address hex: String) -> AddressBlock? {
        guard let i = addressBlockIndex(hex) else { return nil }
        let base = offset(.addressBlocksOffset) + i * StandingDataFormat.addressBlockSize
        let code = String(decoding: UnsafeRawBufferPointer(rebasing: file.bytes[(base + 4)..<(base + 6)]), as: UTF8.self)
        return AddressBlock(countryCode: code.utf8.first == 0 ? nil : code, countryName: string(u32(base + 8), u16(base + 12)),
                            isMilitary: file.bytes[base + 6] != 0)
    }

    /// Whether the address is in a military block: for an alert on every
    /// aircraft in reach, so it allocates nothing.
    public func isMilitary(address hex: String) -> Bool {
        guard let i = addressBlockIndex(hex) else { return false }
        return file.bytes[offset(.addressBlocksOffset) + i * StandingDataFormat.addressBlockSize + 6] != 0
    }

    /// The record whose start is the last at or below the address.
    private func addressBlockIndex(_ hex: String) -> Int? {
        guard isReadable, hex.utf8.count == 6, let address = UInt32(hex, radix: 16) else { return nil }
        let base = offset(.addressBlocksOffset), count = Int(field(.addressBlocksCount))
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if u32(base + mid * StandingDataFormat.addressBlockSize) <= address { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? low - 1 : nil
    }

    // MARK: Callsigns

    /// The callsign as the routes are keyed (README, "Normalisation"): the
    /// airline code (an IATA code swapped for the ICAO one when the airline has
    /// both) and the number without leading zeros; nil when it is not of that shape.
    func normalise(_ callsign: String) -> (airline: UInt32, number: UInt32)? {
        let chars = Array(callsign.utf8.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 })
        func isLetter(_ c: UInt8) -> Bool { c >= 65 && c <= 90 }
        func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
        guard chars.count >= 3, chars.allSatisfy({ isLetter($0) || isDigit($0) }) else { return nil }
        // ^([A-Z]{2,3}|[A-Z][0-9]|[0-9][A-Z])(\d[A-Z0-9]*), tried in that order.
        var codeLength: Int?
        if isLetter(chars[0]) && isLetter(chars[1]) {
            if chars.count > 3 && isLetter(chars[2]) && isDigit(chars[3]) { codeLength = 3 } else if isDigit(chars[2]) { codeLength = 2 }
        } else if (isLetter(chars[0]) && isDigit(chars[1])) || (isDigit(chars[0]) && isLetter(chars[1])) {
            if isDigit(chars[2]) { codeLength = 2 }
        }
        guard let codeLength else { return nil }
        var number = chars[codeLength...].drop { $0 == 48 }
        if number.isEmpty || !number.contains(where: isDigit) { number = [48] + number }
        // n, nn, nA, nnn, nnA, nAA, nnnn, nnnA, nnAA: at most four, letters only at the end (at most two).
        let letters = number.reversed().prefix { isLetter($0) }.count
        guard number.count <= 4, letters <= 2, number.dropLast(letters).allSatisfy(isDigit), isDigit(number.first!) else { return nil }
        var code = String(decoding: chars[0..<codeLength], as: UTF8.self)
        if codeLength == 2, let icao = icaoCode(forIATA: code) { code = icao }
        guard let airline = StandingDataFormat.key(code),
              let key = StandingDataFormat.key(Substring(String(decoding: number, as: UTF8.self))) else { return nil }
        return (airline, key)
    }

    private func icaoCode(forIATA iata: String) -> String? {
        guard let key = StandingDataFormat.key(iata),
              let i = search(.iataOffset, .iataCount, StandingDataFormat.iataSize, for: key) else { return nil }
        let airline = Int(u32(offset(.iataOffset) + i * StandingDataFormat.iataSize + 4))
        guard airline < Int(field(.airlinesCount)) else { return nil }
        return keyString(u32(offset(.airlinesOffset) + airline * StandingDataFormat.airlineSize))
    }

    // MARK: Records

    private func airport(at i: Int) -> Airport? {
        guard i < Int(field(.airportsCount)) else { return nil }
        let base = offset(.airportsOffset) + i * StandingDataFormat.airportSize
        let iata = keyString(u32(base + 4) & 0xFFFF_FF00)
        let lat = Double(Float(bitPattern: u32(base + 8))), lon = Double(Float(bitPattern: u32(base + 12)))
        return Airport(code: keyString(u32(base)), iata: iata.isEmpty ? nil : iata, position: (lat, lon),
                       city: string(u32(base + 16), u16(base + 20)), routeCount: Int(u16(base + 22)))
    }

    /// Binary search of a table's records whose first four bytes are the key.
    private func search(_ offsetField: StandingDataFormat.Field, _ countField: StandingDataFormat.Field, _ size: Int,
                        for key: UInt32) -> Int? {
        search(offset(offsetField), count: Int(field(countField)), size: size, for: key)
    }

    private func search(_ base: Int, count: Int, size: Int, for key: UInt32) -> Int? {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            let k = u32(base + mid * size)
            if k == key { return mid }
            if k < key { low = mid + 1 } else { high = mid }
        }
        return nil
    }

    private func field(_ f: StandingDataFormat.Field) -> UInt32 { fields[f.rawValue] }
    private func offset(_ f: StandingDataFormat.Field) -> Int { Int(fields[f.rawValue]) }
    private func u32(_ at: Int) -> UInt32 { file.bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian }
    private func u16(_ at: Int) -> UInt16 { file.bytes.loadUnaligned(fromByteOffset: at, as: UInt16.self).littleEndian }

    private func string(_ at: UInt32, _ length: UInt16) -> String? {
        let start = offset(.stringsOffset) + Int(at), end = start + Int(length)
        guard length > 0, Int(at) + Int(length) <= Int(field(.stringsLength)) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: file.bytes[start..<end]), as: UTF8.self)
    }

    private func keyString(_ key: UInt32) -> String {
        var bytes: [UInt8] = []
        for shift in stride(from: 24, through: 0, by: -8) {
            let b = UInt8(truncatingIfNeeded: key >> UInt32(shift))
            if b != 0 { bytes.append(b) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A standing-data file that cannot be used, with its path and what is wrong.
public struct StandingDataError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
