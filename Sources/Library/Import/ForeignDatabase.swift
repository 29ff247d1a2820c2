import Foundation
import GRDB

/// Another program's SQLite file, opened read-only (nothing is ever written to it) for the MPD, beets and
/// Navidrome readers; a file that is not an SQLite database, or lacks the tables its format has, is
/// `UserDataImportError.malformed`.
struct ForeignDatabase {
    let file: String
    let queue: DatabaseQueue

    init(file: String) throws {
        self.file = file
        try UserDataImportError.requireReadable(file)
        var configuration = Configuration()
        configuration.readonly = true
        do {
            queue = try DatabaseQueue(path: file, configuration: configuration)
            _ = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
        } catch {
            throw UserDataImportError.malformed(file: file, reason: "not an SQLite database (\(Self.reason(error)))")
        }
    }

    /// Fails unless each of `tables` exists: the file is not of the format named.
    func require(_ tables: [String], format: String) throws {
        let present = try queue.read { try Set(String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")) }
        let missing = tables.filter { !present.contains($0) }
        guard missing.isEmpty else {
            throw UserDataImportError.malformed(file: file, reason: "no table \(missing.joined(separator: ", ")) (not \(format))")
        }
    }

    func columns(of table: String) throws -> Set<String> {
        try queue.read { db in try Set(db.columns(in: table).map(\.name)) }
    }

    /// Runs `sql` and calls `body` with each row, streaming (a cursor, not an array).
    func forEachRow(_ sql: String, _ body: (Row) throws -> Void) throws {
        do {
            try queue.read { db in
                let rows = try Row.fetchCursor(db, sql: sql)
                while let row = try rows.next() { try body(row) }
            }
        } catch let error as DatabaseError {
            throw UserDataImportError.malformed(file: file, reason: Self.reason(error))
        }
    }

    private static func reason(_ error: any Error) -> String {
        (error as? DatabaseError)?.message ?? "\(error)"
    }
}

extension Row {
    /// A column as text whatever SQLite stored (beets keeps paths as BLOBs).
    func text(_ column: String) -> String? {
        switch self[column] as DatabaseValue? {
        case .none: nil
        case .some(let value):
            switch value.storage {
            case .null: nil
            case .blob(let data): String(decoding: data, as: UTF8.self)
            case .string(let s): s
            case .int64(let i): String(i)
            case .double(let d): String(d)
            }
        }
    }

    func number(_ column: String) -> Double? {
        switch (self[column] as DatabaseValue?)?.storage {
        case .int64(let i): Double(i)
        case .double(let d): d
        case .string(let s): Double(s.trimmingCharacters(in: .whitespaces))
        case .blob(let data): Double(String(decoding: data, as: UTF8.self))
        default: nil
        }
    }
}
