import Foundation
import MediaIndex
import PostgresNIO

/// `SQLConnection` over a `PostgresSession`: `$N` placeholders, lists as arrays, cells read by their type.
struct PostgresStoreConnection: SQLConnection {
    let session: PostgresSession
    var syntax: any SQLSyntax { PostgresSyntax() }

    func read<T>(_ body: (any SQLExecutor) throws -> T) throws -> T {
        try session.run { s in try body(Executor(statements: s, inTransaction: false)) }
    }

    func readEach<T>(_ body: (any SQLExecutor) throws -> T) throws -> T { try read(body) }

    func write<T>(_ body: (any SQLExecutor) throws -> T) throws -> T {
        try session.transaction { s in try body(Executor(statements: s, inTransaction: true)) }
    }

    struct Executor: SQLExecutor {
        let statements: PostgresSession.Statements
        /// Inside `write`'s transaction (a cursor then needs no transaction of its own).
        var inTransaction = true
        /// Rows a cursor hands over at a time: what `forEachRow` holds in memory at once.
        static let rowsPerFetch = 1_000
        /// Rows a first plain query may hand over before a cursor is declared (`forEachRow`).
        static let firstPageRows = 250

        func rows(_ sql: SQLStatement) throws -> [SQLRow] {
            try statements.query(sql.rendered(PostgresSyntax.placeholder), Self.bindings(sql.values)).map(Self.row)
        }

        /// A small answer in one statement: the first `firstPageRows` + 1 rows asked for plainly, handed over
        /// when that is all there is. A larger answer sets them aside and goes through a cursor from its first
        /// row, `rowsPerFetch` rows at a time (a plain query would receive every row first: 100,000 items,
        /// about 1 GB), so every row comes from one snapshot. A cursor lives in a transaction: its own,
        /// read-only, unless one is open. The cursor's four more statements (BEGIN, DECLARE, CLOSE, COMMIT)
        /// cost ~10 ms of a 48 ms `ls` at load 4; the plain first try costs a larger answer one short query.
        func forEachRow(_ sql: SQLStatement, _ body: (SQLRow) throws -> Void) throws {
            let text = sql.rendered(PostgresSyntax.placeholder)
            // The subquery keeps its ORDER BY: PostgreSQL does not flatten a subquery that sorts.
            let first = try statements.query("SELECT * FROM (\(text)) AS mlib_first LIMIT \(Self.firstPageRows + 1)", Self.bindings(sql.values))
            if first.count <= Self.firstPageRows {
                for row in first { try body(Self.row(row)) }
                return
            }
            if !inTransaction { try statements.execute("BEGIN READ ONLY") }
            do {
                try statements.execute("DECLARE mlib_rows NO SCROLL CURSOR FOR " + text, Self.bindings(sql.values))
                while true {
                    let batch = try statements.query("FETCH \(Self.rowsPerFetch) FROM mlib_rows")
                    for row in batch { try body(Self.row(row)) }
                    if batch.count < Self.rowsPerFetch { break }
                }
                try statements.execute("CLOSE mlib_rows")
                if !inTransaction { try statements.execute("COMMIT") }
            } catch {
                _ = try? statements.execute(inTransaction ? "CLOSE mlib_rows" : "ROLLBACK")
                throw error
            }
        }

        @discardableResult
        func execute(_ sql: SQLStatement) throws -> Int {
            try statements.execute(sql.rendered(PostgresSyntax.placeholder), Self.bindings(sql.values))
        }

        static func bindings(_ values: [SQLValue]) -> PostgresBindings {
            var binds = PostgresBindings(capacity: values.count)
            for value in values {
                switch value {
                case .null: binds.appendNull()
                case .integer(let i): binds.append(i)
                case .real(let d): binds.append(d)
                case .text(let s): binds.append(s)
                case .bytes(let b): binds.append(ByteBuffer(bytes: b))
                case .integers(let list): binds.append(list)
                case .texts(let list): binds.append(list)
                case .nullableIntegers(let list): binds.append(NullableArray(elements: list))
                }
            }
            return binds
        }

        static func row(_ row: PostgresRow) -> SQLRow {
            SQLRow(row.map(value))
        }

        /// A cell as the value SQLite would hand back for the same column.
        static func value(_ cell: PostgresCell) -> SQLValue {
            guard cell.bytes != nil else { return .null }
            switch cell.dataType {
            case .int2, .int4, .int8: return cell.value(Int64.self).map(SQLValue.integer) ?? .null
            case .float4, .float8: return cell.value(Double.self).map(SQLValue.real) ?? .null
            case .bool: return cell.value(Bool.self).map { .integer($0 ? 1 : 0) } ?? .null
            case .bytea: return cell.value(ByteBuffer.self).map { .bytes(Array($0.readableBytesView)) } ?? .null
            case .numeric:
                guard let d = cell.value(Decimal.self) else { return .null }
                let double = NSDecimalNumber(decimal: d).doubleValue
                return double.rounded() == double && abs(double) < 9e15 ? .integer(Int64(double)) : .real(double)
            default: return cell.value(String.self).map(SQLValue.text) ?? .null
            }
        }
    }
}

/// PostgreSQL's spelling: `$N` placeholders, lists as one array parameter.
struct PostgresSyntax: SQLSyntax {
    /// Writes are logged under their transaction's id ("pg v6"), and transactions commit out of id order:
    /// every transaction not finished when this snapshot was taken has an id at least its xmin.
    var nextChangeToken: String { "pg_snapshot_xmin(pg_current_snapshot())::text::bigint" }

    static func placeholder(_ n: Int) -> String { "$\(n)" }
    func placeholder(_ n: Int) -> String { Self.placeholder(n) }

    func isIn(_ expression: String, _ list: SQLValue) -> SQLStatement {
        "\(raw: expression) = ANY(\(list))"
    }

    /// One array parameter per column, made rows again by `unnest`.
    func integerRows(_ rows: [[Int64?]], columns: [String]) -> SQLStatement {
        let arrays = SQLStatement.joined(columns.indices.map { c in "\(SQLValue.nullableIntegers(rows.map { $0[c] }))::bigint[]" },
                                         separator: ", ")
        return "SELECT * FROM unnest(\(arrays)) AS t(\(raw: columns.joined(separator: ", ")))"
    }

    func listRows(_ list: SQLValue, as alias: String) -> SQLStatement {
        "(SELECT ordinality - 1 AS position, value FROM unnest(\(list)) WITH ORDINALITY AS t(value, ordinality)) AS \(raw: alias)"
    }
}
