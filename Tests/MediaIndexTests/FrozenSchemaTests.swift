import Foundation
import GRDB
@testable import MediaIndex
@testable import SQLiteStore
@testable import PostgresStore
import Testing

/// Released schema steps are frozen: an existing library was made by exactly their SQL. Steps that are
/// rendered from one description for both dialects (`ReleasedSchema`) must render what was released, byte
/// for byte. The fixtures were written from the literal steps of c74aca1 (`MLIB_FREEZE_SCHEMA=1` writes
/// them again from the code under test: only ever to add a newly released step, after checking it).
/// - PostgreSQL: each step's name and SQL text (`Fixtures/schema/postgres-steps.json`).
/// - SQLite: the catalog (`sqlite_master`: every CREATE as stored, ALTERs included) of a library migrated
///   up to the last step in the fixture (`Fixtures/schema/sqlite-master.json`), since its steps are code.
/// Steps appended after the fixture was written are not compared (they are literal SQL until frozen here).
struct FrozenSchemaTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/schema")
    static var freezing: Bool { ProcessInfo.processInfo.environment["MLIB_FREEZE_SCHEMA"] == "1" }

    struct FrozenStep: Codable, Equatable { var name: String; var sql: String }
    struct FrozenSQLite: Codable, Equatable { var lastStep: String; var catalog: [[String]] }

    static func write<T: Encodable>(_ value: T, _ name: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(value).write(to: directory.appendingPathComponent(name))
    }

    static func read<T: Decodable>(_ type: T.Type, _ name: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(contentsOf: directory.appendingPathComponent(name)))
    }

    @Test func everyReleasedPostgresStepRendersAsReleased() throws {
        let steps = PostgresSchema.steps.map { FrozenStep(name: $0.name, sql: $0.sql) }
        if Self.freezing { try Self.write(steps, "postgres-steps.json") }
        let frozen = try Self.read([FrozenStep].self, "postgres-steps.json")
        #expect(frozen.count >= 8)
        for step in frozen {
            let now = try #require(steps.first { $0.name == step.name }, "released step \(step.name) is gone")
            #expect(now.sql == step.sql, "\(step.name) differs from its release")
        }
        #expect(Array(steps.map(\.name).prefix(frozen.count)) == frozen.map(\.name), "released steps keep their order")
    }

    @Test func everyReleasedSQLiteStepMakesTheReleasedCatalog() throws {
        func catalog(upTo last: String) throws -> [[String]] {
            let queue = try DatabaseQueue(configuration: SQLiteIndex.configuration(readOnly: false))
            try Schema.migrator.migrate(queue, upTo: last)
            return try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master ORDER BY type, name")
                    .map { row in (0..<4).map { row[$0] as String } }
            }
        }
        if Self.freezing {
            let last = try #require(Schema.migrator.migrations.last)
            try Self.write(FrozenSQLite(lastStep: last, catalog: try catalog(upTo: last)), "sqlite-master.json")
        }
        let frozen = try Self.read(FrozenSQLite.self, "sqlite-master.json")
        let now = try catalog(upTo: frozen.lastStep)
        #expect(now.count == frozen.catalog.count)
        for (a, b) in zip(now, frozen.catalog) {
            #expect(a == b, "\(b[1]) differs from its release")
        }
    }
}
