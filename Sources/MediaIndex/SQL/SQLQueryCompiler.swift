import MediaModel

/// The one query compiler of both stores: predicates (through `QueryPlan`), sorts and groupings walked
/// once, over a `SQLDialect` for what the stores say differently. Values are always bound, never spliced;
/// the only identifiers in the SQL are `MediaProperty` raw values.
///
/// The SQL means exactly what `PredicateEvaluator` computes in memory, or selects a superset and leaves
/// the residual to it (`QueryAgreementTests` holds both stores to the evaluator on random predicates):
/// - A comparison with a missing value is NULL, which WHERE, AND and OR treat as false; NOT is
///   `NOT COALESCE(x, FALSE)` (`QueryPlan`), so missing values compare false and NOT simply negates.
/// - `[cd]` on a searchable property reads its stored `<name>_folded` column (indexed), the literal folded
///   by the same `TextFolding`; other modifiers fold per row where the dialect can (`SQLDialect.fold`).
/// - Exact `==`/`IN` on a searchable property also test the folded column: equal text has equal folded
///   text, and that column is indexed (by its prefix where `foldedIndexPrefixLength` says so: every
///   comparison of a folded column then compares the prefixes too, which a prefix of a smaller text never
///   makes false in byte order).
/// - A multi-valued property ("Rock; Jazz") matches when any value does; `!=` when there are values and
///   none is equal. Only rows holding a separator are split.
package struct SQLQueryCompiler<Dialect: SQLDialect>: QueryCompiling {
    package let dialect: Dialect
    package init(_ dialect: Dialect = Dialect()) { self.dialect = dialect }

    package func filter(_ predicate: MediaModel.Predicate) throws -> CompiledFilter {
        var leaves = Leaves(dialect: dialect)
        let plan = QueryPlan.plan(predicate, &leaves)
        return CompiledFilter(condition: leaves.sql.statement(plan.condition), residual: plan.residual)
    }

    static func column(_ p: MediaProperty) -> String { ItemRow.valueExpression(p) }
    static func foldedColumn(_ p: MediaProperty) -> String { "items." + ItemRow.quoted(ItemRow.foldedColumn(p)) }

    /// A property's `[cd]`-folded value: its folded column, else folded per row (nil where the dialect cannot).
    func foldedKey(_ p: MediaProperty) -> String? {
        p.spec.searchable ? Self.foldedColumn(p) : dialect.fold(Self.column(p), .cd)
    }

    // MARK: ORDER BY

    package func orderBy(_ sort: [SortDescriptor]) -> String? {
        if let first = sort.first, first.property == .persistentID { return Self.idOrder(ascending: first.ascending) }
        var terms: [String] = []
        for d in sort {
            let dir = d.ascending ? "ASC" : "DESC"
            let col = Self.column(d.property)
            switch SortDescriptor.kind(of: d.property) {
            case .pathBytes:
                terms.append("items.path \(dir)")
            case .foldedText:
                guard var key = foldedKey(d.property) else { return nil }
                if d.ignoreArticles {
                    guard let stripped = dialect.strippingArticles(key) else { return nil }
                    key = stripped
                }
                terms += dialect.foldedOrder(key, dir, nullTest: "\(col) IS NULL", indexed: d.property.spec.searchable && !d.ignoreArticles)
            case .isoText, .numeric:
                terms += ["\(col) IS NULL", "\(col) \(dir)"]
            }
        }
        return (terms + ["items.id"]).joined(separator: ", ")
    }

    // MARK: Grouping

    package func groupKeys(_ grouping: MediaGrouping) -> [String]? {
        guard let keys = wholeKeys(grouping) else { return nil }
        return grouping.groupsByEachValue ? ["gv.value" + dialect.splitValueCollation] : keys
    }

    /// The folded key of each part (the fallback's where the property has none), nil where the dialect
    /// cannot fold a property without a folded column.
    func wholeKeys(_ grouping: MediaGrouping) -> [String]? {
        var keys: [String] = []
        for part in grouping.keyParts {
            guard let primary = foldedKey(part.property) else { return nil }
            guard let fallback = part.fallback else { keys.append(primary); continue }
            guard let second = foldedKey(fallback) else { return nil }
            keys.append("coalesce(\(primary), \(second))")
        }
        return keys
    }

    package func eachValue(of grouping: MediaGrouping, as alias: String) -> String {
        dialect.values(of: wholeKeys(grouping)?.first ?? "NULL", as: alias)
    }

    /// The order of ids alone (never NULL, never tied: what follows it in a sort cannot matter).
    static func idOrder(ascending: Bool) -> String { ascending ? "items.id ASC" : "items.id DESC" }

    /// In id order the rows are read plainly, in the primary key's order: the dialect's form for other
    /// orders (PostgreSQL ranks ids, then joins the rows) cost the server a sort and a join per row when the
    /// whole library is read (the view's build at 1,000,000 items).
    package func orderedSelect(_ columns: String, _ matching: SQLStatement, order: String, limit: Int?, offset: Int) -> SQLStatement {
        if order == Self.idOrder(ascending: true) || order == Self.idOrder(ascending: false) {
            return "SELECT \(raw: columns) \(matching) ORDER BY \(raw: order)\(SQLStatement.page(limit: limit, offset: offset))"
        }
        return dialect.orderedSelect(columns, matching, order: order, limit: limit, offset: offset)
    }
}

extension SQLQueryCompiler {
    /// The leaves of one predicate, as `QueryPlan` asks for them, with the values they bind.
    struct Leaves: QueryLeaves {
        let dialect: Dialect
        var sql = ValueBinder()

        func searchIsTrivial(_ text: String) -> Bool { FullTextSearch.queryTokens(text).isEmpty }
        mutating func exactSearch(_ text: String) -> String? { dialect.search(text, &sql) }
        mutating func searchSuperset(_ text: String) -> String? { dialect.searchSuperset(text, &sql) }

        mutating func exact(_ c: Comparison) -> String? {
            let col = column(c.property)
            if case .null = c.operand { return c.op == .equal ? "\(col) IS NULL" : "\(col) IS NOT NULL" }
            switch c.property.spec.type {
            case .mediaType:
                // A kind is a set of bits: `mediaType == music` asks whether the music bit is set.
                let values: [MediaValue]
                switch c.operand { case .value(let v): values = [v]; case .list(let l): values = l; default: values = [] }
                let mask = values.reduce(Int64(0)) { $0 | ($1.integer ?? 0) }
                return "(\(col) & \(sql.bind(mask))) \(c.op == .notEqual ? "=" : "<>") 0"
            case .text, .date:
                guard let exact = c.property.spec.multiValued ? eachValue(c) : text(c, col) else { return nil }
                return dialect.prefilter(c, &sql).map { "(\(exact)) AND \($0)" } ?? exact
            default:
                return number(c, col)
            }
        }

        // MARK: Numbers

        /// A number literal bound (a text literal only where the dialect compares it as the evaluator does).
        private mutating func number(_ v: MediaValue) -> String? {
            switch v {
            case .integer(let i): sql.bind(i)
            case .real(let d): sql.bind(d)
            case .bool(let b): sql.bind(Int64(b ? 1 : 0))
            case .text(let s): dialect.comparesTextWithNumbers ? sql.bind(s) : nil
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
                guard let sqlOp = Self.sqlOperator(op) else { return "FALSE" }     // excluded by normalization
                return number(v).map { "\(col) \(sqlOp) \($0)" }
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

        // MARK: Multi-valued text

        /// A comparison on a multi-valued property: true when any value satisfies it, as `PredicateEvaluator`;
        /// `!=` is true when there are values and none is equal. `[cd]` splits the stored folded column.
        private mutating func eachValue(_ c: Comparison) -> String? {
            let col = column(c.property)
            if c.op == .notEqual {
                guard let equal = eachValue(Comparison(c.property, .equal, c.operand, options: c.options)) else { return nil }
                return "\(col) IS NOT NULL AND NOT COALESCE((\(equal)), FALSE)"
            }
            let searchable = c.property.spec.searchable
            let prefolded = c.op != .matches && c.options == .cd && searchable
            let source = prefolded ? foldedColumn(c.property) : col
            guard let leaf = text(c, "mv.value" + dialect.splitValueCollation, oneValue: true, prefolded: prefolded),
                  let whole = text(c, col) else { return nil }
            let several = dialect.holdsSeveralValues(col)
            let split = "EXISTS (SELECT 1 FROM \(dialect.values(of: source, as: "mv")) WHERE \(leaf))"
            // When the whole-value comparison can use the folded column's index (exact or [cd] ==/IN; any [cd]
            // where the dialect scans that index for substrings), the rows are found in two indexed parts:
            // single values by that index, and the values of rows holding a separator from their partial
            // index (SQLite v10, pg v4), which holds only those rows, so the split costs nothing for the
            // others. SQLite, 100,000 rows: ~1 ms instead of ~25 ms for the CASE below (query-bench).
            let equality = [.equal, .in].contains(c.op) && (c.options.isEmpty || c.options == .cd)
            if searchable && (equality || (c.options == .cd && dialect.scansFoldedIndexForSubstrings)) {
                let hint = substringHint(c, source)
                return "items.id IN (SELECT items.id FROM items WHERE NOT (\(several)) AND (\(whole)) "
                    + "UNION ALL SELECT items.id FROM items WHERE \(several)\(hint) AND \(split))"
            }
            // Otherwise only a value with a separator is split: SQLite, a 100,000-row scan costs ~15 ms instead
            // of ~140 ms splitting every row.
            return "CASE WHEN \(several) THEN \(split) ELSE (\(whole)) END"
        }

        /// A cheap test that must hold for a whole multi-valued text to have a value satisfying `c` (the
        /// literal is part of it, for ==, CONTAINS, BEGINSWITH, ENDSWITH), tried before splitting; else "".
        private mutating func substringHint(_ c: Comparison, _ col: String) -> String {
            guard [.equal, .contains, .beginsWith, .endsWith].contains(c.op), c.options.isEmpty || c.options == .cd,
                  case .value(let v) = c.operand else { return "" }
            return " AND " + dialect.contains(col, TextFolding.fold(v.text ?? v.description, c.options), &sql)
        }

        // MARK: Text

        /// A text comparison of `col`. With `oneValue`, `col` is one value of a multi-valued property (the
        /// property's folded column does not apply); `prefolded` says `col` already holds `[cd]`-folded text.
        private mutating func text(_ c: Comparison, _ col: String, oneValue: Bool = false, prefolded: Bool = false) -> String? {
            let options = c.options
            if c.op == .matches {
                guard case .value(let v) = c.operand else { return "FALSE" }
                return dialect.matches(col, v.text ?? v.description, options, &sql)
            }
            let searchable = !oneValue && c.property.spec.searchable
            let folded = foldedColumn(c.property)
            // The expression compared: the value as stored, the stored folded column, or folded per row.
            let expr: String
            if options.isEmpty || prefolded {
                expr = col
            } else if searchable && options == .cd {
                expr = folded
            } else if let perRow = dialect.fold(col, options) {
                expr = perRow
            } else {
                return nil
            }
            let onFolded = searchable && expr == folded
            let exactOnSearchable = searchable && options.isEmpty
            let prefixed = onFolded && dialect.foldedIndexPrefixLength != nil
            func lit(_ v: MediaValue) -> String { TextFolding.fold(v.text ?? v.description, options) }

            switch (c.op, c.operand) {
            case (.between, .range(let lo, let hi)):
                let l = sql.bind(lit(lo)), h = sql.bind(lit(hi))
                let range = "\(expr) BETWEEN \(l) AND \(h)"
                guard prefixed else { return range }
                return "\(dialect.prefix(expr)) BETWEEN \(dialect.prefix(l)) AND \(dialect.prefix(h)) AND \(range)"
            case (.in, .list(let list)):
                if list.isEmpty { return "FALSE" }
                let values = list.map(lit)
                guard exactOnSearchable || onFolded else { return dialect.isIn(expr, values, &sql) }
                let foldedValues = exactOnSearchable ? list.map { TextFolding.folded($0.text ?? $0.description) } : values
                var parts = [dialect.isIn(folded, foldedValues, &sql)]
                if dialect.foldedIndexPrefixLength != nil {
                    parts.insert(dialect.isIn(dialect.prefix(folded), foldedValues.map(dialect.prefixValue), &sql), at: 0)
                }
                if exactOnSearchable { parts.append(dialect.isIn(expr, values, &sql)) }
                return parts.joined(separator: " AND ")
            case (let op, .value(let v)) where onFolded && dialect.scansFoldedIndexForSubstrings
                    && [.contains, .beginsWith, .endsWith, .like].contains(op):
                // A substring or pattern test cannot seek, but it can scan the folded column's index (covering:
                // it holds the value and the id), several times smaller than the table: SQLite, 100,000 rows in
                // ~8 ms instead of ~40 ms. NULL semantics are unchanged (`id IN (…)` is false where the test is not).
                return "items.id IN (SELECT items.id FROM items WHERE \(substring(op, expr, lit(v))))"
            case (let op, .value(let v)):
                let s = lit(v)
                switch op {
                case .equal:
                    guard exactOnSearchable || onFolded else { return "\(expr) = \(sql.bind(s))" }
                    let f = sql.bind(exactOnSearchable ? TextFolding.folded(s) : s)
                    var condition = "\(folded) = \(f)"
                    if dialect.foldedIndexPrefixLength != nil {
                        condition = "\(dialect.prefix(folded)) = \(dialect.prefix(f)) AND " + condition
                    }
                    return exactOnSearchable ? "\(condition) AND \(expr) = \(sql.bind(s))" : condition
                case .notEqual: return "\(expr) <> \(sql.bind(s))"
                case .less, .lessOrEqual, .greater, .greaterOrEqual:
                    let m = sql.bind(s), sqlOp = Self.sqlOperator(op)!
                    guard prefixed else { return "\(expr) \(sqlOp) \(m)" }
                    // The prefix index finds a range: a prefix of a smaller text is never greater.
                    let bound = [.less, .lessOrEqual].contains(op) ? "<=" : ">="
                    return "\(dialect.prefix(expr)) \(bound) \(dialect.prefix(m)) AND \(expr) \(sqlOp) \(m)"
                case .contains, .beginsWith, .endsWith, .like:
                    return substring(op, expr, s)
                case .between, .in, .matches:
                    return "FALSE"
                }
            default:
                return "FALSE"
            }
        }

        private mutating func substring(_ op: Comparison.Operator, _ expr: String, _ s: String) -> String {
            switch op {
            case .contains: dialect.contains(expr, s, &sql)
            case .beginsWith: dialect.beginsWith(expr, s, &sql)
            case .endsWith: dialect.endsWith(expr, s, &sql)
            default: dialect.like(expr, s, &sql)
            }
        }

        private func column(_ p: MediaProperty) -> String { SQLQueryCompiler.column(p) }
        private func foldedColumn(_ p: MediaProperty) -> String { SQLQueryCompiler.foldedColumn(p) }
    }
}
