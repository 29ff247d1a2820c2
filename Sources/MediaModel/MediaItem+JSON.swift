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
        case .int(let i): Self.writeInteger(i, into: &out)
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

    /// A string with JSON's escapes; runs of bytes that need none are copied whole.
    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            var start = 0
            for (i, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                start = i + 1
                switch byte {
                case UInt8(ascii: "\""): out += [92, 34]
                case UInt8(ascii: "\\"): out += [92, 92]
                case 0x0A: out += [92, UInt8(ascii: "n")]
                case 0x0D: out += [92, UInt8(ascii: "r")]
                case 0x09: out += [92, UInt8(ascii: "t")]
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    out += [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]]
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// An integer's decimal digits, without making a String first.
    static func writeInteger(_ value: Int64, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = out.count
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        out[start...].reverse()            // written least significant first
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
    /// A member of an item's JSON before it is JSON: what both encodings below are made from.
    private enum JSONMember {
        case path(MediaPath)
        case value(MediaValue, MediaProperty.ValueType)
        case several([String])
        case tags([(String, String)])

        var json: JSONValue {
            switch self {
            case .path(let path): path.json
            case .value(let value, let type): value.json(as: type)
            case .several(let values): .array(values.map(JSONValue.string))
            case .tags(let tags): .object(tags.map { ($0.0, .string($0.1)) })
            }
        }
    }

    /// The one list of an item's JSON members, shared by `info --json`, `ls --json` and JSON playlists:
    /// `path`, then every property with a value in `MediaProperty` table order (keyed by raw value; a
    /// multi-valued property with several values as an array of them), then `tags` (the raw tag map, keys
    /// sorted) when asked for.
    private func forEachJSONMember(includeTags: Bool, _ body: (String, JSONMember) -> Void) {
        body("path", .path(path))
        for (property, key, type, multiValued) in Self.jsonProperties {
            guard let value = self[property] else { continue }
            // A multi-valued property with several values is an array of them; with one, a string as before.
            let several = multiValued ? values(of: property) : []
            body(key, several.count > 1 ? .several(several) : .value(value, type))
        }
        if includeTags { body("tags", .tags(tags.sorted { $0.key < $1.key })) }
    }

    /// The properties after `path`, with what each member needs, made once: `allCases` is a new array at
    /// every use, and this runs for every item of `ls --json`.
    private static let jsonProperties = MediaProperty.allCases.filter { $0 != .path }
        .map { ($0, $0.rawValue, $0.spec.type, $0.spec.multiValued) }

    public func json(includeTags: Bool = true) -> JSONValue {
        var members: [(String, JSONValue)] = []
        forEachJSONMember(includeTags: includeTags) { members.append(($0, $1.json)) }
        return .object(members)
    }

    /// The bytes of `json(includeTags:)`, with a `host` member after `path` when one is given (a shared
    /// library's item says whose file it is), written without building the tree: `ls --json` of a whole
    /// library spent a third of its time making and freeing trees.
    public func writeJSON(into out: inout [UInt8], includeTags: Bool = true, host: String? = nil) {
        out.append(UInt8(ascii: "{"))
        var first = true
        forEachJSONMember(includeTags: includeTags) { key, member in
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSONValue.writeString(key, into: &out)
            out.append(UInt8(ascii: ":"))
            switch member {
            case .path(let path) where path.isUTF8: JSONValue.writeString(path.string, into: &out)
            case .value(.text(let text), let type) where type != .mediaType: JSONValue.writeString(text, into: &out)
            case .value(.integer(let integer), let type) where type != .mediaType: JSONValue.writeInteger(integer, into: &out)
            default: member.json.write(into: &out)
            }
            if key == "path", let host {
                out.append(UInt8(ascii: ","))
                JSONValue.writeString("host", into: &out)
                out.append(UInt8(ascii: ":"))
                JSONValue.writeString(host, into: &out)
            }
        }
        out.append(UInt8(ascii: "}"))
    }
}
