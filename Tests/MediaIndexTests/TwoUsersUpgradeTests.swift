import Foundation
import GRDB
@testable import MediaIndex
@testable import SQLiteStore
@testable import PostgresStore
import MediaModel
import PostgresTestServer
import Testing

/// Issue 40's "two users' ratings and plays stay apart through an upgrade": a library as the first schema
/// with per-user data left it ("v18" / "pg v15"), two accounts with their own ratings, plays, skips, stars
/// and listening history, opened by this mlib, which applies every later step (v19 onwards: decodable,
/// lyrics and bookmarks, possible moves, and whatever comes next). Every item keeps its id and every value;
/// each user's values stay theirs and apart, and a play recorded after the upgrade goes to its user alone.
struct TwoUsersUpgradeTests {
    /// alice is the owner (her values are the items' own, `HistoryUpgradeTests.items`); bob has his own rows.
    static let users = """
        INSERT INTO users (name, password, api_key, admin, created, is_owner) VALUES
            ('alice', 'aes-gcm:a', NULL, 1, 200, 1), ('bob', 'aes-gcm:b', 'sha256:bb', 0, 300, 0);
        INSERT INTO user_item_data (user_name, item_id, rating, play_count, skip_count, last_played) VALUES
            ('bob', 4, 2, 3, 1, 1700000100.25), ('bob', 9, 5, 0, 0, NULL);
        INSERT INTO user_stars (user_name, kind, key, starred) VALUES
            ('alice', 'song', '4', 1700000000), ('bob', 'song', '9', 1700000001), ('bob', 'artist', 'ar-1', 1700000002);
        INSERT INTO history (id, item_id, kind, played_at, heard, front, user_name) VALUES
            (1, 4, 'play', 1700000000.5, 200, 'play', NULL),
            (2, 4, 'skip', 1700000050, 3, 'mpd', 'bob'),
            (3, 4, 'play', 1700000100.25, NULL, 'subsonic', 'bob'),
            (4, 4, 'play', 1700000090, 180, 'subsonic', 'alice');
        """

    static let bobs: [Int64: UserItemValues] = [
        4: UserItemValues(rating: 2, playCount: 3, skipCount: 1, lastPlayed: Date(timeIntervalSince1970: 1_700_000_100.25)),
        9: UserItemValues(rating: 5, playCount: 0, skipCount: 0, lastPlayed: nil),
    ]

    static func check(_ index: SQLStore) throws {
        try HistoryUpgradeTests.checkItems(index)
        #expect(try index.users().map(\.name) == ["alice", "bob"])
        #expect(try index.users().map(\.isOwner) == [true, false])
        #expect(try index.dataUser("alice") == nil && index.dataUser("bob") == "bob")
        #expect(try index.userValues(of: "bob", ids: nil) == Self.bobs)
        #expect(try index.stars(of: "alice").map(\.key) == ["4"])
        #expect(Set(try index.stars(of: "bob").map(\.key)) == ["9", "ar-1"])
        #expect(try index.history(HistoryQuery(user: .named("bob"))).map(\.id) == [3, 2])
        #expect(try index.history(HistoryQuery()).map(\.id) == [3, 4, 2, 1])

        // After the upgrade a play goes to its user alone.
        try index.recordListen(Listen(itemID: 9, kind: .play, date: Date(timeIntervalSince1970: 1_800_000_000), front: .subsonic, user: "bob"))
        try index.recordListen(Listen(itemID: 4, kind: .play, date: Date(timeIntervalSince1970: 1_800_000_100), front: .subsonic, user: "alice"))
        #expect(try index.item(id: 9)?.playCount == 0, "bob's play is not the owner's")
        #expect(try index.item(id: 4)?.playCount == 8)
        #expect(try index.userValues(of: "bob", ids: [4, 9]) == [
            4: Self.bobs[4]!,
            9: UserItemValues(rating: 5, playCount: 1, skipCount: 0, lastPlayed: Date(timeIntervalSince1970: 1_800_000_000)),
        ])
    }

    @Test func sqliteLibraryOfV18KeepsBothUsersValuesApart() throws {
        try HistoryUpgradeTests.upgradeSQLite(from: "v18: users and per-user data", script: HistoryUpgradeTests.items + Self.users,
                                              check: Self.check)
    }

    @Test(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
    func postgresLibraryOfPgV15KeepsBothUsersValuesApart() throws {
        // Migrated up to pg v15 (before pg v16); the history's ids were given, so its identity moves past them.
        let index = try postgresLibrary(before: "pg v16: decodable", then: HistoryUpgradeTests.postgresItems + "\n" + Self.users
                                            + "\nSELECT setval(pg_get_serial_sequence('history', 'id'), 4);")
        try Self.check(index)
    }
}
