/// Renders a predicate back to the format-string language; `PredicateParser.parse(p.description)` gives
/// `p` again (smart playlists store their query this way).
extension Predicate: CustomStringConvertible {
    public var description: String { render(topLevel: true) }

    private func render(topLevel: Bool) -> String {
        switch self {
        case .all: return "TRUEPREDICATE"
        case .none: return "FALSEPREDICATE"
        case .search(let s): return "SEARCH " + Self.quote(s)
        case .host(let s): return "HOST " + Self.quote(s)
        case .history(let t): return t.description
        case .comparison(let c): return c.description
        case .not(let p): return "NOT " + p.render(topLevel: false)
        case .and(let ps):
            if ps.isEmpty { return "TRUEPREDICATE" }
            let s = ps.map { $0.render(topLevel: false) }.joined(separator: " AND ")
            return topLevel || ps.count == 1 ? s : "(" + s + ")"
        case .or(let ps):
            if ps.isEmpty { return "FALSEPREDICATE" }
            let s = ps.map { $0.render(topLevel: false) }.joined(separator: " OR ")
            return topLevel || ps.count == 1 ? s : "(" + s + ")"
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for ch in s {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.append(ch)
            }
        }
        return out + "\""
    }
}

extension Comparison: CustomStringConvertible {
    public var description: String {
        var s = property.rawValue + " " + op.rawValue
        if !options.isEmpty {
            s += "[" + (options.contains(.caseInsensitive) ? "c" : "") + (options.contains(.diacriticInsensitive) ? "d" : "") + "]"
        }
        switch operand {
        case .null: s += " nil"
        case .value(let v): s += " " + literal(v)
        case .list(let l): s += " {" + l.map(literal).joined(separator: ", ") + "}"
        case .range(let a, let b): s += " {" + literal(a) + ", " + literal(b) + "}"
        }
        return s
    }

    private func literal(_ v: MediaValue) -> String {
        switch v {
        case .text(let t): return Predicate.quote(t)
        case .integer(let i): return String(i)
        case .real(let d): return d.isFinite ? String(d) : "0"
        case .bool(let b): return b ? "true" : "false"
        }
    }
}
