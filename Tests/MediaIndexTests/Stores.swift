import Foundation
@testable import MediaIndex
@testable import SQLiteStore
@testable import PostgresStore
import MediaModel
import PostgresTestServer
import Testing

/// The name a store's errors give for its database.
func databaseName(_ index: any LibraryStore) -> String { index.libraryName }

extension PostgresIndex {
    /// Runs a statement (tests: user data written as the player would, checks of raw rows).
    func testExecute(_ sql: String, _ values: [Double?]) throws {
        let marked = sql.replacingOccurrences(of: "?", with: String(SQLStatement.marker))
        try session.run { s in try s.execute(SQLStatement(markedText: marked, values: values.map(\.sqlValue))) }
    }
}

/// Adds items as a scan would and returns their ids in order (either store).
@discardableResult
func add(_ items: [MediaItem], to index: any LibraryStore, fingerprint: Int64 = 7) throws -> [Int64] {
    try index.apply(items.map { .add($0, stamp($0.fileSize), fingerprint: fingerprint) }, generation: nil)
    return try items.map { try #require(try index.item(path: $0.path)).persistentID }
}
