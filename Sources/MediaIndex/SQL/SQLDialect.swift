import MediaModel

/// What a store's query SQL says differently; `SQLQueryCompiler` walks predicates, sorts and groupings
/// once and asks the dialect only for these pieces. A hook returning nil says "not exactly in SQL": the
/// compiler then leaves that leaf to the residual (evaluated in Swift), or the order/grouping to Swift.
/// Values are bound through the `ValueBinder` handed in, never spliced.
package protocol SQLDialect: Sendable {
    init()

    // MARK: Text

    /// `expression` folded per row exactly as `TextFolding.fold(_, options)`, or nil when only Swift can.
    func fold(_ expression: String, _ options: Comparison.Options) -> String?
    /// MATCHES: the whole text against an ICU regular expression, or nil.
    func matches(_ expression: String, _ pattern: String, _ options: Comparison.Options, _ sql: inout ValueBinder) -> String?
    /// A folded sort key without a leading article (`TextMatching.strippingArticles`), or nil.
    func strippingArticles(_ key: String) -> String?
    /// True where `expression` holds `literal`, byte for byte.
    func contains(_ expression: String, _ literal: String, _ sql: inout ValueBinder) -> String
    func beginsWith(_ expression: String, _ literal: String, _ sql: inout ValueBinder) -> String
    func endsWith(_ expression: String, _ literal: String, _ sql: inout ValueBinder) -> String
    /// mlib's LIKE (`*`, `?`, `\` escaping the next character) over the whole text.
    func like(_ expression: String, _ pattern: String, _ sql: inout ValueBinder) -> String
    /// `expression` equal to one of `values` (not empty).
    func isIn(_ expression: String, _ values: [String], _ sql: inout ValueBinder) -> String

    // MARK: Multi-valued text

    /// True for a row whose multi-valued `column` holds several values, written exactly as the WHERE of the
    /// partial indexes of those rows (so the planner may read them).
    func holdsSeveralValues(_ column: String) -> String
    /// A FROM item named `alias`, one row (column `value`) per value of the multi-valued text `expression`;
    /// an empty text is one empty value, NULL none.
    func values(of expression: String, as alias: String) -> String
    /// What follows a split value to compare it in stored byte order (`MediaGrouping.compareKeys`).
    var splitValueCollation: String { get }

    // MARK: Indexes and prefilters

    /// How many characters of a folded column its index holds, when it holds a prefix (`prefix(_:)` is that
    /// key): comparisons then also compare the prefixes, which the index can answer. Nil: the whole value.
    var foldedIndexPrefixLength: Int? { get }
    /// The index key of a folded column (or of a bound literal) when `foldedIndexPrefixLength` is set.
    func prefix(_ expression: String) -> String
    /// True when a substring test of a folded column is faster as a scan of its (covering) index.
    var scansFoldedIndexForSubstrings: Bool { get }
    /// A condition every item satisfying `comparison` meets, that an index can find, or nil.
    func prefilter(_ comparison: Comparison, _ sql: inout ValueBinder) -> String?
    /// Full-text search exactly, or nil.
    func search(_ text: String, _ sql: inout ValueBinder) -> String?
    /// A condition every item the search matches meets (the residual then decides), or nil.
    func searchSuperset(_ text: String, _ sql: inout ValueBinder) -> String?

    // MARK: Numbers and ordering

    /// True when a number column compared with a text literal answers as `PredicateEvaluator` does.
    var comparesTextWithNumbers: Bool { get }
    /// ORDER BY terms for a folded text key in `direction`, missing values last (`nullTest` is the
    /// property's `IS NULL`); `indexed` says the key is a folded column with a prefix index.
    func foldedOrder(_ key: String, _ direction: String, nullTest: String, indexed: Bool) -> [String]
    /// See `QueryCompiling.orderedSelect`.
    func orderedSelect(_ columns: String, _ matching: SQLStatement, order: String, limit: Int?, offset: Int) -> SQLStatement
}

/// What a dialect says when it does not say more: nothing it cannot answer exactly is guessed (nil: the
/// residual, in Swift, decides), no prefix indexes, no index scans for substrings, text never compared
/// with numbers.
extension SQLDialect {
    package func fold(_ expression: String, _ options: Comparison.Options) -> String? { nil }
    package func matches(_ expression: String, _ pattern: String, _ options: Comparison.Options, _ sql: inout ValueBinder) -> String? { nil }
    package func strippingArticles(_ key: String) -> String? { nil }
    package func prefilter(_ comparison: Comparison, _ sql: inout ValueBinder) -> String? { nil }
    package func search(_ text: String, _ sql: inout ValueBinder) -> String? { nil }
    package var splitValueCollation: String { "" }
    package var foldedIndexPrefixLength: Int? { nil }
    package var scansFoldedIndexForSubstrings: Bool { false }
    package var comparesTextWithNumbers: Bool { false }

    package func prefix(_ expression: String) -> String {
        foldedIndexPrefixLength.map { "left(\(expression), \($0))" } ?? expression
    }

    /// A literal's index key, computed in Swift (PostgreSQL's characters are Unicode scalars).
    package func prefixValue(_ folded: String) -> String {
        guard let n = foldedIndexPrefixLength else { return folded }
        return String(String.UnicodeScalarView(folded.unicodeScalars.prefix(n)))
    }

    package func orderedSelect(_ columns: String, _ matching: SQLStatement, order: String, limit: Int?, offset: Int) -> SQLStatement {
        "SELECT \(raw: columns) \(matching) ORDER BY \(raw: order)" + SQLStatement.page(limit: limit, offset: offset)
    }

    /// The separator in an SQL string literal.
    package static var separatorLiteral: String {
        "'" + MediaProperty.valueSeparator.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
