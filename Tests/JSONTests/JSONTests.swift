import Testing
@testable import JSON

/// The strict parser and the serializer the command replies use.
@Suite struct JSONTests {
    @Test func escapesAndSurrogatePairs() throws {
        #expect(try JSONParser.parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{8}\u{c}\n\r\t"))
        #expect(try JSONParser.parse(#""\u00e9\u2192\ud83d\ude80""#) == .string("é→🚀"))
        // A lone surrogate (which RFC 8259 leaves undefined) becomes U+FFFD, never invalid text.
        #expect(try JSONParser.parse(#""\ud83d""#) == .string("\u{FFFD}") && JSONParser.parse(#""\ude80x""#) == .string("\u{FFFD}x"))
        for bad in [#""\x""#, #""\u12""#, "\"a\u{1}b\"", #""unterminated"#] {
            #expect(throws: JSONError.self, "\(bad)") { try JSONParser.parse(bad) }
        }
    }

    @Test func theNumberGrammarIsRFC8259s() throws {
        for (text, value) in [("0", 0.0), ("-0", -0.0), ("12.5", 12.5), ("1e3", 1000), ("-2.5E-1", -0.25), ("1E+2", 100)] {
            #expect(try JSONParser.parse(text) == .number(value), "\(text)")
        }
        for bad in ["01", "+1", ".5", "1.", "1e", "0x10", "NaN", "Infinity", "-", "1.e5"] {
            #expect(throws: JSONError.self, "\(bad)") { try JSONParser.parse(bad) }
        }
        #expect(try JSONParser.parse("1e999") == .number(.infinity) || (try? JSONParser.parse("1e999")) == nil,
                "a number too large for a double is rejected or infinite; every user checks finiteness")
    }

    @Test func nestingIsLimited() throws {
        let deep = String(repeating: "[", count: JSONParser.maximumDepth + 1) + String(repeating: "]", count: JSONParser.maximumDepth + 1)
        #expect(throws: JSONError.self) { try JSONParser.parse(deep) }
        let fine = String(repeating: "[", count: JSONParser.maximumDepth) + String(repeating: "]", count: JSONParser.maximumDepth)
        #expect(throws: Never.self) { try JSONParser.parse(fine) }
    }

    @Test func errorsSayWhere() {
        let error = #expect(throws: JSONError.self) { try JSONParser.parse("{\n  \"a\": tru\n}") }
        #expect(error?.line == 2 && error?.description.hasPrefix("line 2, column") == true)
        #expect(throws: JSONError.self) { try JSONParser.parse("{} x") }
    }

    @Test func repliesEscapeWhatTheyCarry() throws {
        let value = JSONValue.object(["error": .string("bad \"x\"\n\u{1}\\"), "ok": .bool(false)])
        let text = value.serialized
        #expect(!text.contains("\n") && !text.contains("\u{1}"), "\(text)")
        #expect(try JSONParser.parse(text) == value, "what is written reads back the same")
    }

    @Test func objectsStreamTheirArrays() throws {
        var seen: [JSONValue] = []
        let top = try JSONParser.parseObject(Array(#"{"now":1,"aircraft":[{"a":1},{"a":2}],"x":[3]}"#.utf8), streaming: ["aircraft"]) { key, value in
            #expect(key == "aircraft")
            seen.append(value)
        }
        #expect(seen == [.object(["a": .number(1)]), .object(["a": .number(2)])])
        #expect(top["aircraft"] == .array([]) && top["x"] == .array([.number(3)]) && top["now"] == .number(1))
        #expect(throws: JSONError.self) { try JSONParser.parseObject(Array(#"{"aircraft":[1,}"#.utf8), streaming: ["aircraft"]) { _, _ in } }
    }
}
