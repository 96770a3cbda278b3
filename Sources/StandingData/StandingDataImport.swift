#if canImport(Glibc)
import Glibc
#endif
import SystemIO

/// Builds the kiosk's standing-data file from a checkout of Virtual Radar
/// Server's standing-data repository (schema-01 of routes, airports, airlines,
/// model types and aircraft), so a user can refresh what the kiosk ships.
public enum StandingDataImport {
    /// What an import read and wrote, for its one-line report.
    public struct Summary: Sendable {
        public var airports = 0, airlines = 0, types = 0, aircraft = 0, routes = 0, skippedRoutes = 0, addressBlocks = 0, bytes = 0
    }

    public static func run(from directory: String, to path: String) throws -> Summary {
        var summary = Summary()
        let root = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        guard !csvFiles(under: root + "/routes/schema-01").isEmpty else {
            throw StandingDataError("\(directory): no routes/schema-01/*/*.csv: not a checkout of the standing-data repository")
        }

        var strings = StringTable()
        // Airports, by the code routes use, with the city a journey names.
        var airports: [(key: UInt32, iata: UInt32, lat: Float, lon: Float, city: (UInt32, UInt16))] = []
        for file in csvFiles(under: root + "/airports/schema-01") {
            for row in try rows(file, columns: ["Code", "IATA", "Latitude", "Longitude", "Location"]) {
                guard let key = StandingDataFormat.key(row[0]), let lat = Double(row[2]), let lon = Double(row[3]),
                      lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else { continue }
                let city = row[4].isEmpty ? (0, 0) : strings.add(String(row[4].prefix(StandingData.Airport.cityLength)))
                airports.append((key, row[1].utf8.count == 3 ? StandingDataFormat.key(row[1]) ?? 0 : 0, Float(lat), Float(lon), city))
            }
        }
        airports.sort { $0.key < $1.key }
        airports = dedupe(airports) { $0.key }
        summary.airports = airports.count
        guard airports.count <= Int(UInt16.max) else { throw StandingDataError("\(directory): more airports than the file format holds") }
        var airportIndex: [UInt32: UInt16] = [:]
        for (i, a) in airports.enumerated() { airportIndex[a.key] = UInt16(i) }

        // Airlines by their code, and IATA → airline for callsigns flown with the IATA code.
        var airlines: [(key: UInt32, name: (UInt32, UInt16), icao: String, iata: String)] = []
        for row in try rows(root + "/airlines/schema-01/airlines.csv", columns: ["Code", "Name", "ICAO", "IATA"]) {
            guard let key = StandingDataFormat.key(row[0]), !row[1].isEmpty else { continue }
            airlines.append((key, strings.add(row[1]), row[2], row[3]))
        }
        airlines.sort { $0.key < $1.key }
        airlines = dedupe(airlines) { $0.key }
        summary.airlines = airlines.count

        // Types: the active rows first, and among them the airliner's name over a business-jet variant's.
        var typeRows: [UInt32: [(name: String, active: Bool, species: UInt8, order: Int)]] = [:]
        var order = 0
        for file in csvFiles(under: root + "/model-type/schema-01") {
            for row in try rows(file, columns: ["ICAO", "Manufacturer", "Model", "SpeciesCode", "IsActive"]) {
                guard !row[0].hasPrefix("-"), let key = StandingDataFormat.key(row[0]), !row[2].isEmpty else { continue }
                let name = row[1].isEmpty ? row[2] : "\(row[1]) \(row[2])"
                typeRows[key, default: []].append((name, row[4] == "1", row[3].utf8.first ?? 0, order))
                order += 1
            }
        }
        func rank(_ r: (name: String, active: Bool, species: UInt8, order: Int)) -> (Int, Int, Int) {
            let variant = ["BBJ", "ACJ", "VIP", "Business Jet", "Corporate"].contains { r.name.contains($0) }
            return (r.active ? 0 : 1, variant ? 1 : 0, r.order)
        }
        let types = typeRows.map { key, rows -> (key: UInt32, name: (UInt32, UInt16), species: UInt8) in
            let best = rows.min { rank($0) < rank($1) }!
            return (key, strings.add(best.name), best.species)
        }.sorted { $0.key < $1.key }
        summary.types = types.count

        // The sparse aircraft table.
        var aircraft: [(address: UInt32, type: UInt32, registration: (UInt32, UInt16))] = []
        for file in csvFiles(under: root + "/aircraft/schema-01") {
            for row in try rows(file, columns: ["ICAO", "Registration", "ModelICAO"]) {
                guard row[0].utf8.count == 6, let address = UInt32(row[0], radix: 16) else { continue }
                let type = row[2].hasPrefix("-") ? 0 : StandingDataFormat.key(row[2]) ?? 0
                aircraft.append((address, type, row[1].isEmpty ? (0, 0) : strings.add(row[1])))
            }
        }
        aircraft.sort { $0.address < $1.address }
        aircraft = dedupe(aircraft) { $0.address }
        summary.aircraft = aircraft.count

        let addressBlocks = try Self.addressBlocks(root, strings: &strings)
        summary.addressBlocks = addressBlocks.count

        // Routes: per airline, sorted by number; leg lists shared between callsigns that fly the same airports.
        var routesByAirline: [UInt32: [(number: UInt32, legs: UInt32)]] = [:]
        var legs: [UInt16] = []
        var legIndex: [[UInt16]: UInt32] = [:]
        // How many scheduled routes call at each airport: the data has no
        // airport sizes, and this tells a hub from an airfield.
        var calls = [UInt16](repeating: 0, count: airports.count)
        for file in csvFiles(under: root + "/routes/schema-01") {
            for row in try rows(file, columns: ["Code", "Number", "AirportCodes"]) {
                let codes = row[2].split(separator: "-")
                let indices = codes.compactMap { StandingDataFormat.key($0).flatMap { airportIndex[$0] } }
                guard let airline = StandingDataFormat.key(row[0]), let number = StandingDataFormat.key(row[1]),
                      indices.count == codes.count, indices.count >= 2, indices.count < 64 else {
                    summary.skippedRoutes += 1
                    continue
                }
                for i in indices where calls[Int(i)] < UInt16.max { calls[Int(i)] += 1 }
                let at: UInt32
                if let known = legIndex[indices] { at = known } else {
                    at = UInt32(legs.count)
                    legs.append(UInt16(indices.count))
                    legs.append(contentsOf: indices)
                    legIndex[indices] = at
                }
                routesByAirline[airline, default: []].append((number, at))
            }
        }
        var blocks: [(airline: UInt32, first: UInt32, count: UInt32)] = []
        var routes: [(number: UInt32, legs: UInt32)] = []
        for airline in routesByAirline.keys.sorted() {
            let list = dedupe(routesByAirline[airline]!.sorted { $0.number < $1.number }) { $0.number }
            blocks.append((airline, UInt32(routes.count), UInt32(list.count)))
            routes.append(contentsOf: list)
        }
        summary.routes = routes.count

        // IATA → ICAO, for callsigns flown with the IATA code. IATA codes are
        // reused (U2 is easyJet's and a defunct feeder's): the airline with the
        // most routes has it; a tie cannot be decided and is left out.
        let routeCount = Dictionary(uniqueKeysWithValues: blocks.map { ($0.airline, Int($0.count)) })
        var byIATA: [UInt32: [(airline: UInt32, routes: Int)]] = [:]
        for (i, a) in airlines.enumerated() where a.icao.utf8.count == 3 && a.iata.utf8.count == 2 && StandingDataFormat.key(a.icao) == a.key {
            if let k = StandingDataFormat.key(a.iata) { byIATA[k, default: []].append((UInt32(i), routeCount[a.key] ?? 0)) }
        }
        let iata: [(key: UInt32, airline: UInt32)] = byIATA.compactMap { key, candidates in
            let ranked = candidates.sorted { $0.routes > $1.routes }
            if ranked.count > 1 && ranked[0].routes == ranked[1].routes { return nil }
            return (key, ranked[0].airline)
        }.sorted { $0.key < $1.key }

        // Write: header, then each table, 4-byte aligned.
        var out = ByteWriter()
        out.bytes.append(contentsOf: StandingDataFormat.magic)
        var header = [UInt32](repeating: 0, count: StandingDataFormat.Field.allCases.count)
        out.bytes.append(contentsOf: [UInt8](repeating: 0, count: header.count * 4))
        func table(_ offset: StandingDataFormat.Field, _ count: StandingDataFormat.Field, _ n: Int, _ write: (inout ByteWriter) -> Void) {
            out.align(4)
            header[offset.rawValue] = UInt32(out.bytes.count)
            header[count.rawValue] = UInt32(n)
            write(&out)
        }
        table(.airportsOffset, .airportsCount, airports.count) { w in
            for (i, a) in airports.enumerated() {
                w.u32(a.key); w.u32(a.iata); w.u32(a.lat.bitPattern); w.u32(a.lon.bitPattern)
                w.u32(a.city.0); w.u16(a.city.1); w.u16(calls[i])
            }
        }
        table(.airlinesOffset, .airlinesCount, airlines.count) { w in
            for a in airlines { w.u32(a.key); w.u32(a.name.0); w.u16(a.name.1); w.u16(0) }
        }
        table(.iataOffset, .iataCount, iata.count) { w in for i in iata { w.u32(i.key); w.u32(i.airline) } }
        table(.typesOffset, .typesCount, types.count) { w in
            for t in types { w.u32(t.key); w.u32(t.name.0); w.u16(t.name.1); w.bytes.append(t.species); w.bytes.append(0) }
        }
        table(.aircraftOffset, .aircraftCount, aircraft.count) { w in
            for a in aircraft { w.u32(a.address); w.u32(a.type); w.u32(a.registration.0); w.u16(a.registration.1); w.u16(0) }
        }
        table(.blocksOffset, .blocksCount, blocks.count) { w in for b in blocks { w.u32(b.airline); w.u32(b.first); w.u32(b.count) } }
        table(.routesOffset, .routesCount, routes.count) { w in for r in routes { w.u32(r.number); w.u32(r.legs) } }
        table(.legsOffset, .legsCount, legs.count) { w in for l in legs { w.u16(l) } }
        table(.stringsOffset, .stringsLength, strings.bytes.count) { w in w.bytes.append(contentsOf: strings.bytes) }
        table(.addressBlocksOffset, .addressBlocksCount, addressBlocks.count) { w in
            for b in addressBlocks {
                w.u32(b.start); w.bytes.append(contentsOf: b.country); w.bytes.append(b.military ? 1 : 0); w.bytes.append(0)
                w.u32(b.name.0); w.u16(b.name.1); w.u16(0)
            }
        }
        for (i, v) in header.enumerated() { out.put(v, at: StandingDataFormat.magic.count + i * 4) }
        summary.bytes = out.bytes.count
        try write(out.bytes, to: path)
        return summary
    }

    /// An address block as the file keeps it: from `start` to the next block's start.
    typealias AddressBlock = (start: UInt32, country: [UInt8], military: Bool, name: (UInt32, UInt16))

    /// The ICAO address blocks (code-blocks, with the countries' names),
    /// flattened: the CSV's blocks nest (43C000-43FFFF, British military,
    /// inside 400000-43FFFF, the United Kingdom, with single addresses inside
    /// that), and each address belongs to the smallest block that holds it.
    /// Neighbours that say the same are merged. Empty for a checkout without
    /// code blocks (an older one): the card then names no country.
    static func addressBlocks(_ root: String, strings: inout StringTable) throws -> [AddressBlock] {
        let file = root + "/code-blocks/schema-01/code-blocks.csv"
        guard access(file, F_OK) == 0 else { return [] }
        var names: [String: String] = [:]
        let countries = root + "/countries/schema-01/countries.csv"
        if access(countries, F_OK) == 0 {
            for row in try rows(countries, columns: ["ISO", "Name"]) where row[0].utf8.count == 2 { names[row[0]] = row[1] }
        }
        var blocks: [(start: UInt32, end: UInt32, military: Bool, country: String)] = []
        for row in try rows(file, columns: ["Start", "Finish", "IsMilitary", "CountryISO2"]) {
            guard let start = UInt32(row[0], radix: 16), let end = UInt32(row[1], radix: 16), start <= end, end <= 0xFF_FFFF else { continue }
            // ZZ is the data's "unknown or unassigned": no country, as where no block is.
            let country = row[3].utf8.count == 2 && row[3] != "ZZ" && row[3].utf8.allSatisfy({ $0 >= 65 && $0 <= 90 }) ? row[3] : ""
            blocks.append((start, end, row[2] == "1", country))
        }
        // Each boundary starts an interval; the smallest block holding its start holds all of it.
        var starts = Set<UInt32>([0])
        for b in blocks {
            starts.insert(b.start)
            if b.end < 0xFF_FFFF { starts.insert(b.end + 1) }
        }
        var out: [AddressBlock] = []
        var last: (country: String, military: Bool)?
        for start in starts.sorted() {
            let holder = blocks.filter { $0.start <= start && start <= $0.end }.min { $0.end - $0.start < $1.end - $1.start }
            let says = (country: holder?.country ?? "", military: holder?.military ?? false)
            if let last, last == says { continue }
            last = says
            let name = names[says.country].map { strings.add($0) } ?? (0, 0)
            out.append((start, says.country.isEmpty ? [0, 0] : Array(says.country.utf8), says.military, name))
        }
        return out
    }

    /// Every .csv below `directory`, in name order.
    static func csvFiles(under directory: String) -> [String] {
        var files: [String] = []
        for path in Directory.entries(of: directory).sorted() {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            if name.hasSuffix(".csv") { files.append(path) } else if !name.contains(".") { files += csvFiles(under: path) }
        }
        return files
    }

    /// The rows of `file`, each cut to the named columns (found by the header, so new columns are ignored).
    static func rows(_ file: String, columns: [String]) throws -> [[String]] {
        var records = CSVRecords(try FileContents.bytes(file, limit: 64 << 20))
        let header = records.header()
        let indices = try columns.map { name -> Int in
            guard let i = header.firstIndex(of: name) else { throw StandingDataError("\(file): no column \(name)") }
            return i
        }
        var result: [[String]] = []
        while let row = records.next() {
            guard row.count >= header.count || row.count > (indices.max() ?? 0) else { continue }
            result.append(indices.map { row[$0] })
        }
        return result
    }

    static func dedupe<T, K: Equatable>(_ sorted: [T], by key: (T) -> K) -> [T] {
        var out: [T] = []
        for item in sorted where out.last.map({ key($0) != key(item) }) ?? true { out.append(item) }
        return out
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        let temporary = path + ".new"
        let file: FileDescriptor
        do { file = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644) } catch let e as SystemError {
            throw StandingDataError("\(path): cannot write (\(e.reason))")
        }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { file.write(UnsafeRawBufferPointer(rebasing: $0[written...])) }
            guard case let .bytes(n) = result, n > 0 else { throw StandingDataError("\(path): cannot write") }
            written += n
        }
        file.close()
        guard rename(temporary, path) == 0 else { throw StandingDataError("\(path): cannot replace (\(SystemError.lastReason))") }
    }
}

/// Names stored once each, as (offset, length) into one UTF-8 blob.
struct StringTable {
    var bytes: [UInt8] = []
    private var known: [String: (UInt32, UInt16)] = [:]

    mutating func add(_ s: String) -> (UInt32, UInt16) {
        if let k = known[s] { return k }
        let utf8 = Array(s.utf8.prefix(Int(UInt16.max)))
        let entry = (UInt32(bytes.count), UInt16(utf8.count))
        bytes.append(contentsOf: utf8)
        known[s] = entry
        return entry
    }
}

/// Little-endian bytes, appended.
struct ByteWriter {
    var bytes: [UInt8] = []
    mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func align(_ n: Int) { while bytes.count % n != 0 { bytes.append(0) } }
    mutating func put(_ v: UInt32, at offset: Int) {
        withUnsafeBytes(of: v.littleEndian) { for (i, b) in $0.enumerated() { bytes[offset + i] = b } }
    }
}
