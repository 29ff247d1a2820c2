import Foundation
import GRDB
@testable import MediaIndex
@testable import SQLiteStore
@testable import PostgresStore
import MediaModel
import PostgresTestServer
import Testing

/// Schema "v18" / "pg v15" (issue 40: users and per-user data) on a library of the schema before it
/// (v17 / pg v14), as today's mlib leaves it: every item keeps its id and every value, now the owner's;
/// every account is kept, the first admin made becomes the owner; no per-user value is invented.
struct UsersUpgradeTests {
    static let users = """
        INSERT INTO users (name, password, api_key, admin, created) VALUES
            ('zoe', 'aes-gcm:z', NULL, 0, 100), ('bob', 'aes-gcm:b', 'sha256:bb', 1, 300), ('alice', 'aes-gcm:a', NULL, 1, 200);
        """

    static func check(_ index: SQLStore) throws {
        try HistoryUpgradeTests.checkItems(index)
        let accounts = try index.users()
        #expect(accounts.map(\.name) == ["alice", "bob", "zoe"])
        #expect(accounts.map(\.isOwner) == [true, false, false], "the first admin made is the owner")
        #expect(accounts.map(\.password) == ["aes-gcm:a", "aes-gcm:b", "aes-gcm:z"] && accounts[1].apiKey == "sha256:bb")
        #expect(try index.dataUser("alice") == nil && index.dataUser("bob") == "bob")
        #expect(try index.userValues(of: "bob", ids: nil).isEmpty, "no per-user value is invented")
        // The owner's play is the item's; another user's is their own.
        try index.recordListen(Listen(itemID: 4, kind: .play, date: Date(timeIntervalSince1970: 1_800_000_000), front: .subsonic, user: "alice"))
        try index.recordListen(Listen(itemID: 4, kind: .play, date: Date(timeIntervalSince1970: 1_800_000_100), front: .subsonic, user: "bob"))
        #expect(try index.item(id: 4)?.playCount == 8)
        #expect(try index.userValues(of: "bob", ids: [4])[4]?.playCount == 1)
    }

    @Test func sqliteLibraryOfV17KeepsEveryItemValueAsTheOwners() throws {
        try HistoryUpgradeTests.upgradeSQLite(from: "v17: listening history", script: HistoryUpgradeTests.items + Self.users, check: Self.check)
    }

    @Test(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
    func postgresLibraryOfPgV14KeepsEveryItemValueAsTheOwners() throws {
        let index = try postgresLibrary(before: "pg v15: users and per-user data", then: HistoryUpgradeTests.postgresItems + "\n" + Self.users)
        try Self.check(index)
    }
}
