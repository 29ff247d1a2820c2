import MediaModel

/// A predicate run over a `LibrarySnapshot` with the store's answers: each comparison is decided once per
/// distinct value of its property by `PredicateEvaluator` (which tests hold equal to the stores' SQL), so
/// an item's test is a table look-up. `search any x` over 100,000 items is a few thousand evaluations
/// and 100,000 look-ups instead of 100,000 item decodings.
public struct ViewFilter {
    private let test: (Int32) -> Bool

    /// Throws the predicate's `QueryError` (a bad regular expression), or one naming a property the
    /// view does not keep.
    public init(_ predicate: MediaPredicate, in view: LibrarySnapshot) throws {
        test = try Self.build(try predicate.normalized(), view)
    }

    public func matches(_ item: Int32) -> Bool { test(item) }

    private static func build(_ p: MediaPredicate, _ view: LibrarySnapshot) throws -> (Int32) -> Bool {
        switch p {
        case .all: return { _ in true }
        case .none: return { _ in false }
        case .not(let inner):
            let f = try build(inner, view)
            return { !f($0) }
        case .and(let ps):
            let fs = try ps.map { try build($0, view) }
            return { item in fs.allSatisfy { $0(item) } }
        case .or(let ps):
            let fs = try ps.map { try build($0, view) }
            return { item in fs.contains { $0(item) } }
        case .search:
            throw QueryError("the library view has no full-text search")
        case .host:
            throw QueryError("the library view does not know hosts (host:)")
        case .history:
            throw QueryError("the library view has no listening history (plays(…), skips(…))")
        case .comparison(let c):
            return try comparison(c, view)
        }
    }

    private static func comparison(_ c: Comparison, _ view: LibrarySnapshot) throws -> (Int32) -> Bool {
        let evaluator = try PredicateEvaluator(.comparison(c))
        let property = c.property
        func probe(_ value: MediaValue?) -> Bool {
            var item = MediaItem(path: MediaPath(""))
            item[property] = value
            return evaluator.matches(item)
        }
        switch property {
        case .path:
            // `file == URI` and `base DIR` (MPD's commonest path filters): a look-up and a range of the
            // path-ordered items rather than a comparison per item.
            if c.options.isEmpty, case .value(.text(let text)) = c.operand {
                let path = MediaPath(text)
                if c.op == .equal {
                    let target = view.item(path: path)
                    return { $0 == target }
                }
                if c.op == .beginsWith {
                    let range = view.range(withPrefix: path.bytes)
                    return { range.contains($0) }
                }
            }
            return { evaluator.matches(MediaItem(path: view.paths[Int($0)])) }
        case .modificationDate:
            let whenMissing = probe(nil)
            return { i in
                let m = view.modified[Int(i)]
                return m.isNaN ? whenMissing : probe(.real(m))
            }
        default:
            guard let p = view.schema.properties.firstIndex(of: property) else {
                throw QueryError("the library view does not keep \(property.rawValue)")
            }
            let values = view.propertyValues[p]
            var verdicts = [Bool](repeating: false, count: values.count)
            verdicts[0] = probe(nil)
            for n in 1..<values.count { verdicts[n] = probe(values[n]) }
            let cells = view.propertyCells
            return { i in verdicts[Int(cells[Int(i), p])] }
        }
    }
}
