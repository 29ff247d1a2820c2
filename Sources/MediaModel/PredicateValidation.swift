/// Every back end (SQL compiler, in-memory evaluator) first brings a comparison into one canonical form:
/// literals converted to the property's type, operators checked against it, regular expressions compiled.
/// Parsers call this too, so a bad literal is reported at its position in the query text.
extension Comparison {
    /// Operators that only make sense on text (and ISO date text).
    public static let textOperators: Set<Operator> = [.contains, .beginsWith, .endsWith, .like, .matches]

    public func normalized() throws -> Comparison {
        let type = property.spec.type
        if case .null = operand {
            guard op == .equal || op == .notEqual else {
                throw QueryError("only == and != compare with nil (\(property.rawValue) \(op.rawValue) nil)")
            }
            return Comparison(property, op, .null, options: options)
        }
        if Self.textOperators.contains(op), type != .text, type != .date {
            throw QueryError("\(op.rawValue) needs a text property; \(property.rawValue) is \(QueryLiterals.typeDescription(type))")
        }
        if type == .mediaType, ![.equal, .notEqual, .in].contains(op) {
            throw QueryError("mediaType supports ==, != and IN (it is a set of kinds), not \(op.rawValue)")
        }
        func coerce(_ v: MediaValue) throws -> MediaValue {
            try QueryLiterals.coerce(v, to: type, for: property)
        }
        var result = self
        switch (op, operand) {
        case (.between, .range(let lo, let hi)):
            result.operand = .range(try coerce(lo), try coerce(hi))
        case (.between, .list(let l)) where l.count == 2:
            result.operand = .range(try coerce(l[0]), try coerce(l[1]))
        case (.between, _):
            throw QueryError("BETWEEN needs two values: \(property.rawValue) BETWEEN {low, high}")
        case (.in, .list(let l)):
            result.operand = .list(try l.map(coerce))
        case (.in, .value(let v)):
            result.operand = .list([try coerce(v)])
        case (.in, .range(let a, let b)):
            result.operand = .list([try coerce(a), try coerce(b)])
        case (_, .value(let v)):
            result.operand = .value(try coerce(v))
        case (_, .list), (_, .range):
            throw QueryError("\(op.rawValue) compares with one value, not a list")
        case (_, .null):
            break
        }
        if op == .matches, case .value(.text(let pattern)) = result.operand {
            try RegexMatcher.validate(pattern)
        }
        return result
    }
}

extension Predicate {
    /// The same tree with every comparison normalized; throws the first `QueryError`.
    public func normalized() throws -> Predicate {
        switch self {
        case .all, .none, .search, .host, .history: return self
        case .comparison(let c): return .comparison(try c.normalized())
        case .and(let ps): return .and(try ps.map { try $0.normalized() })
        case .or(let ps): return .or(try ps.map { try $0.normalized() })
        case .not(let p): return .not(try p.normalized())
        }
    }
}
