import GRDB
import MediaIndex
import MediaModel

/// SQLite's `SQLDialect`: every leaf is exact — what SQL cannot say, the registered Swift functions of
/// QueryFunctions.swift do (`mlib_fold`, `mlib_matches`, `mlib_strip_articles`) — so there is never a
/// residual and every order is SQL's. CONTAINS is `instr` (byte exact); BEGINSWITH, ENDSWITH and LIKE are
/// GLOB with the literal escaped, so `%`, `_`, `*`, `?`, `[` in values match themselves. Full-text search
/// is FTS5's `items_fts`.
struct SQLiteQueryDialect: SQLDialect {
    func fold(_ expression: String, _ options: Comparison.Options) -> String? { "mlib_fold(\(expression), \(options.rawValue))" }

    func matches(_ expression: String, _ pattern: String, _ options: Comparison.Options, _ sql: inout ValueBinder) -> String? {
        "mlib_matches(\(expression), \(sql.bind(pattern)), \(options.rawValue))"
    }

    func strippingArticles(_ key: String) -> String? { "mlib_strip_articles(\(key))" }

    func contains(_ expression: String, _ literal: String, _ sql: inout ValueBinder) -> String {
        "instr(\(expression), \(sql.bind(literal))) > 0"
    }

    func beginsWith(_ expression: String, _ literal: String, _ sql: inout ValueBinder) -> String {
        "\(expression) GLOB \(sql.bind(TextMatching.globEscaped(literal) + "*"))"
    }

    func endsWith(_ expression: String, _ literal: String, _ sql: inout ValueBinder) -> String {
        "\(expression) GLOB \(sql.bind("*" + TextMatching.globEscaped(literal)))"
    }

    func like(_ expression: String, _ pattern: String, _ sql: inout ValueBinder) -> String {
        "\(expression) GLOB \(sql.bind(TextMatching.likeToGlob(pattern)))"
    }

    /// One parameter per value: SQLite searches an index by each (a JSON list would not).
    func isIn(_ expression: String, _ values: [String], _ sql: inout ValueBinder) -> String {
        var marks: [String] = []
        for value in values { marks.append(sql.bind(value)) }
        return "\(expression) IN (\(marks.joined(separator: ", ")))"
    }

    /// As the WHERE of schema step v10's partial indexes.
    func holdsSeveralValues(_ column: String) -> String { "instr(\(column), \(Self.separatorLiteral)) > 0" }

    /// The text made a JSON array by quoting it and closing/reopening the string at each separator (which
    /// JSON quoting leaves as it is); `json_each` then gives each value. No rows for NULL.
    func values(of expression: String, as alias: String) -> String {
        "json_each('[' || replace(json_quote(\(expression)), \(Self.separatorLiteral), '\",\"') || ']') AS \(alias)"
    }

    var scansFoldedIndexForSubstrings: Bool { true }

    func search(_ text: String, _ sql: inout ValueBinder) -> String? {
        guard let match = FullTextSearch.ftsMatchExpression(text) else { return "TRUE" }
        return "items.id IN (SELECT rowid FROM items_fts WHERE items_fts MATCH \(sql.bind(match)))"
    }

    func searchSuperset(_ text: String, _ sql: inout ValueBinder) -> String? { search(text, &sql) }

    /// Column affinity compares a numeric text with a number as a number, as the evaluator does.
    var comparesTextWithNumbers: Bool { true }

    /// SQLite orders NULL first: the null test goes before the key.
    func foldedOrder(_ key: String, _ direction: String, nullTest: String, indexed: Bool) -> [String] {
        [nullTest, "\(key) \(direction)"]
    }
}

typealias SQLiteQueryCompiler = SQLQueryCompiler<SQLiteQueryDialect>

/// The compiled SQL as GRDB runs it, for tests that EXPLAIN it or bind values themselves.
enum QueryCompiler {
    /// The SELECT `SQLStore.forEachItem` runs for an unpaged query.
    static func itemsSQL(_ query: MediaQuery) throws -> (sql: String, arguments: StatementArguments) {
        let compiler = SQLiteQueryCompiler()
        let filter = try compiler.filter(try query.filter.normalized())
        let statement: SQLStatement = """
            SELECT \(raw: ItemRow.selectColumns) FROM items WHERE items.missing_gen IS NULL AND (\(filter.condition)) \
            ORDER BY \(raw: compiler.orderBy(query.effectiveSort) ?? "items.id")
            """
        return (statement.rendered(SQLiteSyntax.placeholder), StatementArguments(statement.values.map(SQLiteConnection.Executor.databaseValue)))
    }

    static func bind(_ v: MediaValue) -> DatabaseValue {
        switch v {
        case .text(let s): s.databaseValue
        case .integer(let i): i.databaseValue
        case .real(let d): d.databaseValue
        case .bool(let b): (b ? 1 : 0).databaseValue
        }
    }
}
