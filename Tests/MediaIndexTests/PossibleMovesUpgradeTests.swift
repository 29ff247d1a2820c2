import Foundation
import GRDB
@testable import MediaIndex
@testable import SQLiteStore
@testable import PostgresStore
import MediaModel
import PostgresTestServer
import Testing

/// Schema "v21" / "pg v18" (issue 47: `possible_moves`, which items had a row's audio when it was added) on a
/// library of the schema before it (v19 / pg v16, today's): a new table only, so every item keeps its id and
/// every value; the table starts empty (no history is invented) and a scan's records can be written to it.
struct PossibleMovesUpgradeTests {
    static func check(_ index: SQLStore) throws {
        try DecodableUpgradeTests.check(index)
        // Both items were added before generation 1 by the older mlib (added_gen 0): they have no audio hashes,
        // so nothing is recorded, but the statement runs against the new table.
        try index.recordPossibleMoves(generation: 1, vanished: [9], isGone: { _ in false })
        try DecodableUpgradeTests.check(index)
    }

    @Test func sqliteLibraryOfV19KeepsEveryItemValue() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-v21-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try sqliteLibraryUpgraded(in: directory, from: "v19: decodable", then: DecodableUpgradeTests.items)
        try Self.check(try SQLiteIndex(path: path, mode: .existing))
    }

    @Test(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
    func postgresLibraryOfPgV16KeepsEveryItemValue() throws {
        let index = try postgresLibrary(before: "pg v18: possible moves", then: """
            INSERT INTO items (id, host, path, path_text, dir, "title", "audioCodec", "playbackDuration", "playCount", "rating", "isPartial") VALUES
                (4, 'den-id', '\\x2f6d757369632f312e666c6163', '/music/1.flac', '\\x2f6d75736963', 'One', 'flac', 181.5, 7, 4, 0),
                (9, 'den-id', '\\x2f6d757369632f322e6d3461', '/music/2.m4a', '\\x2f6d75736963', 'Two', 'aac', 3.25, 0, NULL, 1);
            SELECT setval(pg_get_serial_sequence('items', 'id'), 9);
            """)
        try Self.check(index)
    }
}
