import Testing
import Foundation
import JSON
@testable import Feed
#if canImport(Glibc)
import Glibc
#endif

/// Real captures (Fixtures/SOURCES.md): parsed counts are checked against
/// counts the test derives itself from the raw JSON, and against the facts the
/// sources document.
@Suite struct FeedParsingTests {
    static let fixtures: String = {
        let parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        return parts.dropLast().joined(separator: "/") + "/Fixtures/"
    }()

    static func bytes(_ name: String) throws -> [UInt8] {
        let fd = open(fixtures + name, O_RDONLY)
        guard fd >= 0 else { throw AircraftJSON.Failure(description: "cannot open \(name)") }
        defer { close(fd) }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            data.append(contentsOf: chunk[0..<n])
        }
        return data
    }

    /// Counts taken straight from the JSON, without the parser under test.
    struct RawCounts: Equatable {
        var entries = 0, freshPositions = 0, ground = 0, callsigns = 0, paddedCallsigns = 0
    }

    func rawCounts(_ json: JSONValue) -> RawCounts {
        var c = RawCounts()
        for entry in json["aircraft"]?.arrayValue ?? [] {
            guard let o = entry.objectValue, o["hex"] != nil else { continue }
            c.entries += 1
            if o["lat"] != nil, o["lon"] != nil, (o["seen_pos"]?.doubleValue ?? 0) <= 60 { c.freshPositions += 1 }
            if (o["alt_baro"] ?? o["altitude"])?.stringValue == "ground" { c.ground += 1 }
            if let f = o["flight"]?.stringValue, f.contains(where: { $0 != " " }) {
                c.callsigns += 1
                if f.hasSuffix(" ") { c.paddedCallsigns += 1 }
            }
        }
        return c
    }

    @Test(arguments: ["readsb_overirvine_170ac.json", "dump1090fa_plord12_44ac.json"])
    func parsesEveryCapture(name: String) throws {
        let data = try Self.bytes(name)
        let snapshot = try AircraftJSON.parse(data)
        let raw = rawCounts(try JSONParser.parse(data))
        #expect(snapshot.aircraft.count == raw.entries)
        #expect(snapshot.aircraft.filter { $0.hasPosition && ($0.positionAge ?? 0) <= 60 }.count == raw.freshPositions)
        #expect(snapshot.aircraft.filter(\.onGround).count == raw.ground)
        #expect(snapshot.aircraft.compactMap(\.callsign).count == raw.callsigns)
        #expect(snapshot.aircraft.compactMap(\.callsign).allSatisfy { !$0.hasSuffix(" ") && !$0.hasPrefix(" ") && !$0.isEmpty })
        #expect(snapshot.aircraft.filter(\.onGround).allSatisfy { $0.altitudeFeet == nil })
    }

    @Test func readsbCaptureHasTheDocumentedQuirks() throws {
        let s = try AircraftJSON.parse(try Self.bytes("readsb_overirvine_170ac.json"))
        // baro_rate, else geom_rate; "emergency": "none" is no emergency.
        let first = try #require(s.aircraft.first { $0.hex == "ab012b" })
        #expect(first.verticalRateFeetPerMinute == 1600 && first.emergency == nil)
        #expect(s.aircraft.first { $0.hex == "ab5f87" }?.verticalRateFeetPerMinute == 0)
        #expect(s.aircraft.count == 170)
        #expect(s.aircraft.filter(\.onGround).count == 53)
        #expect(s.aircraft.filter { $0.hex.hasPrefix("~") }.count == 60)
        #expect(s.aircraft.filter { !$0.hasPosition }.count == 23)
        #expect(s.aircraft.contains { $0.callsign == "UNKN" })
        #expect(s.now == 1_643_337_806.2)
    }

    @Test func dump1090CaptureHasTheDocumentedQuirks() throws {
        let s = try AircraftJSON.parse(try Self.bytes("dump1090fa_plord12_44ac.json"))
        #expect(s.aircraft.count == 44)
        #expect(s.aircraft.filter { !$0.hasPosition }.count == 19)
        #expect(s.aircraft.contains { $0.positionAge == 61.1 })
        #expect(s.aircraft.contains { $0.callsign == "GLOCH" })
    }

    @Test func otherShapesAndBrokenInput() throws {
        // Older dump1090 keys, the API v2 shape (ms), empty objects, ground strings.
        let legacy = try AircraftJSON.parse(Array(#"{"now":100,"aircraft":[{"hex":"ABC123","altitude":"ground","speed":12},{},{"hex":"def456","altitude":12000,"flight":"   "}]}"#.utf8))
        #expect(legacy.aircraft.count == 2)
        #expect(legacy.aircraft[0].hex == "abc123" && legacy.aircraft[0].onGround && legacy.aircraft[0].groundSpeedKnots == 12)
        #expect(legacy.aircraft[1].altitudeFeet == 12000 && legacy.aircraft[1].callsign == nil)
        let v2 = try AircraftJSON.parse(Array(#"{"now":1700000000123,"ac":[{"hex":"a1b2c3","alt_baro":3000,"lat":1,"lon":2,"seen_pos":0.5}]}"#.utf8))
        #expect(abs(v2.now - 1_700_000_000.123) < 1e-6 && v2.aircraft.count == 1)
        #expect(throws: AircraftJSON.Failure.self) { try AircraftJSON.parse(Array("{\"now\":1,\"aircraft\":[".utf8)) }
        #expect(throws: AircraftJSON.Failure.self) { try AircraftJSON.parse(Array("[1,2]".utf8)) }
        let error = #expect(throws: AircraftJSON.Failure.self) { try AircraftJSON.parse(Array("{\"now\": 1, \"aircraft\": [}".utf8)) }
        #expect(error?.description.hasPrefix("malformed JSON at line 1, column") == true, "\(String(describing: error))")
    }

    @Test func sbsCapturesInEveryDialect() throws {
        var vrs = SBS1Decoder()
        for line in String(decoding: try Self.bytes("sbs1_rittersport72_111style_1740lines.txt"), as: UTF8.self).split(separator: "\n") {
            vrs.feed(line, at: 0)
        }
        #expect(vrs.linesAccepted == 1739 && vrs.linesRejected == 0)
        let vrsSnapshot = vrs.snapshot(at: 1)
        #expect(vrsSnapshot.aircraft.contains { $0.callsign == "BZE03A" })
        #expect(vrsSnapshot.aircraft.contains { $0.callsign == "N700NY" })
        var antirez = SBS1Decoder()
        for line in String(decoding: try Self.bytes("sbs1_nodesbs1_antirez_4184lines.txt"), as: UTF8.self).split(separator: "\n") {
            antirez.feed(line, at: 0)
        }
        #expect(antirez.linesAccepted == 4184)
        #expect(!antirez.snapshot(at: 1).aircraft.contains { $0.callsign == "XXX" })
        var skypies = SBS1Decoder()
        for (i, line) in String(decoding: try Self.bytes("sbs1_skypies_dump1090style_7lines.txt"), as: UTF8.self).split(separator: "\n").enumerated() {
            skypies.feed(line, at: Double(i) * 0.5)
        }
        let one = try #require(skypies.snapshot(at: 3).aircraft.first)
        #expect(one.hex == "a81bd0" && one.callsign == "VRD961" && one.squawk == "1200")
        #expect(one.latitude == 36.69830 && one.altitudeFeet == 20100 && one.groundSpeedKnots == 304 && one.trackDegrees == 328)
        // Field 17 is the vertical rate; field 20 the emergency flag (0 here).
        #expect(one.verticalRateFeetPerMinute == -1856 && one.emergency == nil)
        skypies.feed("MSG,6,1,1,A81BD0,1,2015/11/27,21:31:06.255,2015/11/27,21:31:06.253,,,,,,,,7700,-1,-1,0,0", at: 4)
        let declared = try #require(skypies.snapshot(at: 4).aircraft.first)
        #expect(declared.squawk == "7700" && declared.emergency == "emergency")
        #expect(!SBS1Decoder().feedResult("garbage,,,\u{0}"))
    }
}

extension SBS1Decoder {
    func feedResult(_ line: String) -> Bool {
        var copy = self
        return copy.feed(Substring(line), at: 0)
    }
}

@Suite struct ReceiverLocationTests {
    func directory(with receiver: String?) throws -> String {
        let dir = NSTemporaryDirectory() + "rk-receiver-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        if let receiver { try receiver.write(toFile: dir + "/receiver.json", atomically: true, encoding: .utf8) }
        return dir
    }

    @Test func theStationIsTheReceiversPositionBesideAircraftJSON() throws {
        // readsb's receiver.json with --lat and --lon given.
        let dir = try directory(with: #"{ "version" : "v3.14", "refresh" : 1000, "history" : 120, "lat" : 51.4700, "lon" : -0.4543 }"#)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try ReceiverLocation.station(besideAircraftJSON: dir + "/aircraft.json") == GeoPoint(latitude: 51.47, longitude: -0.4543))
    }

    @Test func withoutLatAndLonOrTheFileTheErrorSaysSo() throws {
        let dir = try directory(with: #"{ "version" : "v3.14", "refresh" : 1000, "history" : 120 }"#)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let noPosition = #expect(throws: ReceiverLocationError.self) { try ReceiverLocation.station(besideAircraftJSON: dir + "/aircraft.json") }
        #expect(noPosition?.description == "\(dir)/receiver.json has no lat and lon (the receiver was started without its location)")
        let absurd = try directory(with: #"{"lat": 123, "lon": 0}"#)
        defer { try? FileManager.default.removeItem(atPath: absurd) }
        let notLatitude = #expect(throws: ReceiverLocationError.self) { try ReceiverLocation.station(besideAircraftJSON: absurd + "/aircraft.json") }
        #expect(notLatitude?.description == "\(absurd)/receiver.json: lat 123.0 is not a latitude (expected -90...90)")
        let missing = #expect(throws: ReceiverLocationError.self) { try ReceiverLocation.station(besideAircraftJSON: "/nonexistent/aircraft.json") }
        #expect(missing?.description.contains("/nonexistent/receiver.json: cannot open") == true)
    }

    /// A receiver.json as a broken or hostile receiver might leave it: each is
    /// one line naming the file and what is wrong, never a station.
    @Test(arguments: [
        (#"{"lat": NaN, "lon": 0}"#, "receiver.json: not a JSON object"),
        (#"{"lat": 1e999, "lon": 0}"#, "receiver.json: lat inf is not a latitude (expected -90...90)"),
        (#"{"lat": 51.47, "lon": -1e999}"#, "receiver.json: lon -inf is not a longitude (expected -180...180)"),
        (#"{"lat": 51.47, "lon": 540}"#, "receiver.json: lon 540.0 is not a longitude (expected -180...180)"),
        (#"{"lat": "51.47", "lon": "-0.45"}"#, "receiver.json has no lat and lon"),
        (#"{"lon": -0.45}"#, "receiver.json has no lat and lon"),
        (#"[51.47, -0.45]"#, "receiver.json: not a JSON object"),
        (String(repeating: "[", count: 60_000), "receiver.json: not a JSON object"),
        (#"{"lat": 51.47, "lon": 0, "pad": ""# + String(repeating: "x", count: 70_000) + #""}"#, "receiver.json: larger than 65536 bytes"),
    ])
    func aHostileReceiverJSONIsNamedAndRefused(text: String, says: String) throws {
        let dir = try directory(with: text)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let error = #expect(throws: ReceiverLocationError.self) { try ReceiverLocation.station(besideAircraftJSON: dir + "/aircraft.json") }
        #expect(error?.description.hasPrefix("\(dir)/\(says)") == true, "\(error?.description ?? "no error")")
    }

    @Test func aReceiverJSONThatIsNotAFileIsRefusedWithoutWaiting() throws {
        // A FIFO would block a plain open until a writer came; a directory cannot be read.
        let fifo = try directory(with: nil)
        defer { try? FileManager.default.removeItem(atPath: fifo) }
        #expect(mkfifo(fifo + "/receiver.json", 0o600) == 0)
        let error = #expect(throws: ReceiverLocationError.self) { try ReceiverLocation.station(besideAircraftJSON: fifo + "/aircraft.json") }
        #expect(error?.description == "\(fifo)/receiver.json: not a regular file")
        let folder = try directory(with: nil)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/receiver.json", withIntermediateDirectories: false)
        let notFile = #expect(throws: ReceiverLocationError.self) { try ReceiverLocation.station(besideAircraftJSON: folder + "/aircraft.json") }
        #expect(notFile?.description == "\(folder)/receiver.json: not a regular file")
    }

    @Test func aReceiverAtThePoleGivesFiniteDistancesAndBearings() throws {
        let dir = try directory(with: #"{"lat": 90, "lon": 0}"#)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pole = try ReceiverLocation.station(besideAircraftJSON: dir + "/aircraft.json")
        #expect(pole == GeoPoint(latitude: 90, longitude: 0))
        for target in [GeoPoint(latitude: 89.9, longitude: 45), GeoPoint(latitude: 90, longitude: 0), GeoPoint(latitude: -90, longitude: 180)] {
            let distance = pole.distanceNM(to: target), bearing = pole.bearing(to: target)
            #expect(distance.isFinite && distance >= 0, "distance to \(target): \(distance)")
            #expect(bearing.isFinite && (0..<360).contains(bearing), "bearing to \(target): \(bearing)")
        }
    }
}
