import MediaModel

/// An output buffer of bytes. Writers append whole strings and pre-escaped runs to it instead of building
/// `String`s character by character, which keeps exporting 100,000 items well under a second.
public struct ByteBuffer: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    public mutating func append(_ s: String) { bytes.append(utf8: s) }
    public mutating func append(_ b: UInt8) { bytes.append(b) }
    mutating func replaceByte(at index: Int, with b: UInt8) { bytes[index] = b }
    public mutating func append(_ b: [UInt8]) { bytes.append(contentsOf: b) }
    public mutating func append<I: BinaryInteger>(integer: I) { append(String(integer)) }
    public mutating func append(json value: JSONValue) { value.write(into: &bytes) }

    /// Text for XML character data and attribute values: the five special characters become entities and
    /// characters XML 1.0 forbids (C0 controls other than tab, LF, CR) are dropped, so any tag value
    /// gives a well-formed document.
    public mutating func append(xmlEscaped s: String) {
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "&"): append("&amp;")
            case UInt8(ascii: "<"): append("&lt;")
            case UInt8(ascii: ">"): append("&gt;")
            case UInt8(ascii: "\""): append("&quot;")
            case UInt8(ascii: "'"): append("&apos;")
            case 0x09, 0x0A, 0x0D: bytes.append(b)
            case 0..<0x20: continue
            default: bytes.append(b)
            }
        }
    }

    /// A JSON string literal, quotes included (RFC 8259), written by MediaModel's one JSON writer.
    public mutating func append(jsonString s: String) {
        JSONValue.string(s).write(into: &bytes)
    }

    /// Bytes with everything outside RFC 3986 `unreserved` and `/` written as `%XX` (upper-case hex).
    /// Works on bytes, so non-UTF-8 file names escape exactly and decode back to the same bytes.
    public mutating func append(percentEscaped path: [UInt8]) {
        for b in path {
            if Self.keepInURI[Int(b)] { bytes.append(b) } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(Self.hexDigits[Int(b >> 4)])
                bytes.append(Self.hexDigits[Int(b & 0xF)])
            }
        }
    }

    /// A JSON number for a finite double (`null` otherwise: JSON has no NaN or infinity).
    public mutating func append(jsonNumber d: Double) {
        guard d.isFinite else { append("null"); return }
        if d == d.rounded(), abs(d) < 1e15 { append(integer: Int64(d)) } else { append(d.description) }
    }

    static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
    static let keepInURI: [Bool] = (0..<256).map { b in
        switch UInt8(b) {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
             UInt8(ascii: "~"), UInt8(ascii: "/"): true
        default: false
        }
    }
}
