import Testing
@testable import KioskModel

/// The user's routes file: what the card may be given from it.
@Suite struct RouteTableTests {
    @Test func linesBecomeRoutesByCallsign() throws {
        let table = try RouteTable.parse("# mine\r\nbaw283 LHR → LAX\n\nEZY81QK  BFS → LGW  \n", name: "routes")
        #expect(table == ["BAW283": "LHR → LAX", "EZY81QK": "BFS → LGW"])
    }

    @Test func aBadLineIsNamedByNumberAndWhy() {
        func problem(_ text: String) -> String? {
            do { _ = try RouteTable.parse(text, name: "routes"); return nil } catch { return "\(error)" }
        }
        #expect(problem("BAW283 LHR-LAX\nBAW284\n") == "routes:2: expected 'CALLSIGN ROUTE'")
        #expect(problem("BAW283 LHR-" + String(repeating: "JFK-", count: 50_000) + "LAX\n")
            == "routes:1: the route for BAW283: longer than 40 characters")
        #expect(problem("BAW283 LHR\u{202E}-LAX\n") == "routes:1: the route for BAW283: contains U+202E, a control or invisible formatting character")
        #expect(problem("BAW283 LHR\u{1B}[31m\n") == "routes:1: the route for BAW283: contains U+001B, a control or invisible formatting character")
        #expect(problem("BAW\u{7}283 LHR-LAX\n")?.hasPrefix("routes:1: 'BAW") == true)
        #expect(problem("ABCDEFGHIJ LHR-LAX\n") == "routes:1: 'ABCDEFGHIJ' is not a callsign (letters and digits, at most 8)")
        let big = String(repeating: "XYZ00000 LHR-JFK\n", count: RouteTable.maximumBytes / 17 + 1)
        #expect(problem(big)?.hasPrefix("routes: larger than 2 MiB") == true)
    }
}
