import MediaModel

/// What a store's SQL answers of a query, and what is left for Swift (the dialect-neutral half of query
/// compilation). A dialect says, for each leaf of a predicate, whether its SQL is exact; the planner then
/// builds a WHERE clause that selects a superset of the matching items — exact leaves as they are, a leaf
/// the dialect cannot answer as TRUE where it counts for the item and FALSE where it counts against it
/// (under NOT) — and, when any leaf was not exact, the whole predicate is the residual, evaluated by
/// `PredicateEvaluator` on the rows the SQL returned. The answers are the evaluator's, so every store
/// agrees with it by construction where its SQL cannot; `QueryAgreementTests` checks the exact SQL.
/// (SQLite answers every leaf through its registered Swift functions: it never has a residual.)
/// `SQLQueryCompiler` is the one implementation, over a store's `SQLDialect`.
package protocol QueryLeaves {
    /// SQL true exactly where the comparison holds (NULL or false elsewhere), or nil when it cannot say.
    mutating func exact(_ comparison: Comparison) -> String?
    /// SQL true exactly for the items a full-text search matches, or nil when it cannot say.
    mutating func exactSearch(_ text: String) -> String?
    /// SQL true at least for the items a full-text search matches (a prefilter), or nil.
    mutating func searchSuperset(_ text: String) -> String?
    /// True when the search has no words (it matches everything).
    func searchIsTrivial(_ text: String) -> Bool
}

package struct QueryPlan {
    /// A WHERE condition selecting every matching item (and, when `residual` is set, perhaps more).
    package var condition: String
    /// The predicate to apply in Swift to the rows `condition` selects, or nil when the SQL is exact.
    package var residual: Predicate?

    /// Plans a normalized predicate.
    package static func plan<D: QueryLeaves>(_ predicate: Predicate, _ dialect: inout D) -> QueryPlan {
        var inexact = false
        let condition = bound(predicate, superset: true, &dialect, &inexact)
        return QueryPlan(condition: condition, residual: inexact ? predicate : nil)
    }

    /// SQL selecting a superset (or, for `superset == false`, a subset) of the items `p` matches.
    private static func bound<D: QueryLeaves>(_ p: Predicate, superset: Bool, _ dialect: inout D, _ inexact: inout Bool) -> String {
        switch p {
        case .all: return "TRUE"
        case .none: return "FALSE"
        case .not(let inner):
            // A missing value compares false and NOT negates: NULL counts as false before the NOT.
            return "NOT COALESCE((\(bound(inner, superset: !superset, &dialect, &inexact))), FALSE)"
        case .and(let ps):
            if ps.isEmpty { return "TRUE" }
            return ps.map { "(\(bound($0, superset: superset, &dialect, &inexact)))" }.joined(separator: " AND ")
        case .or(let ps):
            if ps.isEmpty { return "FALSE" }
            return ps.map { "(\(bound($0, superset: superset, &dialect, &inexact)))" }.joined(separator: " OR ")
        case .search(let text):
            if dialect.searchIsTrivial(text) { return "TRUE" }
            if let sql = dialect.exactSearch(text) { return sql }
            inexact = true
            if superset { return dialect.searchSuperset(text) ?? "TRUE" }
            return "FALSE"
        case .history(let term):
            return HistoryCondition.sql(term)
        case .host:
            // Answered by the store before compiling (SQLStore.resolvingHosts): here only if it was not.
            inexact = true
            return superset ? "TRUE" : "FALSE"
        case .comparison(let c):
            if let sql = dialect.exact(c) { return sql }
            inexact = true
            return superset ? "TRUE" : "FALSE"
        }
    }
}
