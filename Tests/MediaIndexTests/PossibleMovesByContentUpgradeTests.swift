import Foundation
import GRDB
@testable import MediaIndex
@testable import SQLiteStore
@testable import PostgresStore
import MediaModel
import PostgresTestServer
import Testing

/// Schema "v22" / "pg v19" (issue 47: `possible_moves_by_content`, the possible-move records kept by the
/// row's content, so that they outlive the row when its root is forgotten and added back) on a library of
/// the schema before it (v21 / pg v18) that has records: every item keeps its id and values, the records
/// keyed by row stay, and each is copied under its row's content (size and fingerprint; a row without a
/// fingerprint has no content key, and two records of one content and item become one, the later generation).
struct PossibleMovesByContentUpgradeTests {
    /// Item 4 has a size and fingerprint, item 9 none; 4 had the audio of items 77 and 78 (gone since), 9 of 77.
    static let records = """
        UPDATE items SET "fileSize" = 4096, fingerprint = -12345 WHERE id = 4;
        INSERT INTO possible_moves (row_id, item_id, generation) VALUES (4, 77, 3), (4, 78, 5), (9, 77, 2);
        """

    static func check(_ index: SQLStore) throws {
        try DecodableUpgradeTests.check(index)
        let (byRow, byContent) = try index.read { x in
            (try x.rows("SELECT row_id, item_id, generation FROM possible_moves ORDER BY row_id, item_id").map { $0.values.map(\.integer) },
             try x.rows("SELECT size, fingerprint, item_id, generation FROM possible_moves_by_content ORDER BY item_id").map { $0.values.map(\.integer) })
        }
        #expect(byRow == [[4, 77, 3], [4, 78, 5], [9, 77, 2]])
        #expect(byContent == [[4096, -12345, 77, 3], [4096, -12345, 78, 5]])
        // A scan's records are written to both tables of the upgraded library.
        try index.recordPossibleMoves(generation: 6, vanished: [9], isGone: { _ in false })
        try DecodableUpgradeTests.check(index)
    }

    @Test func sqliteLibraryOfV21KeepsItsPossibleMovesUnderTheirContent() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-v22-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try sqliteLibraryUpgraded(in: directory, from: "v21: possible moves",
                                             then: DecodableUpgradeTests.items + Self.records)
        try Self.check(try SQLiteIndex(path: path, mode: .existing))
    }

    @Test(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
    func postgresLibraryOfPgV18KeepsItsPossibleMovesUnderTheirContent() throws {
        let index = try postgresLibrary(before: "pg v19: possible moves by content", then: """
            INSERT INTO items (id, host, path, path_text, dir, "title", "audioCodec", "playbackDuration", "playCount", "rating", "isPartial") VALUES
                (4, 'den-id', '\\x2f6d757369632f312e666c6163', '/music/1.flac', '\\x2f6d75736963', 'One', 'flac', 181.5, 7, 4, 0),
                (9, 'den-id', '\\x2f6d757369632f322e6d3461', '/music/2.m4a', '\\x2f6d75736963', 'Two', 'aac', 3.25, 0, NULL, 1);
            SELECT setval(pg_get_serial_sequence('items', 'id'), 9);
            """ + "\n" + Self.records)
        try Self.check(index)
    }
}
