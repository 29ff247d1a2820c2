import Foundation
import PostgresNIO
import MediaIndex
import MediaModel

/// PostgreSQL's dialect for `QueryPlan`: exact SQL for what the server answers with the same results as the
/// in-memory evaluator, nothing for what it would answer differently.
/// - Exact: NULL tests, numbers, media-type bits, and text compared as stored (columns are `COLLATE "C"`:
///   byte order, as SQLite's BINARY) — `=`, `<`…, BETWEEN, IN, CONTAINS (`strpos`), BEGINSWITH
///   (`starts_with`), ENDSWITH, LIKE (its `*`/`?` rewritten as `%`/`_`, everything else escaped); and
///   `[cd]` on a searchable property, through its `<name>_folded` column written with the same
///   `TextFolding` as SQLite's (the literal folded the same way).
/// - Residual: MATCHES (ICU regular expressions; PostgreSQL's dialect differs), `[c]` or `[d]` alone and
///   any modifier on a property without a folded column (folding per row is TextFolding's, in Swift), and
///   full-text search (its SQL is a prefilter: every query word is a substring of `search_text`, through the
///   trigram index; the FTS5 word-prefix rule is then checked in Swift).
struct PostgresDialect: SQLDialect {
    var sql = ValueBinder()

    static func column(_ p: MediaProperty) -> String { ItemRow.valueExpression(p) }
    static func foldedColumn(_ p: MediaProperty) -> String { "items." + ItemRow.quoted(ItemRow.foldedColumn(p)) }

    func searchIsTrivial(_ text: String) -> Bool { FullTextSearch.queryTokens(text).isEmpty }

    mutating func searchSuperset(_ text: String) -> String? {
        guard ItemRow.searchable == PostgresSchema.searchTextProperties else { return nil }
        let words = FullTextSearch.queryTokens(text)
        return words.map { "items.search_text LIKE \(sql.bind("%" + Self.likeEscaped($0) + "%"))" }.joined(separator: " AND ")
    }

    /// `%`, `_` and `\` escaped for LIKE (whose escape character is `\`).
    static func likeEscaped(_ s: String) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            if ch == "%" || ch == "_" || ch == "\\" { out.append("\\") }
            out.unicodeScalars.append(ch)
        }
        return out
    }

    /// mlib's LIKE (`*`, `?`, `\` escapes the next character) as PostgreSQL's.
    static func likePattern(_ pattern: String) -> String {
        var out = ""
        var escaped = false
        for ch in pattern.unicodeScalars {
            if escaped { out += likeEscaped(String(ch)); escaped = false; continue }
            switch ch {
            case "\\": escaped = true
            case "*": out += "%"
            case "?": out += "_"
            default: out += likeEscaped(String(ch))
            }
        }
        if escaped { out += "\\\\" }
        return out
    }

    mutating func exact(_ c: Comparison) -> String? {
        let col = Self.column(c.property)
        if case .null = c.operand { return c.op == .equal ? "\(col) IS NULL" : "\(col) IS NOT NULL" }
        switch c.property.spec.type {
        case .mediaType:
            let values: [MediaValue]
            switch c.operand { case .value(let v): values = [v]; case .list(let l): values = l; default: values = [] }
            let mask = values.reduce(Int64(0)) { $0 | ($1.integer ?? 0) }
            return "(\(col) & \(sql.bind(mask))) \(c.op == .notEqual ? "=" : "<>") 0"
        case .text, .date:
            guard let exact = text(c, col) else { return nil }
            return trigramPrefilter(c).map { "(\(exact)) AND \($0)" } ?? exact
        default:
            return number(c, col)
        }
    }

    /// For CONTAINS[cd] on a searchable property, a condition every answer meets that the trigram index on
    /// `search_text` can find (the folded columns are joined there, so a substring of one is a substring of
    /// it): without it the comparison (a CASE, for a multi-valued property) reads every row (29 ms of
    /// `ls artist:velvet`'s 10,000-item library). Only for a literal with a letter or digit: pg_trgm takes
    /// no trigram from anything else, and the index could not help.
    private mutating func trigramPrefilter(_ c: Comparison) -> String? {
        guard c.op == .contains, c.options == .cd, c.property.spec.searchable,
              ItemRow.searchable == PostgresSchema.searchTextProperties, case .value(let v) = c.operand else { return nil }
        let folded = TextFolding.fold(v.text ?? v.description, c.options)
        guard folded.unicodeScalars.contains(where: { CharacterSet.alphanumerics.contains($0) }) else { return nil }
        return "items.search_text LIKE \(sql.bind("%" + Self.likeEscaped(folded) + "%"))"
    }

    /// A number literal bound as a number (a text literal that is not one: left to Swift).
    private mutating func number(_ v: MediaValue) -> String? {
        switch v {
        case .integer(let i): return sql.bind(i)
        case .real(let d): return sql.bind(d)
        case .bool(let b): return sql.bind(Int64(b ? 1 : 0))
        case .text: return nil
        }
    }

    private mutating func number(_ c: Comparison, _ col: String) -> String? {
        switch (c.op, c.operand) {
        case (.between, .range(let lo, let hi)):
            guard let l = number(lo), let h = number(hi) else { return nil }
            return "\(col) BETWEEN \(l) AND \(h)"
        case (.in, .list(let list)):
            if list.isEmpty { return "FALSE" }
            var marks: [String] = []
            for v in list { guard let m = number(v) else { return nil }; marks.append(m) }
            return "\(col) IN (\(marks.joined(separator: ", ")))"
        case (let op, .value(let v)):
            guard let sqlOp = Self.sqlOperator(op), let m = number(v) else { return op.isOrdering ? nil : "FALSE" }
            return "\(col) \(sqlOp) \(m)"
        default:
            return "FALSE"
        }
    }

    private static func sqlOperator(_ op: Comparison.Operator) -> String? {
        switch op {
        case .equal: "="
        case .notEqual: "<>"
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        default: nil
        }
    }

    /// A comparison on a multi-valued property: true when any value satisfies it (`!=`: there are values
    /// and none is equal), as `PredicateEvaluator`. `[cd]` splits the stored folded column.
    private mutating func eachValue(_ c: Comparison, _ col: String) -> String? {
        if c.op == .notEqual {
            guard let equal = eachValue(Comparison(c.property, .equal, c.operand, options: c.options), col) else { return nil }
            return "\(col) IS NOT NULL AND NOT COALESCE((\(equal)), FALSE)"
        }
        let prefolded = c.options == .cd && c.property.spec.searchable
        guard c.options.isEmpty || prefolded else { return nil }
        let source = prefolded ? Self.foldedColumn(c.property) : col
        guard let leaf = text(c, "mv.v COLLATE \"C\"", eachValue: true), let whole = text(c, col, eachValue: false, split: false)
        else { return nil }
        let sep = MediaProperty.valueSeparator.replacingOccurrences(of: "'", with: "''")
        let multi = "strpos(\(col), '\(sep)') > 0"            // as the WHERE of "pg v4"'s partial indexes
        let split = "EXISTS (SELECT 1 FROM unnest(string_to_array(\(source), '\(sep)')) AS mv(v) WHERE \(leaf))"
        // Equality (== or IN, exact or [cd]): rows with one value by the folded column's index, rows with
        // several from their partial index, so no row is read that cannot match (as SQLite's QueryCompiler).
        if [.equal, .in].contains(c.op) && PostgresSchema.multiValuedIndexed.contains(c.property) && col == Self.column(c.property) {
            return "items.id IN (SELECT items.id FROM items WHERE NOT (\(multi)) AND (\(whole)) "
                + "UNION ALL SELECT items.id FROM items WHERE \(multi) AND \(split))"
        }
        // Otherwise only a value with a separator is split: a single value keeps its indexed comparison.
        return "CASE WHEN \(multi) THEN \(split) ELSE (\(whole)) END"
    }

    /// A text comparison of `col`; with `eachValue`, `col` is one value of a multi-valued property, already
    /// folded when the comparison is `[cd]`.
    private mutating func text(_ c: Comparison, _ col: String, eachValue: Bool = false, split: Bool = true) -> String? {
        if c.op == .matches { return nil }
        if c.property.spec.multiValued && !eachValue && split { return self.eachValue(c, col) }
        let expr: String
        if c.options.isEmpty || eachValue {
            expr = col
        } else if c.options == .cd && c.property.spec.searchable {
            expr = Self.foldedColumn(c.property)
        } else {
            return nil
        }
        func lit(_ v: MediaValue) -> String { TextFolding.fold(v.text ?? v.description, c.options) }
        switch (c.op, c.operand) {
        case (.between, .range(let lo, let hi)):
            return "\(expr) BETWEEN \(sql.bind(lit(lo))) AND \(sql.bind(lit(hi)))"
        case (.in, .list(let list)):
            if list.isEmpty { return "FALSE" }
            // The folded column is indexed by its prefix ("pg v5"): the prefixes find the rows.
            if expr == Self.foldedColumn(c.property) && !eachValue {
                let values = list.map(lit)
                return "\(PostgresSchema.foldedIndexKey(expr)) = ANY(\(sql.bind(values.map(Self.indexPrefix)))) AND \(expr) = ANY(\(sql.bind(values)))"
            }
            return "\(expr) = ANY(\(sql.bind(list.map(lit))))"
        case (let op, .value(let v)):
            let s = lit(v)
            switch op {
            case .equal:
                // Equal text has equal folded text: the folded column's prefix index finds the rows ("pg v5").
                if c.property.spec.searchable && !eachValue && (c.options.isEmpty || expr == Self.foldedColumn(c.property)) {
                    let folded = Self.foldedColumn(c.property), f = sql.bind(TextFolding.folded(s))
                    let prefix = "\(PostgresSchema.foldedIndexKey(folded)) = \(PostgresSchema.foldedIndexKey(f)) AND \(folded) = \(f)"
                    return expr == folded ? prefix : "\(prefix) AND \(expr) = \(sql.bind(s))"
                }
                return "\(expr) = \(sql.bind(s))"
            case .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
                return "\(expr) \(Self.sqlOperator(op)!) \(sql.bind(s))"
            case .contains: return "strpos(\(expr), \(sql.bind(s))) > 0"
            case .beginsWith: return "starts_with(\(expr), \(sql.bind(s)))"
            case .endsWith:
                let m = sql.bind(s)
                return "right(\(expr), char_length(\(m))) = \(m)"
            case .like: return "\(expr) LIKE \(sql.bind(Self.likePattern(s)))"
            case .between, .in, .matches: return "FALSE"
            }
        default:
            return "FALSE"
        }
    }

    /// A folded value's first 256 characters, as `PostgresSchema.foldedIndexKey` takes them (PostgreSQL's
    /// characters are Unicode scalars).
    static func indexPrefix(_ folded: String) -> String { String(String.UnicodeScalarView(folded.unicodeScalars.prefix(256))) }

    /// ORDER BY for `sort` when the server orders exactly as `ItemOrdering` does, else nil (sorted in Swift).
    static func orderBy(_ sort: [MediaModel.SortDescriptor]) -> String? {
        var terms: [String] = []
        for d in sort {
            let dir = d.ascending ? "ASC" : "DESC"
            let col = column(d.property)
            switch MediaModel.SortDescriptor.kind(of: d.property) {
            case .pathBytes:
                terms.append("items.path \(dir)")
            case .foldedText:
                guard d.property.spec.searchable, !d.ignoreArticles else { return nil }
                terms += ["(\(col) IS NULL)", "\(foldedColumn(d.property)) \(dir)"]
            case .isoText, .numeric:
                terms += ["(\(col) IS NULL)", "\(col) \(dir)"]
            }
        }
        return (terms + ["items.id"]).joined(separator: ", ")
    }
}

private extension Comparison.Operator {
    var isOrdering: Bool { [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual].contains(self) }
}

/// PostgreSQL's `QueryCompiling`: `QueryPlan` with `PostgresDialect` (a residual where the server would
/// answer differently), orders the server reproduces, and groupings by the folded columns (`COLLATE "C"`,
/// byte order, as SQLite's BINARY and `MediaGrouping.compareKeys`).
struct PostgresQueryCompiler: QueryCompiling {
    func filter(_ predicate: MediaModel.Predicate) throws -> CompiledFilter {
        var dialect = PostgresDialect()
        let plan = QueryPlan.plan(predicate, &dialect)
        return CompiledFilter(condition: dialect.sql.statement(plan.condition), residual: plan.residual)
    }

    func orderBy(_ sort: [MediaModel.SortDescriptor]) -> String? { PostgresDialect.orderBy(sort) }

    func groupKeys(_ grouping: MediaGrouping) -> [String]? {
        guard let keys = wholeKeys(grouping) else { return nil }
        return grouping.groupsByEachValue ? [#"gv.value COLLATE "C""#] : keys
    }

    /// The folded key of each part (the fallback's where the property has none), or nil when a property has
    /// no folded column (grouped in Swift).
    private func wholeKeys(_ grouping: MediaGrouping) -> [String]? {
        var keys: [String] = []
        for part in grouping.keyParts {
            let properties = [part.property] + (part.fallback.map { [$0] } ?? [])
            guard properties.allSatisfy(ItemRow.searchable.contains) else { return nil }
            let columns = properties.map(PostgresDialect.foldedColumn)
            keys.append(columns.count == 1 ? columns[0] : "COALESCE(\(columns.joined(separator: ", ")))")
        }
        return keys
    }

    /// The values split at the separator (an empty key is one empty value, as in Swift; `string_to_array`
    /// alone gives none).
    func eachValue(of grouping: MediaGrouping, as alias: String) -> String {
        let key = wholeKeys(grouping)?.first ?? "NULL"
        let separator = MediaProperty.valueSeparator.replacingOccurrences(of: "'", with: "''")
        return "unnest(CASE WHEN \(key) = '' THEN ARRAY[''] ELSE string_to_array(\(key), '\(separator)') END) AS \(alias)(value)"
    }

    /// Sorted as ids, then the rows joined in that order: sorting the whole 60-column rows cost the server
    /// more than finding them (`ls artist:X` on 10,000 items: 13 ms -> 8 ms of execution).
    func orderedSelect(_ columns: String, _ matching: SQLStatement, order: String, limit: Int?, offset: Int) -> SQLStatement {
        """
        SELECT \(raw: columns) FROM (SELECT items.id, row_number() OVER (ORDER BY \(raw: order)) AS mlib_rank \(matching)
        ORDER BY mlib_rank\(page(limit: limit, offset: offset))) AS ranked JOIN items ON items.id = ranked.id ORDER BY ranked.mlib_rank
        """
    }
}
