import Testing
import JSON
@testable import Feed

/// What a misbehaving receiver can send never reaches the card unchecked:
/// numbers are finite and plausible, strings short and printable, tables bounded.
@Suite struct HostileInputTests {
    func report(_ fields: String) throws -> AircraftReport {
        let snapshot = try AircraftJSON.parse(Array(#"{"now":1700000000,"aircraft":[{"hex":"4ca123",\#(fields)}]}"#.utf8))
        return try #require(snapshot.aircraft.first)
    }

    @Test func aircraftJSONNumbersOutsideTheirRangeAreUnknown() throws {
        let r = try report(#""gs":1e300,"track":-5,"alt_baro":1e300,"seen":-1,"lat":91,"lon":0"#)
        #expect(r.groundSpeedKnots == nil && r.trackDegrees == nil && r.altitudeFeet == nil && r.age == nil && !r.hasPosition)
        let ok = try report(#""gs":487.4,"track":274,"alt_baro":-0.0,"seen":1.5,"lat":51.47,"lon":-0.45,"seen_pos":2"#)
        #expect(ok.groundSpeedKnots == 487.4 && ok.trackDegrees == 274 && ok.altitudeFeet == 0 && ok.age == 1.5 && ok.positionAge == 2)
    }

    @Test func aircraftJSONStringsAreCleanedAtTheParser() throws {
        let r = try report(#""flight":"\nSTOPPING=1\n","r":"G-EUUA","t":"b789 ","squawk":"7700\n","category":"A5""#)
        #expect(r.callsign == nil, "a callsign with control characters is not a callsign")
        #expect(r.registration == "G-EUUA" && r.typeCode == "B789" && r.squawk == nil && r.category == "A5")
        #expect(try report(#""flight":"BAW283  ""#).callsign == "BAW283")
        #expect(try report(#""flight":"ABCDEFGHIJKLMNOP""#).callsign == nil, "too long")
    }

    @Test(arguments: ["nan", "inf", "-inf", "1e300", "0x3C", "+90", "NaN"])
    func sbsNumbersThatAreNotPlainDecimalsAreIgnored(_ bad: String) {
        var decoder = SBS1Decoder()
        let accepted = decoder.feed("MSG,3,1,1,4CA123,1,2024/01/01,00:00:00.000,2024/01/01,00:00:00.000,,\(bad),\(bad),\(bad),\(bad),\(bad),,,0,0,0,0", at: 0)
        #expect(accepted)
        let r = decoder.snapshot(at: 1).aircraft.first
        #expect(r?.altitudeFeet == nil && r?.groundSpeedKnots == nil && r?.trackDegrees == nil && r?.hasPosition == false)
        #expect(PlainNumber.parse(bad) == nil)
    }

    @Test func theSBSTableIsBounded() {
        var decoder = SBS1Decoder()
        decoder.capacity = 1000
        for i in 0..<20_000 {
            let hex = String(0x100000 + i, radix: 16)
            decoder.feed(Substring("MSG,3,1,1,\(hex),1,,,,,,3000,,,51.0,0.1,,,0,0,0,0"), at: Double(i) / 1000)
        }
        #expect(decoder.count <= 1000)
        // The ones heard from most recently are the ones kept.
        let kept = decoder.snapshot(at: 20).aircraft
        #expect(kept.contains { $0.hex == String(0x100000 + 19_999, radix: 16) })
    }
}
