import Foundation
import GRDB
import MediaIndex
import MediaModel

// Reading items. The SQL comes from QueryCompiler (the query engineer's Query*.swift); rows become items
// through ItemRow, the one generic mapping.
extension SQLiteIndex {
    public func items(_ query: MediaQuery) throws -> [MediaItem] {
        var result: [MediaItem] = []
        try forEachItem(query) { result.append($0) }
        return result
    }

    /// Streams the matching items one by one (constant memory, however many rows match).
    /// Errors thrown by `body` are rethrown unchanged.
    public func forEachItem(_ query: MediaQuery, _ body: (MediaItem) throws -> Void) throws {
        let (sql, arguments) = try QueryCompiler.itemsSQL(query)
        var bodyError: (any Error)?
        try read { db in
            let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while let row = try rows.next() {
                do { try body(ItemRow.decode(row)) } catch { bodyError = error; return }
            }
        }
        if let bodyError { throw bodyError }
    }

    public func count(_ query: MediaQuery) throws -> Int {
        let (sql, arguments) = try QueryCompiler.countSQL(query)
        return try read { db in try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0 }
    }

    /// Items grouped by `query.grouping`: see `queryCollections` in QueryExecution.swift (query engineer).
    public func collections(_ query: MediaQuery) throws -> [MediaCollection] {
        try queryCollections(query)
    }

    public func item(id: Int64) throws -> MediaItem? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT \(ItemRow.selectColumns) FROM items WHERE id = ? AND missing_gen IS NULL", arguments: [id])
                .map(ItemRow.decode)
        }
    }

    public func item(path: MediaPath) throws -> MediaItem? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT \(ItemRow.selectColumns) FROM items WHERE path = ? AND missing_gen IS NULL",
                             arguments: [Data(path.bytes)]).map(ItemRow.decode)
        }
    }

    /// Items by id, in the order given (ids not in the library are left out).
    public func items(ids: [Int64]) throws -> [MediaItem] {
        try read { db in
            var byID: [Int64: MediaItem] = [:]
            for chunk in stride(from: 0, to: ids.count, by: 500).map({ ids[$0..<min($0 + 500, ids.count)] }) {
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                let rows = try Row.fetchCursor(db, sql: "SELECT \(ItemRow.selectColumns) FROM items WHERE id IN (\(marks)) AND missing_gen IS NULL",
                                               arguments: StatementArguments(Array(chunk)))
                while let row = try rows.next() { let item = ItemRow.decode(row); byID[item.persistentID] = item }
            }
            return ids.compactMap { byID[$0] }
        }
    }
}
