// The shared JSON encoding (info --json, ls --json, JSON playlists): extend here, do not write another.
/// A JSON value that keeps object keys in the order given, so output follows the property table rather than
/// the alphabet, and serialises straight to UTF-8 bytes (fast enough to stream 100,000 items).
public indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.serialized() == b.serialized() }
    public func hash(into h: inout Hasher) { h.combine(serialized()) }

    public func serialized(pretty: Bool = false) -> String {
        var out: [UInt8] = []
        write(into: &out, pretty: pretty, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }

    public func write(into out: inout [UInt8], pretty: Bool = false, indent: Int = 0) {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .int(let i): out += Array(String(i).utf8)
        case .double(let d): out += Array(Self.number(d).utf8)
        case .string(let s): Self.writeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, v) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { Self.newline(&out, indent + 1) }
                v.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty && !items.isEmpty { Self.newline(&out, indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, (k, v)) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { Self.newline(&out, indent + 1) }
                Self.writeString(k, into: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(UInt8(ascii: " ")) }
                v.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty && !members.isEmpty { Self.newline(&out, indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// How every command writes a number that is not an integer (documented in mlib(1), JSON NUMBERS):
    /// rounded to 6 decimal places (a microsecond for durations and times, more than any tag or stream
    /// value carries), then in the shortest form that reads back as that value. Sums and quotients
    /// printed as computed showed their binary noise (0.09999999999999999, 0.30000000000000004); a whole
    /// number prints without a fraction; NaN and infinities, which JSON lacks, print as null.
    public static func number(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        let rounded = abs(d) < 4e9 ? (d * 1e6).rounded() / 1e6 : d      // beyond, d × 1e6 passes 2^53
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }

    private static func newline(_ out: inout [UInt8], _ indent: Int) {
        out.append(UInt8(ascii: "\n"))
        out += repeatElement(UInt8(ascii: " "), count: indent * 2)
    }

    private static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [92, 34]
            case UInt8(ascii: "\\"): out += [92, 92]
            case 0x0A: out += [92, UInt8(ascii: "n")]
            case 0x0D: out += [92, UInt8(ascii: "r")]
            case 0x09: out += [92, UInt8(ascii: "t")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension MediaValue {
    /// The JSON form of a value of `type`: numbers as numbers, booleans as booleans, the media type by name.
    public func json(as type: MediaProperty.ValueType) -> JSONValue {
        switch (type, self) {
        case (.mediaType, _): return .string(MediaType(rawValue: integer ?? 0).name)
        case (_, .text(let s)): return .string(s)
        case (_, .integer(let i)): return .int(i)
        case (_, .real(let d)): return .double(d)
        case (_, .bool(let b)): return .bool(b)
        }
    }
}

extension MediaPath {
    /// A UTF-8 path is a string; any other is {"bytes": [..], "lossy": "<display form>"} so nothing is lost.
    public var json: JSONValue {
        isUTF8 ? .string(string)
            : .object([("bytes", .array(bytes.map { .int(Int64($0)) })), ("lossy", .string(string))])
    }
}

extension MediaItem {
    /// The one JSON encoding of an item, shared by `info --json`, `ls --json` and JSON playlists:
    /// `path`, then every property with a value in `MediaProperty` table order (keyed by raw value; a
    /// multi-valued property with several values as an array of them), then
    /// `tags` (the raw tag map, keys sorted) when asked for.
    public func json(includeTags: Bool = true) -> JSONValue {
        var members: [(String, JSONValue)] = [("path", path.json)]
        for property in MediaProperty.allCases where property != .path {
            guard let value = self[property] else { continue }
            // A multi-valued property with several values is an array of them; with one, a string as before.
            let several = property.spec.multiValued ? values(of: property) : []
            members.append((property.rawValue, several.count > 1 ? .array(several.map(JSONValue.string))
                                                                   : value.json(as: property.spec.type)))
        }
        if includeTags {
            members.append(("tags", .object(tags.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        }
        return .object(members)
    }
}
