import Foundation
import MediaModel
import Testing

/// `JSONValue(parsing:)` reads what the writer wrote, and what any other JSON writer may have stored
/// (PostgreSQL's jsonb spacing, escapes, surrogate pairs), with Foundation's JSONSerialization as the reference.
struct JSONParsingTests {
    /// Tag maps as the stores write them read back unchanged: odd keys and values included.
    @Test func tagMapsRoundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [String] = ["a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{1F}", "é", "ß", "日本", "🎵", "\u{7F}", "{", "}", ":", ","]
        for _ in 0..<500 {
            var map: [String: String] = [:]
            for _ in 0..<Int.random(in: 0...8, using: &generator) {
                let key = (0..<Int.random(in: 1...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
                let value = (0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
                map[key] = value
            }
            let text = JSONValue.object(map.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }).serialized()
            #expect(JSONValue.stringMap(parsing: text) == map, "\(text)")
            let reference = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String]
            #expect(reference == map)
        }
    }

    @Test(arguments: [
        #"{"artist": "Björk", "title": "J\u00f3ga"}"#,                     // jsonb's spacing, a \u escape
        #"{ "a" : "\ud83c\udfb5", "b":"\/\b\f\n\r\t\"\\" }"#,                // a surrogate pair, every escape
        #"{"a":"x","a":"y"}"#,                                               // a repeated key: the last wins
        "{}",
    ])
    func stringMapsAgreeWithFoundation(text: String) throws {
        let reference = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String]
        #expect(JSONValue.stringMap(parsing: text) == reference)
    }

    @Test func everyKindOfValue() throws {
        let text = #"[null, true, false, 0, -12, 9223372036854775807, 1.5, -2e3, 1E-2, "s", [], {"k": [1, {"n": null}]}]"#
        let value = try JSONValue(parsing: text)
        #expect(value == .array([.null, .bool(true), .bool(false), .int(0), .int(-12), .int(Int64.max), .double(1.5),
                                 .double(-2000), .double(0.01), .string("s"), .array([]),
                                 .object([("k", .array([.int(1), .object([("n", .null)])]))])]))
        // Beyond Int64 a number is still read, as a Double.
        #expect(try JSONValue(parsing: "18446744073709551616") == .double(18446744073709551616))
    }

    /// Malformed documents are refused (stricter than JSONSerialization, which takes trailing commas);
    /// nothing crashes or is half read.
    @Test(arguments: [
        "", "{", "}", #"{"a"}"#, #"{"a":}"#, #"{"a":"b",}"#, "[1,]", "[1 2]", #""abc"#, #""\x""#, #""\u12""#,
        #""\ud800""#, #""\udc00x""#, #""\ud800\u0041""#, "\"a\u{1}\"", "01", "-", "1.", "1e", ".5", "tru", "nul",
        #"{"a":"b"} x"#, "[" + String(repeating: "[", count: 600) + String(repeating: "]", count: 601),
    ])
    func malformedDocumentsAreRefused(text: String) {
        #expect(throws: JSONValue.ParseError.self) { try JSONValue(parsing: text) }
    }

    @Test func invalidUTF8IsRefused() {
        #expect(throws: JSONValue.ParseError.self) { try JSONValue(parsing: [0x22, 0xFF, 0xFE, 0x22]) }
        #expect(JSONValue.stringMap(parsing: #"{"a": 1}"#) == nil)
        #expect(JSONValue.stringMap(parsing: #"["a"]"#) == nil)
    }
}
