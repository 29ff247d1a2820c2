import Foundation
import GRDB
@testable import MediaIndex
@testable import SQLiteStore
@testable import PostgresStore
import MediaModel
import PostgresTestServer
import Testing

/// Schema "v20" / "pg v17" (issue 41: lyrics and bookmarks) on a library of the schema before it (v19 / pg
/// v16, today's): every item keeps its id and every value (a playlist entry and a user's values too), has
/// no lyrics recorded yet (NULL: read by the next scan, `readerVersion` 6), and takes lyrics and bookmarks.
struct LyricsUpgradeTests {
    static func check(_ index: SQLStore) throws {
        let one = try #require(try index.item(id: 4)), two = try #require(try index.item(id: 9))
        #expect(one.title == "One" && one.playCount == 7 && one[.rating] == .integer(4) && one.playbackDuration == 181.5)
        #expect(two.title == "Two" && two[.audioCodec] == .text("aac") && two[.isPartial] == .bool(true))
        for item in [one, two] {
            #expect(item[.hasLyrics] == nil && item[.hasSyncedLyrics] == nil && item[.lyricsLanguage] == nil, "\(item.path)")
            #expect(try index.lyrics(ofItem: item.persistentID).isEmpty)
        }
        #expect(try index.playlistItems(name: "Mix").map(\.persistentID) == [9, 4])
        #expect(try index.items(MediaQuery(filter: try PredicateParser.parse("hasLyrics == YES"))).isEmpty)
        try index.setBookmark(ofItem: 9, user: nil, positionMs: 90_000, comment: nil)
        #expect(try index.bookmarks(user: nil).map(\.itemID) == [9])
    }

    @Test func sqliteLibraryOfV19KeepsEveryItemValue() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-v20-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try sqliteLibraryUpgraded(in: directory, from: "v19: decodable", then: DecodableUpgradeTests.items + """
            INSERT INTO playlists (id, name, created, modified) VALUES (1, 'Mix', 0, 0);
            INSERT INTO playlist_entries (playlist_id, position, item_id) VALUES (1, 0, 9), (1, 1, 4);
            """)
        try Self.check(try SQLiteIndex(path: path, mode: .existing))
    }

    @Test(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
    func postgresLibraryOfPgV16KeepsEveryItemValue() throws {
        let index = try postgresLibrary(before: "pg v17: lyrics and bookmarks", then: """
            INSERT INTO items (id, host, path, path_text, dir, "title", "audioCodec", "playbackDuration", "playCount", "rating", "isPartial") VALUES
                (4, 'den-id', '\\x2f6d757369632f312e666c6163', '/music/1.flac', '\\x2f6d75736963', 'One', 'flac', 181.5, 7, 4, 0),
                (9, 'den-id', '\\x2f6d757369632f322e6d3461', '/music/2.m4a', '\\x2f6d75736963', 'Two', 'aac', 3.25, 0, NULL, 1);
            SELECT setval(pg_get_serial_sequence('items', 'id'), 9);
            INSERT INTO playlists (id, name, created, modified) VALUES (1, 'Mix', 0, 0);
            INSERT INTO playlist_entries (playlist_id, position, item_id) VALUES (1, 0, 9), (1, 1, 4);
            """)
        try Self.check(index)
    }
}
