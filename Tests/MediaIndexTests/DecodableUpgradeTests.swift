import Foundation
import GRDB
@testable import MediaIndex
@testable import SQLiteStore
@testable import PostgresStore
import MediaModel
import PostgresTestServer
import Testing

/// Schema "v19" / "pg v16" (issue 49: `isDecodable`, `undecodableReason`) on a library of the schema before
/// it (v17 / pg v14, today's): every item keeps its id and every value, and reads as decodable (an older mlib
/// refused the files it could not decode, so every row it wrote is one it could); `decodable == NO` finds none.
struct DecodableUpgradeTests {
    static let items = """
        INSERT INTO items (id, path, path_text, dir, "title", "audioCodec", "playbackDuration", "playCount", "rating", "isPartial") VALUES
            (4, X'2F6D757369632F312E666C6163', '/music/1.flac', X'2F6D75736963', 'One', 'flac', 181.5, 7, 4, 0),
            (9, X'2F6D757369632F322E6D3461', '/music/2.m4a', X'2F6D75736963', 'Two', 'aac', 3.25, 0, NULL, 1);
        """

    static func check(_ index: SQLStore) throws {
        let one = try #require(try index.item(id: 4)), two = try #require(try index.item(id: 9))
        #expect(one.title == "One" && one.playCount == 7 && one[.rating] == .integer(4) && one.playbackDuration == 181.5)
        #expect(two.title == "Two" && two[.audioCodec] == .text("aac") && two[.isPartial] == .bool(true))
        for item in [one, two] {
            #expect(item[.isDecodable] == .bool(true), "\(item.path)")
            #expect(item[.undecodableReason] == nil, "\(item.path)")
        }
        #expect(try index.items(MediaQuery(filter: try PredicateParser.parse("decodable == NO"))).isEmpty)
        #expect(try index.items(MediaQuery(filter: try PredicateParser.parse("decodable == YES"))).map(\.persistentID).sorted() == [4, 9])
    }

    @Test func sqliteLibraryOfV17KeepsEveryItemValueAndReadsAsDecodable() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-v19-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try sqliteLibraryUpgraded(in: directory, from: "v17: listening history", then: Self.items)
        try Self.check(try SQLiteIndex(path: path, mode: .existing))
    }

    @Test(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
    func postgresLibraryOfPgV14KeepsEveryItemValueAndReadsAsDecodable() throws {
        let index = try postgresLibrary(before: "pg v16: decodable", then: """
            INSERT INTO items (id, host, path, path_text, dir, "title", "audioCodec", "playbackDuration", "playCount", "rating", "isPartial") VALUES
                (4, 'den-id', '\\x2f6d757369632f312e666c6163', '/music/1.flac', '\\x2f6d75736963', 'One', 'flac', 181.5, 7, 4, 0),
                (9, 'den-id', '\\x2f6d757369632f322e6d3461', '/music/2.m4a', '\\x2f6d75736963', 'Two', 'aac', 3.25, 0, NULL, 1);
            SELECT setval(pg_get_serial_sequence('items', 'id'), 9);
            """)
        try Self.check(index)
    }
}
