import Testing
import Foundation
import Feed
import SystemIO
@testable import StandingData

/// The standing data on the real files: an excerpt of Virtual Radar Server's
/// CSVs (Fixtures, CC0) imported here, and the file the kiosk ships. Expected
/// values are read from the CSVs, not written into the tests.
@Suite struct StandingDataTests {
    static let root: String = {
        let parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        return parts.prefix(while: { $0 != "Tests" }).joined(separator: "/")
    }()
    static let fixtures = root + "/Tests/StandingDataTests/Fixtures/standing-data"
    static let shipped = root + "/Data/" + StandingData.fileName

    let imported: StandingData
    let summary: StandingDataImport.Summary

    init() throws {
        let path = NSTemporaryDirectory() + "rk-standing-\(getpid())-\(UUID().uuidString).rksd"
        summary = try StandingDataImport.run(from: Self.fixtures, to: path)
        imported = try StandingData(path: path)
        unlink(path)   // the mapping stays valid
    }

    /// The rows of a fixture CSV, as dictionaries by column name.
    func csv(_ relative: String) throws -> [[String: String]] {
        var records = CSVRecords(try FileContents.bytes(Self.fixtures + "/" + relative))
        let header = records.header()
        var rows: [[String: String]] = []
        while let row = records.next() {
            if row.count == header.count { rows.append(Dictionary(uniqueKeysWithValues: zip(header, row))) }
        }
        return rows
    }

    @Test func everyRouteOfTheExcerptIsFoundAsTheCSVSaysIt() throws {
        let airports = Set(try ["E/EG", "K/KL", "O/OT", "O/OB"].flatMap { try csv("airports/schema-01/\($0).csv") }.map { $0["Code"]! })
        var checked = 0
        for row in try csv("routes/schema-01/B/BAW-all.csv") {
            let codes = row["AirportCodes"]!.split(separator: "-").map(String.init)
            guard codes.allSatisfy(airports.contains) else { continue }
            let route = imported.route(forCallsign: row["Callsign"]!)
            #expect(route?.airports.map(\.code) == codes, "\(row["Callsign"]!)")
            checked += 1
        }
        #expect(checked > 100, "routes between the excerpt's airports: \(checked)")
        #expect(summary.skippedRoutes > 0, "routes to airports outside the excerpt are skipped, not invented")
    }

    @Test func baw283IsHeathrowToLosAngelesFlownByBritishAirways() throws {
        let row = try #require(try csv("routes/schema-01/B/BAW-all.csv").first { $0["Callsign"] == "BAW283" })
        let codes = row["AirportCodes"]!.split(separator: "-").map(String.init)
        let airportRows = try ["E/EG", "K/KL"].flatMap { try csv("airports/schema-01/\($0).csv") }
        let route = try #require(imported.route(forCallsign: "BAW283"))
        for (airport, code) in zip(route.airports, codes) {
            let want = try #require(airportRows.first { $0["Code"] == code })
            #expect(airport.iata == want["IATA"] && airport.shortName == want["IATA"])
            #expect(abs(airport.position.latitude - Double(want["Latitude"]!)!) < 1e-4)
            #expect(abs(airport.position.longitude - Double(want["Longitude"]!)!) < 1e-4)
        }
        #expect(route.airports.map(\.shortName) == ["LHR", "LAX"], "what the data says today")
        let airline = try #require(try csv("airlines/schema-01/airlines.csv").first { $0["Code"] == "BAW" })
        #expect(imported.airlineName(code: "BAW") == airline["Name"])
        // Callsigns as transponders send them: padded, lower case, leading zeros.
        #expect(imported.route(forCallsign: "baw0283") == route)
    }

    @Test func anAirportKeepsItsCityAndHowManyRoutesCallThere() throws {
        let airports = try ["E/EG", "K/KL", "O/OT", "O/OB"].flatMap { try csv("airports/schema-01/\($0).csv") }
        let codes = Set(airports.map { $0["Code"]! })
        // The routes the import keeps: every airport of them in the excerpt.
        let kept = try ["B/BAW-all.csv", "E/EZY-1.csv"].flatMap { try csv("routes/schema-01/\($0)") }
            .map { $0["AirportCodes"]!.split(separator: "-").map(String.init) }.filter { $0.allSatisfy(codes.contains) }
        for code in ["EGLL", "KLAX", "EGKK"] {
            let row = try #require(airports.first { $0["Code"] == code })
            let airport = try #require(imported.airport(code: code))
            #expect(airport.city == row["Location"] && airport.city?.isEmpty == false, "\(code): \(airport.city ?? "none")")
            let calls = kept.reduce(0) { $0 + $1.filter { $0 == code }.count }
            #expect(airport.routeCount == calls && calls > 0, "\(code): \(airport.routeCount) routes, the rows say \(calls)")
        }
        // An airfield no route calls at.
        let quiet = try #require(airports.first { row in !kept.contains { $0.contains(row["Code"]!) } })
        #expect(imported.airport(code: quiet["Code"]!)?.routeCount == 0)
    }

    @Test func aTypeIsNamedByItsActiveAirlinerRow() throws {
        let rows = try csv("model-type/schema-01/B.csv").filter { $0["ICAO"] == "B789" }
        #expect(rows.count > 1, "the data has several names for B789")
        // The rule: active rows first, then not a business-jet variant, then the file's order.
        let variants = ["BBJ", "ACJ", "VIP", "Business Jet", "Corporate"]
        let best = rows.enumerated().min { a, b in
            func rank(_ r: (offset: Int, element: [String: String])) -> (Int, Int, Int) {
                let name = r.element["Model"]!
                return (r.element["IsActive"] == "1" ? 0 : 1, variants.contains { name.contains($0) } ? 1 : 0, r.offset)
            }
            return rank(a) < rank(b)
        }!.element
        let type = try #require(imported.aircraftType(designator: "B789"))
        #expect(type.name == "\(best["Manufacturer"]!) \(best["Model"]!)", "\(type.name)")
        #expect(type.species == Character(best["SpeciesCode"]!))
        #expect(imported.aircraftType(designator: "ZZZZ") == nil && imported.aircraftType(designator: "") == nil)
    }

    @Test func anUnknownCallsignOrAddressFindsNothing() {
        for callsign in ["BAW9999", "XYZ123", "N123AB", "", "B", "BAW", "BAW12345", "BA W283", "BAWABC"] {
            #expect(imported.route(forCallsign: callsign) == nil, "\(callsign)")
        }
        #expect(imported.airlineName(code: "QQQ") == nil)
        #expect(imported.aircraft(address: "000001") == nil && imported.aircraft(address: "zzzzzz") == nil)
    }

    @Test func theSparseAircraftTableGivesRegistrationAndType() throws {
        let row = try #require(try csv("aircraft/schema-01/4/40/400.csv").first { !($0["ModelICAO"] ?? "").isEmpty })
        let record = try #require(imported.aircraft(address: row["ICAO"]!.lowercased()))
        #expect(record.registration == row["Registration"] && record.typeDesignator == row["ModelICAO"])
    }

    @Test func callsignsAreNormalisedAsTheReadmeSays() throws {
        func key(_ s: String) -> (UInt32, UInt32)? { imported.normalise(s).map { ($0.airline, $0.number) } }
        func want(_ airline: String, _ number: String) -> (UInt32, UInt32) {
            (StandingDataFormat.key(airline)!, StandingDataFormat.key(number)!)
        }
        // The README's table (EZY has the IATA code U2 in airlines.csv).
        let ezy = try #require(try csv("airlines/schema-01/airlines.csv").first { $0["ICAO"] == "EZY" })
        #expect(ezy["IATA"] == "U2")
        for (before, after) in [("EZY1200", ("EZY", "1200")), ("EZY0001", ("EZY", "1")), ("EZY0000", ("EZY", "0")),
                                ("EZY00AB", ("EZY", "0AB")), ("U21234", ("EZY", "1234"))] {
            #expect(key(before).map { [$0.0, $0.1] } == [want(after.0, after.1).0, want(after.0, after.1).1], "\(before)")
        }
        for invalid in ["EZY12345", "EZY1A2", "EZYABC", "EZY1ABC"] { #expect(key(invalid) == nil, "\(invalid)") }
    }

    /// `cp` over the file while it is mapped truncates it first: a lookup
    /// then touching a page that is gone would be a SIGBUS. Lookups stop instead.
    @Test func aFileCutShortUnderTheKioskAnswersNothingAndDoesNotCrash() throws {
        let path = NSTemporaryDirectory() + "rk-cut-\(getpid())-\(UUID().uuidString).rksd"
        _ = try StandingDataImport.run(from: Self.fixtures, to: path)
        defer { unlink(path) }
        let data = try StandingData(path: path)
        let callsign = try #require(try csv("routes/schema-01/B/BAW-all.csv").map { $0["Callsign"]! }.first { data.route(forCallsign: $0) != nil })
        #expect(data.route(forCallsign: callsign) != nil)
        #expect(truncate(path, 0) == 0)
        #expect(data.route(forCallsign: callsign) == nil, "no lookup past the end of the file")
        #expect(data.airport(code: "EGLL") == nil && data.airlineName(code: "BAW") == nil && data.aircraftType(designator: "B789") == nil
                && data.aircraft(address: "400000") == nil)
    }

    /// A file whose header passes but whose records lie: an airline's block of
    /// routes pointing past the routes table (past the file's end), then
    /// thousands of random byte flips. Every lookup answers or finds nothing;
    /// none reads outside the file (a debug build traps on that, a release
    /// build could read another mapping's bytes or fault).
    @Test func recordsThatPointOutOfTheFileAreNeverFollowed() throws {
        let path = NSTemporaryDirectory() + "rk-lying-\(getpid())-\(UUID().uuidString).rksd"
        _ = try StandingDataImport.run(from: Self.fixtures, to: path)
        defer { unlink(path) }
        let whole = try FileContents.bytes(path)
        func header(_ f: StandingDataFormat.Field) -> Int {
            whole.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: StandingDataFormat.magic.count + f.rawValue * 4, as: UInt32.self).littleEndian) }
        }
        let callsigns = try csv("routes/schema-01/B/BAW-all.csv").prefix(50).map { $0["Callsign"]! } + ["EZY12", "DLH4AB", "U21234", "KLM1"]
        func lookEverywhere(_ data: StandingData) {
            for c in callsigns { _ = data.route(forCallsign: c) }
            for code in ["EGLL", "KLAX", "LHR", "ZZZZ"] { _ = data.airport(code: code) }
            for code in ["BAW", "EZY", "DLH"] { _ = data.airlineName(code: code) }
            for t in ["B789", "A320", "C172"] { _ = data.aircraftType(designator: t) }
            for a in ["400000", "4ca7b5", "a54b30", "ffffff"] {
                _ = data.aircraft(address: a)
                _ = data.addressBlock(address: a)
            }
        }
        func written(_ bytes: [UInt8]) throws -> StandingData? {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return try? StandingData(path: path)
        }
        // Each airline block: key, first route, route count. Point them all far out.
        var lying = whole
        for block in 0..<header(.blocksCount) {
            let base = header(.blocksOffset) + block * StandingDataFormat.blockSize
            for (at, value) in [(4, UInt32(0x7FFF_FFF0)), (8, UInt32(0x0FFF_FFFF))] {
                withUnsafeBytes(of: value.littleEndian) { for k in 0..<4 { lying[base + at + k] = $0[k] } }
            }
        }
        let opened = try #require(try written(lying), "the header is intact: the file opens")
        #expect(callsigns.allSatisfy { opened.route(forCallsign: $0) == nil }, "no route from blocks that point outside the table")
        #expect(opened.airport(code: "EGLL") != nil, "what does not go through the blocks still answers")
        // Random flips after the header, seeded so that a failure is repeatable.
        var generator = SplitMix64(seed: 0x5EED_0040)
        for _ in 0..<200 {
            var flipped = whole
            for _ in 0..<64 {
                let at = StandingDataFormat.headerSize + Int(generator.next() % UInt64(whole.count - StandingDataFormat.headerSize))
                flipped[at] ^= UInt8(truncatingIfNeeded: generator.next() | 1)
            }
            if let data = try written(flipped) { lookEverywhere(data) }
        }
    }

    @Test func everyAddressIsTheCountryAndServiceOfTheSmallestBlockThatHoldsIt() throws {
        let blocks = try csv("code-blocks/schema-01/code-blocks.csv").map {
            (start: UInt32($0["Start"]!, radix: 16)!, end: UInt32($0["Finish"]!, radix: 16)!, military: $0["IsMilitary"] == "1", country: $0["CountryISO2"]!)
        }
        let names = Dictionary(uniqueKeysWithValues: try csv("countries/schema-01/countries.csv").map { ($0["ISO"]!, $0["Name"]!) })
        #expect(blocks.count > 800 && summary.addressBlocks > 0, "\(blocks.count) blocks, \(summary.addressBlocks) records")
        // Each block's ends, its middle and the addresses either side: where nesting makes the answer change.
        var addresses = Set<UInt32>()
        for b in blocks {
            for a in [b.start, b.end, b.start / 2 + b.end / 2, b.start &- 1, b.end + 1] where a <= 0xFF_FFFF { addresses.insert(a) }
        }
        var checked = 0, military = 0
        for address in addresses {
            let hex = String(address, radix: 16).leftPadded(to: 6)
            let holder = blocks.filter { $0.start <= address && address <= $0.end }.min { $0.end - $0.start < $1.end - $1.start }
            let want = holder.map { $0.country == "ZZ" ? nil : $0.country } ?? nil
            let got = imported.addressBlock(address: hex)
            #expect(got?.countryCode == want, "\(hex)")
            #expect(got?.countryName == want.flatMap { names[$0] }, "\(hex)")
            #expect(got?.isMilitary ?? false == holder?.military ?? false, "\(hex)")
            #expect(imported.isMilitary(address: hex) == holder?.military ?? false, "\(hex)")
            #expect(imported.addressBlock(address: hex.uppercased()) == got)
            checked += 1
            if holder?.military == true { military += 1 }
        }
        #expect(checked > 2000 && military > 500, "\(checked) addresses, \(military) military")
        // The RAF's block inside the United Kingdom's; a TIS-B pseudo-address has no block.
        #expect(imported.addressBlock(address: "43c123") == StandingData.AddressBlock(countryCode: "GB", countryName: "United Kingdom", isMilitary: true))
        #expect(imported.addressBlock(address: "400123")?.isMilitary == false)
        for bad in ["~43c123", "43c12", "43c1234", "zzzzzz", ""] { #expect(imported.addressBlock(address: bad) == nil, "\(bad)") }
    }

    @Test func theShippedFileIsTheSameSnapshot() throws {
        let shipped = try StandingData(path: Self.shipped)
        #expect(shipped.routeCount > 500_000 && shipped.airportCount > 30_000, "\(shipped.routeCount) routes, \(shipped.airportCount) airports")
        // Every BAW route the excerpt can resolve is in the shipped file, the same.
        for row in try csv("routes/schema-01/B/BAW-all.csv").prefix(400) {
            if let mine = imported.route(forCallsign: row["Callsign"]!) {
                #expect(shipped.route(forCallsign: row["Callsign"]!)?.airports.map(\.code) == mine.airports.map(\.code))
            }
        }
        #expect(shipped.airlineName(code: "BAW") == imported.airlineName(code: "BAW"))
        #expect(shipped.aircraftType(designator: "B789") == imported.aircraftType(designator: "B789"))
        for address in ["43c123", "4ca7b5", "ae1234", "a54b30", "000001"] {
            #expect(shipped.addressBlock(address: address) == imported.addressBlock(address: address), "\(address)")
        }
    }

    @Test func aFileThatIsNotOursOrIsCutShortIsRefusedByName() throws {
        let path = NSTemporaryDirectory() + "rk-bad-\(getpid()).rksd"
        defer { unlink(path) }
        try Data("not a table".utf8).write(to: URL(fileURLWithPath: path))
        let notOurs = #expect(throws: StandingDataError.self) { try StandingData(path: path) }
        #expect(notOurs?.description.contains("\(path): not a radar-kiosk standing-data file") == true)
        let whole = try Data(contentsOf: URL(fileURLWithPath: Self.shipped))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path))
        let cut = #expect(throws: StandingDataError.self) { try StandingData(path: path) }
        #expect(cut?.description.contains("truncated or corrupt") == true)
        #expect(throws: FileContentsError.self) { try StandingData(path: "/nonexistent/x.rksd") }
    }
}

extension String {
    func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(length - count, 0)) + self }
}

/// A small seeded generator (SplitMix64), so that random corruption repeats.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
