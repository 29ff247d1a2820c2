import GRDB
import MediaIndex
import MediaModel

/// Compiles a `MediaQuery` into parameterised SQL over the `items` table (schema: INDEX-CONTRACT.md,
/// columns named by `ItemRow`). Values are always bound as arguments, never spliced into the text; the
/// only identifiers in the SQL come from `MediaProperty` raw values.
///
/// The SQL means exactly what `PredicateEvaluator` computes in memory (tests compare both on random
/// predicates and items):
/// - A comparison with a missing value is NULL in SQL, which WHERE, AND and OR treat as false; only NOT
///   would keep it unknown, so NOT is compiled as `NOT IFNULL(x, 0)`: missing values compare false and
///   NOT simply negates.
/// - `[cd]` on searchable properties reads the stored `<name>_folded` column (indexed) with the literal
///   folded by the same `TextFolding`; `[c]` or `[d]` alone, and any modifier on other text properties,
///   fold per row through the `mlib_fold` SQL function (`QueryFunctions`).
/// - Exact `==`/`IN` on a searchable property also test the folded column first: equal text has equal
///   folded text, and that column is indexed.
/// - CONTAINS is `instr` (byte exact); BEGINSWITH, ENDSWITH and LIKE are GLOB with the literal escaped,
///   so `%`, `_`, `*`, `?`, `[` in values match themselves.
enum QueryCompiler {
    /// A piece of SQL and the values for its `?` placeholders, in order.
    struct Fragment {
        var sql: String
        var arguments: [DatabaseValue] = []
    }

    // MARK: Entry points (SQLiteQueryCompiler, below, is what SQLStore+Reading.swift calls)

    /// The SELECT `SQLStore.forEachItem` runs for an unpaged query (the plan tests EXPLAIN it).
    static func itemsSQL(_ query: MediaQuery) throws -> (sql: String, arguments: StatementArguments) {
        let w = try whereClause(query.filter)
        let sql = "SELECT \(ItemRow.selectColumns) FROM items WHERE \(w.sql) ORDER BY \(orderBy(query.effectiveSort))"
        return (sql, StatementArguments(w.arguments))
    }

    // MARK: WHERE

    /// WHERE for any predicate: normalized first, so a bad literal is a `QueryError`, not wrong SQL.
    /// Items hidden by a partial scan (`missing_gen`, see `SQLiteIndex.hideItems`) are never selected.
    static func whereClause(_ predicate: Predicate) throws -> Fragment {
        let filter = condition(try predicate.normalized())
        return Fragment(sql: "items.missing_gen IS NULL AND (\(filter.sql))", arguments: filter.arguments)
    }

    /// SQL for a normalized predicate.
    static func condition(_ p: Predicate) -> Fragment {
        switch p {
        case .all: return Fragment(sql: "1")
        case .none: return Fragment(sql: "0")
        case .not(let inner):
            let f = condition(inner)
            return Fragment(sql: "NOT IFNULL((\(f.sql)), 0)", arguments: f.arguments)
        case .and(let ps): return join(ps, "AND", empty: "1")
        case .or(let ps): return join(ps, "OR", empty: "0")
        case .search(let text):
            guard let match = FullTextSearch.ftsMatchExpression(text) else { return Fragment(sql: "1") }
            return Fragment(sql: "items.id IN (SELECT rowid FROM items_fts WHERE items_fts MATCH ?)",
                            arguments: [match.databaseValue])
        case .comparison(let c):
            return comparison(c)
        }
    }

    private static func join(_ ps: [Predicate], _ op: String, empty: String) -> Fragment {
        if ps.isEmpty { return Fragment(sql: empty) }
        let parts = ps.map(condition)
        return Fragment(sql: parts.map { "(\($0.sql))" }.joined(separator: " \(op) "),
                        arguments: parts.flatMap(\.arguments))
    }

    static func column(_ p: MediaProperty) -> String { ItemRow.valueExpression(p) }
    static func foldedColumn(_ p: MediaProperty) -> String { "items." + ItemRow.quoted(ItemRow.foldedColumn(p)) }

    static func bind(_ v: MediaValue) -> DatabaseValue {
        switch v {
        case .text(let s): s.databaseValue
        case .integer(let i): i.databaseValue
        case .real(let d): d.databaseValue
        case .bool(let b): (b ? 1 : 0).databaseValue
        }
    }

    private static func placeholders(_ n: Int) -> String { Array(repeating: "?", count: n).joined(separator: ", ") }

    private static func comparison(_ c: Comparison) -> Fragment {
        let col = column(c.property)
        if case .null = c.operand {
            return Fragment(sql: c.op == .equal ? "\(col) IS NULL" : "\(col) IS NOT NULL")
        }
        switch c.property.spec.type {
        case .mediaType:
            // A kind is a set of bits: `mediaType == music` asks whether the music bit is set.
            let values: [MediaValue]
            switch c.operand { case .value(let v): values = [v]; case .list(let l): values = l; default: values = [] }
            let mask = values.reduce(Int64(0)) { $0 | ($1.integer ?? 0) }
            return Fragment(sql: "(\(col) & ?) \(c.op == .notEqual ? "=" : "!=") 0", arguments: [mask.databaseValue])
        case .text, .date:
            return c.property.spec.multiValued ? eachValue(c) : text(c, col)
        default:
            return number(c, col)
        }
    }

    /// The values of a multi-valued text column ("Rock; Jazz") as rows of a `json_each` whose `value` is
    /// each one: the text made a JSON array by quoting it and closing/reopening the string at each
    /// separator (which JSON quoting leaves as it is). No rows for NULL.
    static func eachValueTable(_ column: String) -> String {
        let separator = MediaProperty.valueSeparator.replacingOccurrences(of: "'", with: "''")
        return "json_each('[' || replace(json_quote(\(column)), '\(separator)', '\",\"') || ']')"
    }

    /// A comparison on a multi-valued property: true when any value satisfies it, as `PredicateEvaluator`;
    /// `!=` is true when there are values and none is equal. `[cd]` splits the stored folded column.
    private static func eachValue(_ c: Comparison) -> Fragment {
        if c.op == .notEqual {
            let equal = eachValue(Comparison(c.property, .equal, c.operand, options: c.options))
            return Fragment(sql: "\(column(c.property)) IS NOT NULL AND NOT (\(equal.sql))", arguments: equal.arguments)
        }
        let prefolded = c.op != .matches && c.options == .cd && c.property.spec.searchable
        let col = column(c.property)
        let source = prefolded ? foldedColumn(c.property) : col
        let leaf = text(c, "mv.value", searchable: false, prefolded: prefolded)
        let whole = text(c, col)
        let multi = multiValuedRow(c.property)
        let split = "EXISTS (SELECT 1 FROM \(eachValueTable(source)) AS mv WHERE \(leaf.sql))"
        // When the whole-value comparison can use the folded column's index (exact ==/IN, any [cd]), the rows
        // are found in two indexed parts: single values by that index, and the values of rows holding a
        // separator from their partial index (schema step v10), which holds only those rows, so the
        // split costs nothing for the others. 100,000 rows: ~1 ms instead of ~25 ms for the CASE below
        // (Benchmarks/query-bench).
        if c.property.spec.searchable && (c.options == .cd || (c.options.isEmpty && [.equal, .in].contains(c.op))) {
            let hint = substringHint(c, prefolded ? foldedColumn(c.property) : col)
            return Fragment(sql: "items.id IN (SELECT items.id FROM items WHERE NOT (\(multi)) AND (\(whole.sql)) "
                                + "UNION ALL SELECT items.id FROM items WHERE \(multi)\(hint.sql) AND \(split))",
                            arguments: whole.arguments + hint.arguments + leaf.arguments)
        }
        // Otherwise only a value with a separator is split: a 100,000-row scan costs ~15 ms instead of ~140 ms
        // splitting every row (sqlite3, user time).
        return Fragment(sql: "CASE WHEN \(multi) THEN \(split) ELSE (\(whole.sql)) END",
                        arguments: leaf.arguments + whole.arguments)
    }

    /// True for a row whose `p` holds several values. Written exactly as the WHERE of schema step v10's indexes,
    /// so SQLite knows a query with this term may read that partial index.
    static func multiValuedRow(_ p: MediaProperty) -> String {
        let sep = MediaProperty.valueSeparator.replacingOccurrences(of: "'", with: "''")
        return "instr(items.\(ItemRow.quoted(p.rawValue)), '\(sep)') > 0"
    }

    /// A cheap test that must hold for a whole multi-valued text to have a value satisfying `c` (the literal is
    /// part of it, for ==, CONTAINS, BEGINSWITH, ENDSWITH), tried before splitting the text; empty otherwise.
    private static func substringHint(_ c: Comparison, _ col: String) -> Fragment {
        guard [.equal, .contains, .beginsWith, .endsWith].contains(c.op), c.options.isEmpty || c.options == .cd,
              case .value(let v) = c.operand else { return Fragment(sql: "") }
        let literal = TextFolding.fold(v.text ?? v.description, c.options)
        return Fragment(sql: " AND instr(\(col), ?) > 0", arguments: [literal.databaseValue])
    }

    private static func number(_ c: Comparison, _ col: String) -> Fragment {
        switch (c.op, c.operand) {
        case (.between, .range(let lo, let hi)):
            return Fragment(sql: "\(col) BETWEEN ? AND ?", arguments: [bind(lo), bind(hi)])
        case (.in, .list(let l)):
            if l.isEmpty { return Fragment(sql: "0") }
            return Fragment(sql: "\(col) IN (\(placeholders(l.count)))", arguments: l.map(bind))
        case (let op, .value(let v)):
            let sqlOp: String
            switch op {
            case .equal: sqlOp = "="
            case .notEqual: sqlOp = "!="
            case .less: sqlOp = "<"
            case .lessOrEqual: sqlOp = "<="
            case .greater: sqlOp = ">"
            case .greaterOrEqual: sqlOp = ">="
            default: return Fragment(sql: "0")    // excluded by normalization
            }
            return Fragment(sql: "\(col) \(sqlOp) ?", arguments: [bind(v)])
        default:
            return Fragment(sql: "0")
        }
    }

    /// A text comparison of `col`. `searchable: false` ignores the property's folded column (a value of a
    /// multi-valued one is compared alone); `prefolded` says `col` already holds `[cd]`-folded text.
    private static func text(_ c: Comparison, _ col: String, searchable: Bool? = nil, prefolded: Bool = false) -> Fragment {
        let options = c.options
        if c.op == .matches, case .value(let v) = c.operand {
            return Fragment(sql: "mlib_matches(\(col), ?, \(options.rawValue))", arguments: [bind(v)])
        }
        let searchable = searchable ?? c.property.spec.searchable
        // The expression compared: raw column, stored folded column, or folded per row.
        let expr = options.isEmpty || prefolded ? col
            : (searchable && options == .cd ? foldedColumn(c.property) : "mlib_fold(\(col), \(options.rawValue))")
        func lit(_ v: MediaValue) -> String { TextFolding.fold(v.text ?? v.description, options) }
        let exactOnSearchable = options.isEmpty && searchable

        switch (c.op, c.operand) {
        case (.between, .range(let lo, let hi)):
            return Fragment(sql: "\(expr) BETWEEN ? AND ?", arguments: [lit(lo).databaseValue, lit(hi).databaseValue])
        case (.in, .list(let l)):
            if l.isEmpty { return Fragment(sql: "0") }
            let values = l.map { lit($0).databaseValue }
            if exactOnSearchable {
                let folded = l.map { TextFolding.folded($0.text ?? $0.description).databaseValue }
                return Fragment(sql: "\(foldedColumn(c.property)) IN (\(placeholders(l.count))) AND \(expr) IN (\(placeholders(l.count)))",
                                arguments: folded + values)
            }
            return Fragment(sql: "\(expr) IN (\(placeholders(l.count)))", arguments: values)
        case (let op, .value(let v)) where !options.isEmpty && expr == foldedColumn(c.property)
                && [.contains, .beginsWith, .endsWith, .like].contains(op):
            // A substring or pattern test cannot seek, but it can scan the folded column's index (covering:
            // it holds the value and the id), several times smaller than the table: 100,000 rows in ~8 ms
            // instead of ~40 ms. NULL semantics are unchanged (`id IN (…)` is false where the test is not true).
            let f = text(Comparison(c.property, op, .value(.text(lit(v)))), foldedColumn(c.property))
            return Fragment(sql: "items.id IN (SELECT items.id FROM items WHERE \(f.sql))", arguments: f.arguments)
        case (let op, .value(let v)):
            let s = lit(v)
            switch op {
            case .equal:
                if exactOnSearchable {
                    return Fragment(sql: "\(foldedColumn(c.property)) = ? AND \(expr) = ?",
                                    arguments: [TextFolding.folded(s).databaseValue, s.databaseValue])
                }
                return Fragment(sql: "\(expr) = ?", arguments: [s.databaseValue])
            case .notEqual: return Fragment(sql: "\(expr) != ?", arguments: [s.databaseValue])
            case .less: return Fragment(sql: "\(expr) < ?", arguments: [s.databaseValue])
            case .lessOrEqual: return Fragment(sql: "\(expr) <= ?", arguments: [s.databaseValue])
            case .greater: return Fragment(sql: "\(expr) > ?", arguments: [s.databaseValue])
            case .greaterOrEqual: return Fragment(sql: "\(expr) >= ?", arguments: [s.databaseValue])
            case .contains: return Fragment(sql: "instr(\(expr), ?) > 0", arguments: [s.databaseValue])
            case .beginsWith:
                return Fragment(sql: "\(expr) GLOB ?", arguments: [(TextMatching.globEscaped(s) + "*").databaseValue])
            case .endsWith:
                return Fragment(sql: "\(expr) GLOB ?", arguments: [("*" + TextMatching.globEscaped(s)).databaseValue])
            case .like:
                return Fragment(sql: "\(expr) GLOB ?", arguments: [TextMatching.likeToGlob(s).databaseValue])
            case .between, .in, .matches:
                return Fragment(sql: "0")
            }
        default:
            return Fragment(sql: "0")
        }
    }

    // MARK: ORDER BY

    /// ORDER BY terms for `sort` (already in album order), ending with `items.id` so the order is total.
    static func orderBy(_ sort: [SortDescriptor]) -> String {
        var terms: [String] = []
        for d in sort {
            let dir = d.ascending ? "ASC" : "DESC"
            let col = column(d.property)
            switch SortDescriptor.kind(of: d.property) {
            case .pathBytes:
                terms.append("items.path \(dir)")
            case .foldedText:
                var key = d.property.spec.searchable ? foldedColumn(d.property) : "mlib_fold(\(col), 3)"
                if d.ignoreArticles { key = "mlib_strip_articles(\(key))" }
                terms += ["\(col) IS NULL", "\(key) \(dir)"]
            case .isoText, .numeric:
                terms += ["\(col) IS NULL", "\(col) \(dir)"]
            }
        }
        return (terms + ["items.id"]).joined(separator: ", ")
    }

    // MARK: Grouping

    /// SQL for each part of `grouping.keyParts` (folded columns, so grouping uses their indexes).
    static func groupKeyExpressions(_ grouping: MediaGrouping) -> [String] {
        grouping.groupsByEachValue ? ["gv.value"] : wholeKeyExpressions(grouping)
    }

    /// The folded key parts of whole values (`groupKeyExpressions` splits them for a grouping by value).
    static func wholeKeyExpressions(_ grouping: MediaGrouping) -> [String] {
        grouping.keyParts.map { part in
            let primary = part.property.spec.searchable ? foldedColumn(part.property) : "mlib_fold(\(column(part.property)), 3)"
            guard let fallback = part.fallback else { return primary }
            let second = fallback.spec.searchable ? foldedColumn(fallback) : "mlib_fold(\(column(fallback)), 3)"
            return "coalesce(\(primary), \(second))"
        }
    }
}

/// SQLite's `QueryCompiling`: every leaf is exact (what SQL cannot say, the registered Swift functions of
/// QueryFunctions.swift do), so there is never a residual and every order is SQL's.
struct SQLiteQueryCompiler: QueryCompiling {
    func filter(_ predicate: MediaModel.Predicate) throws -> CompiledFilter {
        CompiledFilter(condition: QueryCompiler.condition(predicate).statement, residual: nil)
    }

    func orderBy(_ sort: [SortDescriptor]) -> String? { QueryCompiler.orderBy(sort) }

    func groupKeys(_ grouping: MediaGrouping) -> [String]? { QueryCompiler.groupKeyExpressions(grouping) }

    func eachValue(of grouping: MediaGrouping, as alias: String) -> String {
        "\(QueryCompiler.eachValueTable(QueryCompiler.wholeKeyExpressions(grouping)[0])) AS \(alias)"
    }
}

extension QueryCompiler.Fragment {
    /// The fragment as an `SQLStatement`: its `?` placeholders become markers, in order.
    var statement: SQLStatement {
        SQLStatement(markedText: sql.replacingOccurrences(of: "?", with: "\u{1}"),
                     values: arguments.map(SQLiteConnection.Executor.value))
    }
}
