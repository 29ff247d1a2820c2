import Foundation
import MediaIndex
import NIOConcurrencyHelpers
import PostgresNIO

/// `SQLConnection` over a `PostgresSession`: `$N` placeholders, lists as arrays, cells read by their type.
struct PostgresStoreConnection: SQLConnection {
    let session: PostgresSession
    var syntax: any SQLSyntax { PostgresSyntax() }

    func read<T>(_ body: (any SQLExecutor) throws -> T) throws -> T { try session.run { try body($0) } }
    func readEach<T>(_ body: (any SQLExecutor) throws -> T) throws -> T { try read(body) }
    /// Every write transaction ends with a notification to the library's listeners (`WriteNotifying`),
    /// delivered by the server at the commit, to every listening connection (none at a rollback).
    func write<T>(_ body: (any SQLExecutor) throws -> T) throws -> T {
        try session.transaction { x in
            let result = try body(x)
            try x.execute(Self.notifyWrite)
            return result
        }
    }

    /// The channel writes are announced on, and the statement that announces one (a round trip more per
    /// write transaction; a trigger of the schema could spare it).
    static let writesChannel = "mlib_library_writes"
    static let notifyWrite: SQLStatement = "SELECT pg_notify('mlib_library_writes', '')"
    /// A read-only REPEATABLE READ transaction: every statement of `body` sees one snapshot (issue 38: `stats`
    /// during another host's scan mixed states in 3 of 13 answers).
    func snapshotRead<T>(_ body: (any SQLExecutor) throws -> T) throws -> T {
        try session.transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { try body($0) }
    }

    /// The statements of one call, on the session's locked connection.
    struct Executor: SQLExecutor {
        let connection: PostgresConnection
        let counts: NIOLockedValueBox<PostgresSession.Counts>
        /// How long the client waits for an answer: the server's statement timeout and a margin for the rows
        /// to arrive; past it the server is taken for gone.
        let deadline: Double
        /// Inside a transaction (`PostgresSession.transaction`: a cursor then needs no transaction of its own).
        let inTransaction: Bool
        /// Rows a cursor hands over at a time: what `forEachRow` holds in memory at once.
        static let rowsPerFetch = 1_000
        /// Rows a first plain query may hand over before a cursor is declared (`forEachRow`).
        static let firstPageRows = 250

        /// Sends one statement and waits for its whole answer (counted for the tests). A connection already
        /// lost fails at once: a statement sent over it would never be answered.
        func send(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws -> PostgresQueryResult {
            try answer(to: start(sql, binds), sql)
        }

        /// Sends one statement and returns at once: its answer is waited for with `answer(to:)`. The
        /// connection queues statements, so the next can be sent before this one's answer is read.
        func start(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws -> EventLoopFuture<PostgresQueryResult> {
            guard !connection.isClosed else { throw PostgresSession.ConnectionLost() }
            return connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: PostgresSession.logger)
        }

        func answer(to future: EventLoopFuture<PostgresQueryResult>, _ sql: @autoclosure () -> String) throws -> PostgresQueryResult {
            let connection = connection
            let result = try PostgresSession.traced(sql()) {
                try PostgresSession.answer(future, within: deadline, onTimeout: { let _: EventLoopFuture<Void> = connection.close() })
            }
            counts.withLockedValue { $0.statements += 1; $0.rows += result.rows.count }
            return result
        }

        func send(_ sql: SQLStatement) throws -> PostgresQueryResult {
            try send(sql.rendered(PostgresSyntax.placeholder), Self.bindings(sql.values))
        }

        /// Several statements, each ending with `;` at the end of a line (schema steps); no parameters.
        /// (postgres-nio sends every query as a prepared statement, which holds one command.)
        func script(_ sql: String) throws {
            for statement in sql.components(separatedBy: ";\n") where !statement.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                try execute(SQLStatement(raw: statement.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: ";"))))
            }
        }

        func rows(_ sql: SQLStatement) throws -> [SQLRow] { try send(sql).rows.map(Self.row) }

        /// A small answer in one statement: the first `firstPageRows` + 1 rows asked for plainly, handed over
        /// when that is all there is. A larger answer sets them aside and goes through a cursor from its first
        /// row, `rowsPerFetch` rows at a time (a plain query would receive every row first: 100,000 items,
        /// about 1 GB), so every row comes from one snapshot. A cursor lives in a transaction: its own,
        /// read-only, unless one is open. The cursor's four more statements (BEGIN, DECLARE, CLOSE, COMMIT)
        /// cost ~10 ms of a 48 ms `ls` at load 4; the plain first try costs a larger answer one short query.
        func forEachRow(_ sql: SQLStatement, _ body: (SQLRow) throws -> Void) throws {
            // The subquery keeps its ORDER BY: PostgreSQL does not flatten a subquery that sorts.
            let first = try rows("SELECT * FROM (\(sql)) AS mlib_first LIMIT \(raw: String(Self.firstPageRows + 1))")
            if first.count <= Self.firstPageRows {
                for row in first { try body(row) }
                return
            }
            if !inTransaction { try execute("BEGIN READ ONLY") }
            do {
                try execute("DECLARE mlib_rows NO SCROLL CURSOR FOR " + sql)
                // The next rows are asked for before these are handed over: the server reads them while
                // `body` works (a million-item view build waited for each batch in turn).
                let fetch = "FETCH \(Self.rowsPerFetch) FROM mlib_rows"
                var next: EventLoopFuture<PostgresQueryResult>? = try start(fetch)
                while let asked = next {
                    let batch = try answer(to: asked, fetch).rows
                    next = batch.count < Self.rowsPerFetch ? nil : try start(fetch)
                    for row in batch { try body(Self.row(row)) }
                }
                try execute("CLOSE mlib_rows")
                if !inTransaction { try execute("COMMIT") }
            } catch {
                _ = try? execute(inTransaction ? "CLOSE mlib_rows" : "ROLLBACK")
                throw error
            }
        }

        @discardableResult
        func execute(_ sql: SQLStatement) throws -> Int { try send(sql).metadata.rows ?? 0 }

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

extension PostgresCell {
    /// The cell's value, nil when NULL or of another type (never throws: the schema fixes the types).
    func value<T: PostgresDecodable>(_ type: T.Type = T.self) -> T? {
        bytes == nil ? nil : try? decode(T.self)
    }
}
