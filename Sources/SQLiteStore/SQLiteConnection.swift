import Foundation
import GRDB
import GRDBSQLite
import MediaIndex
import MediaModel

/// `SQLConnection` over a GRDB `DatabaseWriter`: statements are prepared once per connection (GRDB's
/// statement cache, keyed by the rendered text) and their values bound as DatabaseValues.
struct SQLiteConnection: SQLConnection {
    let database: any DatabaseWriter
    let path: String
    /// Shared with the `SQLiteIndex`: the library is checked once before its first write.
    let writeGate: WriteGate
    var syntax: any SQLSyntax { SQLiteSyntax() }

    func read<T>(_ body: (any SQLExecutor) throws -> T) throws -> T {
        SQLiteIndex.useTemporaryStorage(.file, database)
        do { return try database.read { db in try body(Executor(db: db)) } } catch let error as IndexError { throw error } catch {
            throw SQLiteIndex.readError(error, path)
        }
    }

    func readEach<T>(_ body: (any SQLExecutor) throws -> T) throws -> T {
        do { return try database.unsafeRead { db in try body(Executor(db: db)) } } catch let error as IndexError { throw error } catch {
            throw SQLiteIndex.readError(error, path)
        }
    }

    func write<T>(_ body: (any SQLExecutor) throws -> T) throws -> T {
        try writeGate.checkBeforeFirstWrite(database, path: path)
        SQLiteIndex.useTemporaryStorage(.memory, database)
        do { return try database.write { db in try body(Executor(db: db)) } } catch let error as IndexError { throw error } catch let error as QueryError {
            throw error
        } catch {
            throw IndexError.database(database: path, reason: SQLiteIndex.reason(error))
        }
    }

    struct Executor: SQLExecutor {
        let db: Database

        func statement(_ sql: SQLStatement) throws -> Statement {
            let statement = try db.cachedStatement(sql: sql.rendered(SQLiteSyntax.placeholder))
            statement.setUncheckedArguments(StatementArguments(sql.values.map(Self.databaseValue)))
            return statement
        }

        func forEachRow(_ sql: SQLStatement, _ body: (SQLRow) throws -> Void) throws {
            let statement = try statement(sql)
            let rows = try Row.fetchCursor(statement)
            let handle = statement.sqliteStatement, columns = Int32(statement.columnCount)
            // Each column read from SQLite's C API: GRDB's `Row.databaseValues` makes every column's name
            // as a String on the way (a ninth of `mlib ls --json`'s CPU at 100,000 items).
            while try rows.next() != nil {
                try body(SQLRow((0..<columns).map { Self.value(handle, column: $0) }))
            }
        }

        func rows(_ sql: SQLStatement) throws -> [SQLRow] {
            var result: [SQLRow] = []
            try forEachRow(sql) { result.append($0) }
            return result
        }

        @discardableResult
        func execute(_ sql: SQLStatement) throws -> Int {
            try statement(sql).execute()
            return db.changesCount
        }

        static func databaseValue(_ value: SQLValue) -> DatabaseValue {
            switch value {
            case .null: .null
            case .integer(let i): i.databaseValue
            case .real(let d): d.databaseValue
            case .text(let s): s.databaseValue
            case .bytes(let b): Data(b).databaseValue
            // Lists travel as one JSON array, read back by json_each (SQLiteSyntax.isIn, listRows).
            case .integers(let list): SQLiteSyntax.jsonArray(list).databaseValue
            case .texts(let list): JSONValue.array(list.map(JSONValue.string)).serialized().databaseValue
            case .nullableIntegers(let list): SQLiteSyntax.jsonArray(list).databaseValue
            }
        }

        static func value(_ handle: SQLiteStatement, column: Int32) -> SQLValue {
            switch sqlite3_column_type(handle, column) {
            case SQLITE_NULL: return .null
            case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
            case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
            case SQLITE_TEXT:
                // Text first, then its length (SQLite's documented order: the length is of that form).
                guard let text = sqlite3_column_text(handle, column) else { return .text("") }
                let count = Int(sqlite3_column_bytes(handle, column))
                return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
            default:
                guard let blob = sqlite3_column_blob(handle, column) else { return .bytes([]) }
                let count = Int(sqlite3_column_bytes(handle, column))
                return .bytes(Array(UnsafeRawBufferPointer(start: blob, count: count)))
            }
        }
    }
}

/// SQLite's spelling: numbered `?N` placeholders, lists as JSON arrays through `json_each`.
struct SQLiteSyntax: SQLSyntax {
    /// One writer at a time: the triggers ("v11") number writes in commit order, so the next token is the
    /// highest plus one (the highest record is never trimmed).
    var nextChangeToken: String { "(SELECT coalesce(max(token), 0) + 1 FROM item_changes)" }

    static func placeholder(_ n: Int) -> String { "?\(n)" }
    func placeholder(_ n: Int) -> String { Self.placeholder(n) }

    func isIn(_ expression: String, _ list: SQLValue) -> SQLStatement {
        "\(raw: expression) IN (SELECT value FROM json_each(\(list)))"
    }

    func listRows(_ list: SQLValue, as alias: String) -> SQLStatement {
        "(SELECT key AS position, value FROM json_each(\(list))) AS \(raw: alias)"
    }

    static func jsonArray(_ values: [Int64?]) -> String {
        let elements: [String] = values.map { $0.map { String($0) } ?? "null" }
        return "[" + elements.joined(separator: ",") + "]"
    }

    /// One JSON document, an array of rows, each an array of integers or nulls.
    func integerRows(_ rows: [[Int64?]], columns: [String]) -> SQLStatement {
        let json = "[" + rows.map(Self.jsonArray).joined(separator: ",") + "]"
        let selected = columns.enumerated().map { "json_extract(value, '$[\($0.offset)]') AS \($0.element)" }.joined(separator: ", ")
        return "SELECT \(raw: selected) FROM json_each(\(json))"
    }
}
