import Foundation
import GRDB
@testable import MediaIndex
@testable import SQLiteStore
@testable import PostgresStore
import MediaModel
import PostgresTestServer
import Testing

/// Schema "v17" / "pg v14" (issue 40: the listening history) on a library of the schema before it, as
/// today's mlib leaves it: every item keeps its id and every value (play and skip counts, last played,
/// rating); the history starts empty (none is invented from the counters) and records from then on.
struct HistoryUpgradeTests {
    static let items = """
        INSERT INTO items (id, path, path_text, dir, "title", "playCount", "skipCount", "lastPlayedDate", "rating") VALUES
            (4, X'2F6D757369632F312E6D7033', '/music/1.mp3', X'2F6D75736963', 'One', 7, 2, 1700000000.5, 4),
            (9, X'2F6D757369632F322E6D7033', '/music/2.mp3', X'2F6D75736963', 'Two', 0, 0, NULL, NULL);
        """

    static func check(_ index: SQLStore) throws {
        try checkItems(index)
        #expect(try index.historyCount() == 0)
        try index.recordListen(Listen(itemID: 4, kind: .play, date: Date(timeIntervalSince1970: 1_800_000_000), heard: 240, front: .play))
        #expect(try index.item(id: 4)?.playCount == 8)
        #expect(try index.history(HistoryQuery()).map(\.listen.itemID) == [4])
    }

    /// The two items as they were written (also for the later steps' upgrade tests).
    static func checkItems(_ index: SQLStore) throws {
        let one = try #require(try index.item(id: 4)), two = try #require(try index.item(id: 9))
        #expect(one.title == "One" && one.playCount == 7 && one[.skipCount] == .integer(2))
        #expect(one[.lastPlayedDate] == .real(1_700_000_000.5) && one[.rating] == .integer(4))
        #expect(two.title == "Two" && two.playCount == 0 && two[.lastPlayedDate] == nil && two[.rating] == nil)
    }

    static let postgresItems = """
        INSERT INTO items (id, host, path, path_text, dir, "title", "playCount", "skipCount", "lastPlayedDate", "rating") VALUES
            (4, 'den-id', '\\x2f6d757369632f312e6d7033', '/music/1.mp3', '\\x2f6d75736963', 'One', 7, 2, 1700000000.5, 4),
            (9, 'den-id', '\\x2f6d757369632f322e6d7033', '/music/2.mp3', '\\x2f6d75736963', 'Two', 0, 0, NULL, NULL);
        SELECT setval(pg_get_serial_sequence('items', 'id'), 9);
        """

    @Test func sqliteLibraryOfV16KeepsEveryItemValue() throws {
        try Self.upgradeSQLite(from: "v16: playlist owners and visibility", script: Self.items, check: Self.check)
    }

    /// An SQLite library migrated up to `step` and filled by `script`, opened by this code: every column
    /// each item had is compared byte for byte (columns a newer mlib adds are not), then `check` runs on it.
    static func upgradeSQLite(from step: String, script: String, check: (SQLiteIndex) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-upgrade-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try sqliteLibraryUpgraded(in: directory, from: step, then: script)
        try check(try SQLiteIndex(path: path, mode: .existing))
    }

    @Test(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
    func postgresLibraryOfPgV13KeepsEveryItemValue() throws {
        let index = try postgresLibrary(before: "pg v14: listening history", then: Self.postgresItems)
        try Self.check(index)
    }
}
