import MediaModel

/// A predicate compiled for one dialect: SQL that selects the matching items (or, when `residual` is set, a
/// superset of them that `residual` then filters in Swift, with `PredicateEvaluator`). See `QueryPlan`.
package struct CompiledFilter {
    package var condition: SQLStatement
    package var residual: MediaModel.Predicate?
    package init(condition: SQLStatement, residual: MediaModel.Predicate?) {
        self.condition = condition
        self.residual = residual
    }
}

/// What differs between the dialects' query SQL; `SQLStore`'s reading (SQLStore+Reading.swift) is written
/// once over it. Contract: whatever SQL a compiler emits, the answers equal the in-memory reference
/// (`MediaQuery.apply(to:)`, `collections(from:)`): where the dialect cannot say something exactly, it
/// returns a residual or nil and the reference does that part (`QueryAgreementTests` holds both to it).
package protocol QueryCompiling: Sendable {
    /// The condition for a normalized predicate (without the hidden-items test, which the store adds).
    func filter(_ predicate: MediaModel.Predicate) throws -> CompiledFilter
    /// ORDER BY terms ordering exactly as `ItemOrdering`, ending with `items.id`; nil when only Swift can.
    func orderBy(_ sort: [SortDescriptor]) -> String?
    /// Per grouping part, an SQL expression whose value is the group key exactly as `MediaGrouping.keys(of:)`
    /// computes it, in an order of `MediaGrouping.compareKeys`; nil when the dialect has no such expression.
    /// For a grouping by each value, the one key is the column `value` of `eachValue`.
    func groupKeys(_ grouping: MediaGrouping) -> [String]?
    /// For a grouping by each value: a FROM item named `alias` with one row (column `value`) per value of the
    /// item's folded key (the property's, else the fallback's), joined to `items` (LEFT JOIN … ON TRUE).
    func eachValue(of grouping: MediaGrouping, as alias: String) -> String
    /// The rows of `matching` (a `FROM items WHERE …` clause), ordered by `order`, paged, as `columns`.
    func orderedSelect(_ columns: String, _ matching: SQLStatement, order: String, limit: Int?, offset: Int) -> SQLStatement
}

extension QueryCompiling {
    /// LIMIT/OFFSET both dialects read (a missing limit as the largest one).
    package func page(limit: Int?, offset: Int) -> SQLStatement { SQLStatement.page(limit: limit, offset: offset) }
}

extension SQLStatement {
    /// LIMIT/OFFSET both dialects read (a missing limit as the largest one).
    package static func page(limit: Int?, offset: Int) -> SQLStatement {
        guard limit != nil || offset > 0 else { return "" }
        return " LIMIT \(Int64(max(0, limit ?? Int(Int64.max)))) OFFSET \(Int64(max(0, offset)))"
    }
}
