import Library
/// One element of a Subsonic answer, written once and rendered to either format: XML (attributes and child
/// elements) or JSON (attributes and children as properties of one object; a child list as an array, even
/// of one element, as Subsonic's JSON has it).
struct Node: Sendable {
    enum Value: Sendable {
        case string(String)
        case int(Int64)
        case double(Double)
        case bool(Bool)
        /// JSON: an array of numbers; XML: one child element per number (OpenSubsonic's `versions`).
        case ints([Int])
    }

    enum Child: Sendable {
        case one(Node)
        case many([Node])
    }

    var name: String
    var attributes: [(String, Value)] = []
    var children: [(String, Child)] = []

    init(_ name: String) { self.name = name }

    mutating func set(_ key: String, _ value: String?) { if let value { attributes.append((key, .string(value))) } }
    mutating func set(_ key: String, _ value: Int?) { if let value { attributes.append((key, .int(Int64(value)))) } }
    mutating func set(_ key: String, _ value: Int64?) { if let value { attributes.append((key, .int(value))) } }
    mutating func set(_ key: String, _ value: Double?) { if let value, value.isFinite { attributes.append((key, .double(value))) } }
    mutating func set(_ key: String, _ value: Bool?) { if let value { attributes.append((key, .bool(value))) } }
    mutating func set(_ key: String, ints: [Int]) { attributes.append((key, .ints(ints))) }

    mutating func add(_ child: Node) { children.append((child.name, .one(child))) }
    /// A list: an array in JSON even when empty or of one (`name` is each element's name in XML).
    mutating func add(list name: String, _ nodes: [Node]) { children.append((name, .many(nodes))) }

    // MARK: Rendering

    /// The element in XML. `named` renames it: a list's elements take the list's name (`add(list:)`), as its
    /// JSON key does. A string `value` is the element's text, not an attribute: OpenSubsonic's JSON `value`
    /// is what Subsonic's XML has as text (a genre's name, lyrics, a lyrics line), and the XSD allows no
    /// `value` attribute.
    func xml(into out: inout String, named: String? = nil) {
        let name = named ?? self.name
        out += "<"
        out += name
        var numberLists: [(String, [Int])] = []
        var text: String?
        for (key, value) in attributes {
            switch value {
            case .ints(let numbers): numberLists.append((key, numbers)); continue
            case .string(let string) where key == "value": text = string; continue
            default: break
            }
            out += " "
            out += key
            out += "=\""
            Self.escapeXML(value.text, into: &out)
            out += "\""
        }
        if children.isEmpty && numberLists.isEmpty && (text ?? "").isEmpty {
            out += "/>"
            return
        }
        out += ">"
        if let text { Self.escapeXML(text, into: &out) }
        for (key, numbers) in numberLists {
            for number in numbers { out += "<\(key)>\(number)</\(key)>" }
        }
        for (key, child) in children {
            switch child {
            case .one(let node): node.xml(into: &out)
            case .many(let nodes): for node in nodes { node.xml(into: &out, named: key) }
            }
        }
        out += "</"
        out += name
        out += ">"
    }

    /// The element as a JSON object (its name is the key its parent gives it).
    func json(into out: inout String) {
        out += "{"
        var first = true
        func key(_ k: String) {
            if !first { out += "," }
            first = false
            // Keys are the code's own names (attribute and element names), never a value: nothing to escape.
            out += "\""
            out += k
            out += "\":"
        }
        for (k, value) in attributes {
            key(k)
            switch value {
            case .string(let s):
                out += "\""
                Self.escapeJSON(s, into: &out)
                out += "\""
            case .int(let n): out += String(n)
            case .double(let d): out += d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
            case .bool(let b): out += b ? "true" : "false"
            case .ints(let numbers): out += "[" + numbers.map(String.init).joined(separator: ",") + "]"
            }
        }
        for (k, child) in children {
            key(k)
            switch child {
            case .one(let node): node.json(into: &out)
            case .many(let nodes):
                out += "["
                for (i, node) in nodes.enumerated() {
                    if i > 0 { out += "," }
                    node.json(into: &out)
                }
                out += "]"
            }
        }
        out += "}"
    }

    /// Shared with DLNA's answers (Library's `XMLText`): control characters dropped, not written.
    static func escapeXML(_ text: String, into out: inout String) {
        XMLText.escape(text, into: &out)
    }

    static func escapeJSON(_ text: String, into out: inout String) {
        // Most values need no escape: look at the bytes once (a contiguous buffer, not the UTF-8 view's
        // iterator: this check was 8% of a full search3 sync's CPU).
        var copy = text
        let plain = copy.withUTF8 { bytes in !bytes.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") } }
        if plain {
            out += text
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
    }
}

extension Node.Value {
    var text: String {
        switch self {
        case .string(let s): s
        case .int(let n): String(n)
        case .double(let d): String(d)
        case .bool(let b): b ? "true" : "false"
        case .ints(let numbers): numbers.map(String.init).joined(separator: ",")
        }
    }
}
