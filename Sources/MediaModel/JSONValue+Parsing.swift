/// Reading JSON back into `JSONValue`, the other half of its writer. Both stores keep each item's tag map as a
/// JSON object, and reading it through Foundation's JSONSerialization (an `[String: Any]` of bridged values,
/// then a cast) was a third of the time `ls` spends per row. This reads UTF-8 bytes straight into Swift
/// values; it accepts any RFC 8259 document (PostgreSQL's jsonb prints `{"a": "b"}` with spaces).
extension JSONValue {
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public let offset: Int
        public let reason: String
        public var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    public init(parsing bytes: some Collection<UInt8>) throws {
        self = try bytes.withContiguousStorageIfAvailable { try Self.parse($0) } ?? Array(bytes).withUnsafeBufferPointer { try Self.parse($0) }
    }

    public init(parsing text: String) throws {
        var text = text
        self = try text.withUTF8 { try Self.parse($0) }
    }

    /// A JSON object whose values are all strings (the stored tag map) as a dictionary; nil for anything else.
    public static func stringMap(parsing text: String) -> [String: String]? {
        guard case .object(let members)? = try? JSONValue(parsing: text) else { return nil }
        var map: [String: String] = [:]
        map.reserveCapacity(members.count)
        for (key, value) in members {
            guard case .string(let s) = value else { return nil }
            map[key] = s
        }
        return map
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws -> JSONValue {
        var reader = JSONReader(bytes: bytes)
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.offset == bytes.count else { throw reader.error("text after the value") }
        return value
    }
}

private struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0
    /// Deeper nesting than any document mlib writes or reads; the limit keeps a hostile file from
    /// overflowing the stack.
    static let maximumDepth = 512

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func error(_ reason: String) -> JSONValue.ParseError { JSONValue.ParseError(offset: offset, reason: reason) }

    var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    mutating func skipSpace() {
        while let b = current, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { offset += 1 }
    }

    mutating func expect(_ literal: StaticString) throws {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        guard offset + expected.count <= bytes.count, bytes[offset..<offset + expected.count].elementsEqual(expected)
        else { throw error("expected \(literal)") }
        offset += expected.count
    }

    mutating func value(depth: Int) throws -> JSONValue {
        guard depth < Self.maximumDepth else { throw error("nested too deeply") }
        skipSpace()
        guard let b = current else { throw error("unexpected end") }
        switch b {
        case UInt8(ascii: "{"):
            offset += 1
            var members: [(String, JSONValue)] = []
            skipSpace()
            if current == UInt8(ascii: "}") { offset += 1; return .object(members) }
            while true {
                skipSpace()
                guard current == UInt8(ascii: "\"") else { throw error("expected a key") }
                let key = try string()
                skipSpace()
                guard current == UInt8(ascii: ":") else { throw error("expected ':'") }
                offset += 1
                members.append((key, try value(depth: depth + 1)))
                skipSpace()
                switch current {
                case UInt8(ascii: ","): offset += 1
                case UInt8(ascii: "}"): offset += 1; return .object(members)
                default: throw error("expected ',' or '}'")
                }
            }
        case UInt8(ascii: "["):
            offset += 1
            var items: [JSONValue] = []
            skipSpace()
            if current == UInt8(ascii: "]") { offset += 1; return .array(items) }
            while true {
                items.append(try value(depth: depth + 1))
                skipSpace()
                switch current {
                case UInt8(ascii: ","): offset += 1
                case UInt8(ascii: "]"): offset += 1; return .array(items)
                default: throw error("expected ',' or ']'")
                }
            }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        default: return try number()
        }
    }

    /// A string from its opening quote; runs without escapes are copied as they are, and String(validating:)
    /// refuses ill-formed UTF-8 rather than repairing it.
    mutating func string() throws -> String {
        offset += 1
        var out: [UInt8] = []
        var escaped = false
        var runStart = offset
        while true {
            guard let b = current else { throw error("unterminated string") }
            switch b {
            case UInt8(ascii: "\""):
                let run = UnsafeBufferPointer(rebasing: bytes[runStart..<offset])
                offset += 1
                // Most strings have no escape: made straight from the input, with no copy in between.
                if !escaped, let s = String(validating: run, as: UTF8.self) { return s }
                out.append(contentsOf: run)
                guard escaped, let s = String(validating: out, as: UTF8.self) else { throw error("invalid UTF-8") }
                return s
            case UInt8(ascii: "\\"):
                out.append(contentsOf: bytes[runStart..<offset])
                offset += 1
                escaped = true
                try escape(into: &out)
                runStart = offset
            case 0..<0x20:
                throw error("control character in a string")
            default:
                offset += 1
            }
        }
    }

    mutating func escape(into out: inout [UInt8]) throws {
        guard let b = current else { throw error("unterminated escape") }
        offset += 1
        switch b {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(b)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate must be followed by an escaped low one; together they are one scalar.
                guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u")
                else { throw error("lone surrogate") }
                offset += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("lone surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw error("lone surrogate")
            }
            out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
        default:
            throw error("unknown escape")
        }
    }

    mutating func hex4() throws -> UInt32 {
        guard offset + 4 <= bytes.count else { throw error("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[offset]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: throw error("bad \\u escape")
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }

    /// A number as JSON spells it: an integer that fits Int64 stays exact, anything else is a Double.
    mutating func number() throws -> JSONValue {
        let start = offset
        var integral = true
        if current == UInt8(ascii: "-") { offset += 1 }
        guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { throw error("unexpected character") }
        if first == UInt8(ascii: "0") { offset += 1 } else { skipDigits() }
        if current == UInt8(ascii: ".") {
            integral = false
            offset += 1
            guard skipDigits() else { throw error("digits expected after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            integral = false
            offset += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
            guard skipDigits() else { throw error("digits expected in the exponent") }
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        if integral, let i = Int64(text) { return .int(i) }
        guard let d = Double(text) else { throw error("bad number") }
        return .double(d)
    }

    @discardableResult
    mutating func skipDigits() -> Bool {
        let start = offset
        while let b = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) { offset += 1 }
        return offset > start
    }
}
