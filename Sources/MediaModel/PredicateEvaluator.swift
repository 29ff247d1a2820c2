/// Evaluates a predicate against items in memory, with the same answers as the SQL the index compiles
/// (tests hold the two together on thousands of random cases). Semantics, as in mlib-query(7):
/// - a comparison with a missing value is false (`title != "x"` is false when there is no title), and
///   `NOT` simply negates, so `NOT title == "x"` is true for untitled items;
/// - text compares by code point; `[c]`, `[d]`, `[cd]` compare `TextFolding` forms of both sides;
/// - `mediaType == music` tests bits (`mediaType & music != 0`), as `MPMediaPropertyPredicate` does.
public struct PredicateEvaluator: Sendable {
    private let test: @Sendable (MediaItem) -> Bool

    /// Normalizes `predicate` once (throws its `QueryError`) and builds the test.
    public init(_ predicate: Predicate) throws {
        if predicate.readsHistory {
            throw QueryError("plays(…) and skips(…) are answered by the library's store from its listening history, not in memory (with a term PostgreSQL leaves to Swift, run them as two queries)")
        }
        test = Self.build(try predicate.normalized())
    }

    public func matches(_ item: MediaItem) -> Bool { test(item) }

    private static func build(_ p: Predicate) -> @Sendable (MediaItem) -> Bool {
        switch p {
        case .all: return { _ in true }
        case .none: return { _ in false }
        case .not(let inner):
            let f = build(inner)
            return { !f($0) }
        case .and(let ps):
            let fs = ps.map(build)
            return { item in fs.allSatisfy { $0(item) } }
        case .or(let ps):
            let fs = ps.map(build)
            return { item in fs.contains { $0(item) } }
        case .host:
            // Items in memory carry no host: the stores answer `host:` (SQLStore). A set of items in memory
            // is one host's view, which every host term matches.
            return { _ in true }
        case .history:
            return { _ in false }    // refused by init: items in memory carry no history
        case .search(let text):
            let words = FullTextSearch.queryTokens(text)
            return { FullTextSearch.matches(words, $0) }
        case .comparison(let c):
            return comparison(c)
        }
    }

    private static func comparison(_ c: Comparison) -> @Sendable (MediaItem) -> Bool {
        let property = c.property
        if case .null = c.operand {
            let wantMissing = c.op == .equal
            return { ($0[property] == nil) == wantMissing }
        }
        switch property.spec.type {
        case .mediaType:
            let masks: [Int64]
            switch c.operand {
            case .value(let v): masks = [v.integer ?? 0]
            case .list(let l): masks = l.map { $0.integer ?? 0 }
            default: masks = []
            }
            let mask = masks.reduce(0, |)
            let wantSet = c.op != .notEqual
            return { item in
                guard let v = item[property]?.integer else { return false }
                return ((v & mask) != 0) == wantSet
            }
        case .text, .date:
            return text(c)
        default:
            return number(c)
        }
    }

    /// A text comparison. On a multi-valued property (`MediaProperty.Spec.multiValued`) it holds when any
    /// value satisfies it, except `!=`, which holds when there are values and none is equal: the negation
    /// of `==` among items that have a value, as for single values.
    private static func text(_ c: Comparison) -> @Sendable (MediaItem) -> Bool {
        let property = c.property
        guard let test = textTest(c) else { return { _ in false } }
        guard property.spec.multiValued else {
            return { item in
                guard let v = item[property] else { return false }
                return test(v.text ?? v.description)
            }
        }
        if c.op == .notEqual, let equal = textTest(Comparison(property, .equal, c.operand, options: c.options)) {
            return { item in
                let values = item.values(of: property)
                return !values.isEmpty && !values.contains(where: equal)
            }
        }
        return { item in item.values(of: property).contains(where: test) }
    }

    /// The comparison's test of one text value, nil when the operand does not fit the operator.
    private static func textTest(_ c: Comparison) -> (@Sendable (String) -> Bool)? {
        let options = c.options, op = c.op
        let fold: @Sendable (String) -> String = { TextFolding.fold($0, options) }
        switch (op, c.operand) {
        case (.matches, .value(let v)):
            let pattern = v.text ?? ""
            return { RegexMatcher.matches($0, pattern: pattern, options: options) }
        case (.between, .range(let lo, let hi)):
            let l = fold(lo.text ?? ""), h = fold(hi.text ?? "")
            return { value in
                let s = fold(value)
                return TextMatching.compare(l, s) <= 0 && TextMatching.compare(s, h) <= 0
            }
        case (.in, .list(let l)):
            let set = l.map { fold($0.text ?? "") }
            return { value in
                let s = fold(value)
                return set.contains { TextMatching.equal($0, s) }
            }
        case (_, .value(let v)):
            let lit = fold(v.text ?? "")
            let test: @Sendable (String) -> Bool
            switch op {
            case .equal: test = { TextMatching.equal($0, lit) }
            case .notEqual: test = { !TextMatching.equal($0, lit) }
            case .less: test = { TextMatching.compare($0, lit) < 0 }
            case .lessOrEqual: test = { TextMatching.compare($0, lit) <= 0 }
            case .greater: test = { TextMatching.compare($0, lit) > 0 }
            case .greaterOrEqual: test = { TextMatching.compare($0, lit) >= 0 }
            case .contains: test = { TextMatching.contains($0, lit) }
            case .beginsWith: test = { TextMatching.hasPrefix($0, lit) }
            case .endsWith: test = { TextMatching.hasSuffix($0, lit) }
            case .like:
                let glob = TextMatching.likeToGlob(lit)
                test = { TextMatching.glob(glob, $0) }
            case .between, .in, .matches: test = { _ in false }
            }
            return { test(fold($0)) }
        default:
            return nil
        }
    }

    private static func number(_ c: Comparison) -> @Sendable (MediaItem) -> Bool {
        let property = c.property, op = c.op
        let cmp: @Sendable (MediaValue, MediaValue) -> Int = NumericOrder.compare
        switch (op, c.operand) {
        case (.between, .range(let lo, let hi)):
            return { item in item[property].map { cmp(lo, $0) <= 0 && cmp($0, hi) <= 0 } ?? false }
        case (.in, .list(let l)):
            return { item in item[property].map { v in l.contains { cmp(v, $0) == 0 } } ?? false }
        case (_, .value(let lit)):
            let test: @Sendable (Int) -> Bool
            switch op {
            case .equal: test = { $0 == 0 }
            case .notEqual: test = { $0 != 0 }
            case .less: test = { $0 < 0 }
            case .lessOrEqual: test = { $0 <= 0 }
            case .greater: test = { $0 > 0 }
            case .greaterOrEqual: test = { $0 >= 0 }
            default: test = { _ in false }
            }
            return { item in item[property].map { test(cmp($0, lit)) } ?? false }
        default:
            return { _ in false }
        }
    }
}

/// Numeric comparison as SQLite does it: integers exactly, otherwise as doubles; booleans are 0/1.
public enum NumericOrder {
    public static func compare(_ a: MediaValue, _ b: MediaValue) -> Int {
        if case .integer(let x) = a, case .integer(let y) = b { return x < y ? -1 : (x > y ? 1 : 0) }
        let x = a.real ?? 0, y = b.real ?? 0
        return x < y ? -1 : (x > y ? 1 : 0)
    }
}

extension Predicate {
    /// Convenience for one item; an invalid predicate matches nothing. For many items build a
    /// `PredicateEvaluator` once.
    public func evaluate(_ item: MediaItem) -> Bool {
        (try? PredicateEvaluator(self))?.matches(item) ?? false
    }
}
