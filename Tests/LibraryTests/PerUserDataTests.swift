import Foundation
import Library
import MediaIndex
import MediaModel
import PostgresTestServer
import TagWriting
import Testing
import TestSupport

/// Issue 40: users belong to the library, and each keeps their own ratings, plays, skips and last played.
/// The owner's (the first account) are the items' own; every other user's are apart, by item id, so they
/// stay apart and stay put through a rescan, a move (a rename on disk and a scan) and a retag. Both stores.
struct PerUserDataTests {
    struct Box {
        let folder: TemporaryLibrary
        let library: Library
        let users: Users

        init(_ store: Store) async throws {
            folder = try TemporaryLibrary("per-user", copying: ["opus.opus", "mp3-notags.mp3"])
            let locator = LibraryLocator(try store.newLocator(sqlitePath: folder.library))
            library = try Library.open(locator, mode: .create)
            _ = try await library.scan([MediaPath(folder.music.path)])
            users = try library.users(keyFile: folder.directory.appendingPathComponent("users-key").path, createKey: true)
        }

        func id(_ name: String) throws -> Int64 {
            try #require(try library.store.item(path: MediaPath(folder.music.appendingPathComponent(name).path))).id
        }
    }

    static let at = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(arguments: Store.available) func twoUsersValuesStayApartThroughRescanMoveAndRetag(_ store: Store) async throws {
        let box = try await Box(store)
        defer { box.folder.remove() }
        let library = box.library
        let alice = try box.users.add(name: "alice", password: "a")
        let bob = try box.users.add(name: "bob", password: "b")
        #expect(alice.isOwner && !bob.isOwner, "the first account is the owner")
        let opus = try box.id("opus.opus")

        try library.setRating(id: opus, 5, user: "alice")
        try library.setRating(id: opus, 2, user: "bob")
        try library.recordPlay(id: opus, at: Self.at, front: .subsonic, user: "alice")
        try library.recordPlay(id: opus, at: Self.at.addingTimeInterval(10), front: .subsonic, user: "bob")
        try library.recordPlay(id: opus, at: Self.at.addingTimeInterval(20), front: .subsonic, user: "bob")
        try library.recordSkip(id: opus, at: Self.at.addingTimeInterval(30), front: .mpd, user: "bob")

        func check(_ when: String) throws {
            let id = try box.id(FileManager.default.fileExists(atPath: box.folder.music.appendingPathComponent("moved.opus").path)
                                 ? "moved.opus" : "opus.opus")
            #expect(id == opus, "\(when): the item keeps its id")
            let mine = try #require(try library.userValues(of: "alice", ids: [opus])[opus])
            let bobs = try #require(try library.userValues(of: "bob", ids: [opus])[opus])
            #expect(mine == UserItemValues(rating: 5, playCount: 1, skipCount: 0, lastPlayed: Self.at), "\(when): \(mine)")
            #expect(bobs == UserItemValues(rating: 2, playCount: 2, skipCount: 1, lastPlayed: Self.at.addingTimeInterval(20)), "\(when): \(bobs)")
            // The owner's are the item's own, and so the owner's (nil) too.
            let item = try #require(try library.store.item(id: opus))
            #expect(item[.rating] == .integer(5) && item.playCount == 1 && item[.skipCount] == .integer(0), "\(when)")
            #expect(try library.userValues(of: nil, ids: [opus])[opus] == mine)
        }
        try check("recorded")
        #expect(try library.history(HistoryQuery(user: .named("bob"))).count == 3)
        #expect(try library.history(HistoryQuery(user: .named("alice"))).map(\.listen.kind) == [.play])

        _ = try await library.scan([MediaPath(box.folder.music.path)])
        try check("a rescan")
        try FileManager.default.moveItem(at: box.folder.music.appendingPathComponent("opus.opus"),
                                         to: box.folder.music.appendingPathComponent("moved.opus"))
        _ = try await library.scan([MediaPath(box.folder.music.path)])
        try check("a move")
        let path = MediaPath(box.folder.music.appendingPathComponent("moved.opus").path)
        let reports = try await library.writeTags([(path, TagEdit(changes: [TagChange(field: "TITLE", key: "TITLE", operation: .set("Retagged"))]))])
        #expect(reports.allSatisfy { $0.outcome == .inPlace || $0.outcome == .rewritten }, "\(reports)")
        #expect(try library.store.item(id: opus)?.title == "Retagged")
        try check("a retag")

        // A user removed takes their values along; the owner's stay the item's.
        try box.users.remove(name: "bob")
        #expect(throws: UsersError.unknownUser("bob")) { try library.userValues(of: "bob", ids: [opus]) }
        try box.users.add(name: "bob", password: "b")
        #expect(try library.userValues(of: "bob", ids: [opus])[opus] == UserItemValues())
    }

    @Test(arguments: Store.available) func anUnknownUserIsRefusedAndNothingIsWritten(_ store: Store) async throws {
        let box = try await Box(store)
        defer { box.folder.remove() }
        let opus = try box.id("opus.opus")
        #expect(throws: UsersError.unknownUser("carol")) { try box.library.setRating(id: opus, 3, user: "carol") }
        #expect(throws: IndexError.self) { try box.library.recordPlay(id: opus, user: "carol") }
        #expect(try box.library.history(HistoryQuery()).isEmpty)
        #expect(try box.library.store.item(id: opus)?.playCount == 0)
        // A library without accounts: the owner is the CLI's user, and has no account.
        try box.library.setRating(id: opus, 4)
        #expect(try box.library.store.item(id: opus)?[.rating] == .integer(4))
    }
}
