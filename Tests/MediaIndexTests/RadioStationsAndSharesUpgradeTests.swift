import Foundation
import GRDB
@testable import MediaIndex
@testable import SQLiteStore
@testable import PostgresStore
import MediaModel
import PostgresTestServer
import Testing

/// Schema "v23" / "pg v20" (issue 42: `radio_stations`, `share_links` with `share_link_items`, and
/// `play_queues.current_index`) on a library of the schema before it (v22 / pg v19) with an account, its
/// stars and a saved play queue: every item keeps its id and values, the account, its stars and its queue
/// stay as they were (the queue's current entry read by its id, as before: the first entry that is it), and
/// the new tables start empty and work.
struct RadioStationsAndSharesUpgradeTests {
    /// bob's queue holds item 4 twice; its current is item 4 (saved by id: no index).
    static let userData = """
        INSERT INTO users (name, password, api_key, admin, created, is_owner) VALUES ('bob', 'sealed', NULL, 0, 1700000000, 1);
        INSERT INTO user_stars (user_name, kind, key, starred) VALUES ('bob', 'song', '4', 1700000100);
        INSERT INTO play_queues (user_name, item_ids, current, position, changed, changed_by) VALUES ('bob', '9,4,4', 4, 1500, 1700000200, 'DSub');
        """

    static func check(_ index: SQLStore) throws {
        try DecodableUpgradeTests.check(index)
        #expect(try index.users().map(\.name) == ["bob"])
        #expect(try index.stars(of: "bob").map(\.key) == ["4"])
        let queue = try #require(try index.playQueue(of: "bob"))
        #expect(queue.itemIDs == [9, 4, 4] && queue.current == 4 && queue.position == 1500 && queue.changedBy == "DSub")
        #expect(queue.currentIndex == nil && queue.resolvedCurrentIndex == 1, "a queue saved by id: its first entry that is current")
        #expect(try index.radioStations().isEmpty && index.shareLinks(owner: nil).isEmpty)

        // The new tables and column, written and read.
        let station = try index.addRadioStation(name: "Jazz", streamURL: "http://radio.example.org/jazz", homePageURL: nil)
        #expect(try index.radioStations() == [station])
        try index.addShareLink(ShareLink(id: "abcdefgh01234567", owner: "bob", description: "two", created: Date(timeIntervalSince1970: 1_800_000_000),
                                         expires: nil, lastVisited: nil, visitCount: 0, itemIDs: [9, 4]))
        #expect(try index.shareLink(id: "abcdefgh01234567")?.itemIDs == [9, 4])
        try index.savePlayQueue(SavedPlayQueue(itemIDs: [9, 4, 4], current: 4, currentIndex: 2, position: 0, changed: Date(), changedBy: "x"), for: "bob")
        #expect(try index.playQueue(of: "bob")?.resolvedCurrentIndex == 2)
        try DecodableUpgradeTests.check(index)
    }

    @Test func sqliteLibraryOfV22KeepsItsUsersQueuesAndItems() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-v23-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try sqliteLibraryUpgraded(in: directory, from: "v22: possible moves by content",
                                             then: DecodableUpgradeTests.items + Self.userData)
        try Self.check(try SQLiteIndex(path: path, mode: .existing))
    }

    @Test(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
    func postgresLibraryOfPgV19KeepsItsUsersQueuesAndItems() throws {
        let index = try postgresLibrary(before: "pg v20: radio stations and shares", then: """
            INSERT INTO items (id, host, path, path_text, dir, "title", "audioCodec", "playbackDuration", "playCount", "rating", "isPartial") VALUES
                (4, 'den-id', '\\x2f6d757369632f312e666c6163', '/music/1.flac', '\\x2f6d75736963', 'One', 'flac', 181.5, 7, 4, 0),
                (9, 'den-id', '\\x2f6d757369632f322e6d3461', '/music/2.m4a', '\\x2f6d75736963', 'Two', 'aac', 3.25, 0, NULL, 1);
            SELECT setval(pg_get_serial_sequence('items', 'id'), 9);
            """ + "\n" + Self.userData)
        try Self.check(index)
    }
}
