import MediaModel

/// One edit in beets' `modify` forms: `FIELD=VALUE` sets (an empty VALUE removes), `FIELD+=VALUE` adds a
/// value to a multi-valued field, `FIELD!` removes.
public struct TagChange: Sendable, Equatable, CustomStringConvertible {
    public enum Operation: Sendable, Equatable { case set(String), append(String), remove }

    /// The field as the user named it, and its PropertyMap key.
    public let field: String
    public let key: String
    public let operation: Operation

    public init(field: String, key: String, operation: Operation) {
        self.field = field
        self.key = key
        self.operation = operation
    }

    /// Parses one argument; nil when it is not an edit of a writable field (then it is a query term).
    public init?(argument: String) {
        if argument.hasSuffix("!"), !argument.contains("="), let key = TagFieldMapping.key(forField: String(argument.dropLast())) {
            self.init(field: String(argument.dropLast()), key: key, operation: .remove)
            return
        }
        guard let eq = argument.firstIndex(of: "=") else { return nil }
        var name = String(argument[..<eq])
        let value = String(argument[argument.index(after: eq)...])
        var append = false
        if name.hasSuffix("+") { name.removeLast(); append = true }
        // `year==1999`, `title!=x` and the like are query terms.
        if name.hasSuffix("!") || name.hasSuffix("<") || name.hasSuffix(">") || value.hasPrefix("=") { return nil }
        guard let key = TagFieldMapping.key(forField: name) else { return nil }
        self.init(field: name, key: key, operation: append ? .append(value) : value.isEmpty ? .remove : .set(value))
    }

    public var description: String {
        switch operation {
        case .set(let v): "\(field)=\(v)"
        case .append(let v): "\(field)+=\(v)"
        case .remove: "\(field)!"
        }
    }

    /// Whether the field is a number of a pair ("3/12" in ID3v2 TRCK and MP4 trkn).
    var numberPair: (number: String, total: String)? {
        switch key {
        case "TRACKNUMBER", "TRACKTOTAL": ("TRACKNUMBER", "TRACKTOTAL")
        case "DISCNUMBER", "DISCTOTAL": ("DISCNUMBER", "DISCTOTAL")
        default: nil
        }
    }

    /// The map after `changes`, in order; keys keep their place, new ones come last. Number pairs the
    /// changes touch are split ("3/12" → 3 and TOTAL 12), edited, then joined again where the format keeps
    /// them together (`totalsApart` false: ID3v2, MP4, ASF, RIFF INFO).
    static func apply(_ changes: [TagChange], to map: [(key: String, value: String)], totalsApart: Bool) -> [(key: String, value: String)] {
        var keys: [String] = []
        var values: [String: [String]] = [:]
        for (key, value) in map {
            if values[key] == nil { keys.append(key) }
            values[key, default: []].append(value)
        }
        func put(_ key: String, _ list: [String]) {
            if list.isEmpty { values[key] = nil; keys.removeAll { $0 == key }; return }
            if values[key] == nil { keys.append(key) }
            values[key] = list
        }
        let pairs = Set(changes.compactMap { $0.numberPair?.number })
        let totals = ["TRACKNUMBER": "TRACKTOTAL", "DISCNUMBER": "DISCTOTAL"]
        for number in pairs.sorted() {
            guard let total = totals[number], let value = values[number]?.first, let slash = value.firstIndex(of: "/") else { continue }
            put(number, [String(value[..<slash])])
            if values[total] == nil { put(total, [String(value[value.index(after: slash)...])]) }
        }
        for change in changes {
            switch change.operation {
            case .set(let v): put(change.key, [change.key == "COMPILATION" ? Self.flag(v) : v])
            case .append(let v): if !(values[change.key] ?? []).contains(v) { put(change.key, (values[change.key] ?? []) + [v]) }
            case .remove: put(change.key, [])
            }
        }
        if !totalsApart {
            for number in pairs.sorted() {
                guard let total = totals[number] else { continue }
                let n = values[number]?.first ?? ""
                if let t = values[total]?.first, !t.isEmpty {
                    put(number, [(n.isEmpty ? "0" : n) + "/" + t])
                    put(total, [])
                }
            }
        }
        return keys.flatMap { key in (values[key] ?? []).map { (key, $0) } }
    }

    /// The map with the values of each key `single` says holds one value joined with "; ".
    static func joinSingleValued(_ map: [(key: String, value: String)], _ single: (String) -> Bool) -> [(key: String, value: String)] {
        var out: [(key: String, value: String)] = []
        for (key, value) in map {
            if single(key), let i = out.firstIndex(where: { $0.key == key }) {
                out[i].value += MediaProperty.valueSeparator + value
            } else {
                out.append((key, value))
            }
        }
        return out
    }

    /// COMPILATION as the formats store it: 1 or 0.
    static func flag(_ value: String) -> String {
        ["1", "true", "yes", "y", "on"].contains(value.lowercased()) ? "1" : "0"
    }
}
