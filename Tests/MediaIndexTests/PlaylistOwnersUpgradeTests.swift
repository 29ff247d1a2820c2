import Foundation
import GRDB
@testable import MediaIndex
@testable import SQLiteStore
@testable import PostgresStore
import MediaModel
import PostgresTestServer
import Testing

/// Schema "v16" / "pg v12" (issue 37: playlist owners and visibility) on a library of the schema before it:
/// every playlist keeps its id, name and entries, and becomes the library's (no owner), public. A user's
/// playlist outlives the user: the library's, still private.
struct PlaylistOwnersUpgradeTests {
    /// What both stores hold before the step: three items, a static playlist of three entries (one item
    /// twice) and an empty one, with ids that are not 1 and 2, and a user.
    static func check(_ index: SQLStore) throws {
        let playlists = try index.playlists()
        #expect(playlists.map(\.id) == [7, 9] && playlists.map(\.name) == ["Empty", "Favourites"], "\(playlists)")
        #expect(playlists.allSatisfy { $0.owner == nil && $0.isPublic }, "\(playlists)")
        #expect(try index.playlistItems(name: "Favourites").map(\.persistentID) == [3, 1, 3])
        #expect(try index.playlistItems(name: "Empty").isEmpty)
        // A user's private playlist, then the user removed: the library's, private.
        let made = try index.createPlaylist(name: "Bob's", smart: nil, owner: "bob", isPublic: false)
        #expect(made.owner == "bob" && !made.isPublic && made.id > 9)
        try index.appendToPlaylist(name: "Bob's", itemIDs: [2])
        #expect(try index.removeUser(named: "bob"))
        let kept = try #require(try index.playlist(named: "Bob's"))
        #expect(kept.owner == nil && !kept.isPublic && kept.id == made.id)
        #expect(try index.playlistItems(name: "Bob's").map(\.persistentID) == [2])
    }

    static let before = """
        INSERT INTO users (name, password, api_key, admin, created) VALUES ('bob', 'sealed', NULL, 0, 1);
        INSERT INTO playlists (id, name, created, modified) VALUES (7, 'Empty', 1, 1);
        INSERT INTO playlists (id, name, created, modified) VALUES (9, 'Favourites', 1, 2);
        INSERT INTO playlist_entries (playlist_id, position, item_id) VALUES (9, 0, 3);
        INSERT INTO playlist_entries (playlist_id, position, item_id) VALUES (9, 1, 1);
        INSERT INTO playlist_entries (playlist_id, position, item_id) VALUES (9, 2, 3);
        """

    @Test func sqliteLibraryOfV15KeepsEveryPlaylistEntryAndID() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-v16-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("library.sqlite").path
        do {
            let queue = try DatabaseQueue(path: path, configuration: SQLiteIndex.configuration(readOnly: false))
            try Schema.migrator.migrate(queue, upTo: "v15: declared duration of truncated files")
            try queue.write { db in
                for n in 1...3 {
                    try db.execute(sql: "INSERT INTO items (id, path, path_text, dir) VALUES (?, ?, ?, ?)",
                                   arguments: [n, Data("/music/\(n).mp3".utf8), "/music/\(n).mp3", Data("/music".utf8)])
                }
                try db.execute(sql: Self.before)
            }
        }
        let index = try SQLiteIndex(path: path, mode: .existing)
        try Self.check(index)
    }

    @Test(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
    func postgresLibraryOfPgV11KeepsEveryPlaylistEntryAndID() throws {
        let index = try postgresLibrary(before: "pg v12: playlist owners and visibility", then: """
            INSERT INTO items (id, host, path, path_text, dir) VALUES
                (1, 'den-id', '\\x2f6d757369632f312e6d7033', '/music/1.mp3', '\\x2f6d75736963'),
                (2, 'den-id', '\\x2f6d757369632f322e6d7033', '/music/2.mp3', '\\x2f6d75736963'),
                (3, 'den-id', '\\x2f6d757369632f332e6d7033', '/music/3.mp3', '\\x2f6d75736963');
            SELECT setval(pg_get_serial_sequence('playlists', 'id'), 9);
            """ + "\n" + Self.before)
        try Self.check(index)
    }
}
