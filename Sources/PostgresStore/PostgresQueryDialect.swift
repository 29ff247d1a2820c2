import Foundation
import MediaIndex
import MediaModel

/// PostgreSQL's `SQLDialect`: exact SQL for what the server answers with the same results as the
/// in-memory evaluator, nil (the residual, in Swift) for what it would answer differently.
/// - Exact: text compared as stored (columns are `COLLATE "C"`: byte order, as SQLite's BINARY) —
///   CONTAINS (`strpos`), BEGINSWITH (`starts_with`), ENDSWITH, LIKE (its `*`/`?` rewritten as `%`/`_`,
///   everything else escaped) — and `[cd]` on a searchable property, through its folded column.
/// - Residual: MATCHES (ICU regular expressions; PostgreSQL's differ), `[c]` or `[d]` alone and any
///   modifier on a property without a folded column (folding per row is TextFolding's, in Swift), and
///   full-text search (its SQL is a prefilter: every query word is a substring of `search_text`, through
///   the trigram index; the FTS5 word-prefix rule is then checked in Swift).
/// - Folded columns are indexed by their first 256 characters ("pg v5", `PostgresSchema.foldedIndexPrefixLength`).
struct PostgresQueryDialect: SQLDialect {
    // No per-row folding, MATCHES, article stripping or exact search (the defaults: residuals).

    func contains(_ expression: String, _ literal: String, _ sql: inout ValueBinder) -> String {
        "strpos(\(expression), \(sql.bind(literal))) > 0"
    }

    func beginsWith(_ expression: String, _ literal: String, _ sql: inout ValueBinder) -> String {
        "starts_with(\(expression), \(sql.bind(literal)))"
    }

    func endsWith(_ expression: String, _ literal: String, _ sql: inout ValueBinder) -> String {
        "right(\(expression), char_length(\(sql.bind(literal)))) = \(sql.bind(literal))"
    }

    func like(_ expression: String, _ pattern: String, _ sql: inout ValueBinder) -> String {
        "\(expression) LIKE \(sql.bind(TextMatching.translatingLike(pattern, anyRun: "%", oneCharacter: "_", literal: Self.likeEscaped)))"
    }

    /// One array parameter, whatever the list's length.
    func isIn(_ expression: String, _ values: [String], _ sql: inout ValueBinder) -> String {
        "\(expression) = ANY(\(sql.bind(values)))"
    }

    /// As the WHERE of "pg v4"'s partial indexes.
    func holdsSeveralValues(_ column: String) -> String { "strpos(\(column), \(Self.separatorLiteral)) > 0" }

    /// An empty key is one empty value, as in Swift (`string_to_array` alone gives none).
    func values(of expression: String, as alias: String) -> String {
        "unnest(CASE WHEN \(expression) = '' THEN ARRAY[''] ELSE string_to_array(\(expression), \(Self.separatorLiteral)) END) AS \(alias)(value)"
    }

    var splitValueCollation: String { #" COLLATE "C""# }
    var foldedIndexPrefixLength: Int? { PostgresSchema.foldedIndexPrefixLength }

    /// For CONTAINS[cd] on a searchable property, a condition every answer meets that the trigram index on
    /// `search_text` can find (the folded columns are joined there, so a substring of one is a substring of
    /// it): without it the comparison (a CASE, for a multi-valued property) reads every row (29 ms of
    /// `ls artist:velvet`'s 10,000-item library). Only for a literal with a letter or digit: pg_trgm takes
    /// no trigram from anything else, and the index could not help.
    func prefilter(_ c: Comparison, _ sql: inout ValueBinder) -> String? {
        guard c.op == .contains, c.options == .cd, c.property.spec.searchable,
              ItemRow.searchable == PostgresSchema.searchTextProperties, case .value(let v) = c.operand else { return nil }
        let folded = TextFolding.fold(v.text ?? v.description, c.options)
        guard folded.unicodeScalars.contains(where: { CharacterSet.alphanumerics.contains($0) }) else { return nil }
        return "items.search_text LIKE \(sql.bind("%" + Self.likeEscaped(folded) + "%"))"
    }

    func searchSuperset(_ text: String, _ sql: inout ValueBinder) -> String? {
        guard ItemRow.searchable == PostgresSchema.searchTextProperties else { return nil }
        let words = FullTextSearch.queryTokens(text)
        return words.map { "items.search_text LIKE \(sql.bind("%" + Self.likeEscaped($0) + "%"))" }.joined(separator: " AND ")
    }

    /// NULLS LAST instead of a null test first, so a folded column's key is its prefix index's
    /// (`left(f, 256) NULLS LAST, f NULLS LAST`): the folded column is NULL exactly where its property is.
    func foldedOrder(_ key: String, _ direction: String, nullTest: String, indexed: Bool) -> [String] {
        guard indexed else { return ["\(nullTest)", "\(key) \(direction)"] }
        return ["\(prefix(key)) \(direction) NULLS LAST", "\(key) \(direction) NULLS LAST"]
    }

    /// Sorted as ids, then the rows joined in that order: sorting the whole 60-column rows cost the server
    /// more than finding them (`ls artist:X` on 10,000 items: 13 ms -> 8 ms of execution).
    func orderedSelect(_ columns: String, _ matching: SQLStatement, order: String, limit: Int?, offset: Int) -> SQLStatement {
        """
        SELECT \(raw: columns) FROM (SELECT items.id, row_number() OVER (ORDER BY \(raw: order)) AS mlib_rank \(matching)
        ORDER BY mlib_rank\(SQLStatement.page(limit: limit, offset: offset))) AS ranked JOIN items ON items.id = ranked.id ORDER BY ranked.mlib_rank
        """
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
}

typealias PostgresQueryCompiler = SQLQueryCompiler<PostgresQueryDialect>
