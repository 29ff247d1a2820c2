import Foundation
import GRDB
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

/// A new database on the test server migrated up to (not including) the PostgreSQL step `step`, as a
/// library made by the mlib that released the step before it, then `script` run on it (the rows that
/// mlib wrote); opened as host "den" (id "den-id"). For the tests of a step's upgrade.
func postgresLibrary(before step: String, then script: String) throws -> PostgresIndex {
    let server = try #require(PostgresTestServer.shared)
    let location = try PostgresLocation(url: try server.makeDatabase())
    let earlier = PostgresSchema.steps.prefix { $0.name != step }
    #expect(earlier.count < PostgresSchema.steps.count, "no step \(step)")
    try PostgresSession(location).run { x in
        try x.execute("CREATE TABLE mlib_migrations (name text PRIMARY KEY, applied double precision NOT NULL)")
        for step in earlier {
            try x.script(step.sql)
            try x.execute("INSERT INTO mlib_migrations VALUES (\(step.name), \(Date()))")
        }
        try x.script(script)
    }
    return try PostgresIndex(location, mode: .existing, identity: HostIdentity(id: "den-id", name: "den"))
}

/// A SQLite library in `directory` migrated up to (including) the step `step`, `script` run on it (the rows
/// that mlib wrote), then opened by this mlib (which applies the later steps): every column each item had
/// before is checked to hold the same value after, byte for byte (columns a later step adds are not
/// compared). Returns the library's path. For the tests of a step's upgrade.
func sqliteLibraryUpgraded(in directory: URL, from step: String, then script: String) throws -> String {
    let path = directory.appendingPathComponent("library.sqlite").path
    let before: [Row]
    do {
        let queue = try DatabaseQueue(path: path, configuration: SQLiteIndex.configuration(readOnly: false))
        try Schema.migrator.migrate(queue, upTo: step)
        try queue.write { db in try db.execute(sql: script) }
        before = try queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM items ORDER BY id") }
    }
    do {
        let index = try SQLiteIndex(path: path, mode: .existing)
        _ = try index.item(id: 1)
    }
    let queue = try DatabaseQueue(path: path, configuration: SQLiteIndex.configuration(readOnly: false))
    let after = try queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM items ORDER BY id") }
    #expect(after.count == before.count)
    for (old, new) in zip(before, after) {
        for column in old.columnNames { #expect(old[column] as DatabaseValue == new[column] as DatabaseValue, "\(column)") }
    }
    return path
}
