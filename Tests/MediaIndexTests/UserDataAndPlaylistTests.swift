import Foundation
@testable import MediaIndex
import MediaModel
import Testing

struct UserDataTests {
    @Test func playsSkipsAndRatingsAreKept() throws {
        let index = try SQLiteIndex(inMemory: ())
        let id = try #require(try index.add([sampleItem("/m/a.mp3", title: "A")]).first)
        try index.recordPlay(id: id, at: Date(timeIntervalSince1970: 10))
        try index.recordPlay(id: id, at: Date(timeIntervalSince1970: 20))
        try index.recordSkip(id: id)
        try index.setRating(id: id, 5)
        var item = try #require(try index.item(id: id))
        #expect(item.playCount == 2)
        #expect(item[.skipCount] == .integer(1))
        #expect(item[.lastPlayedDate] == .real(20))
        #expect(item[.rating] == .integer(5))
        try index.setRating(id: id, nil)
        item = try #require(try index.item(id: id))
        #expect(item[.rating] == nil)
    }

    @Test func badArgumentsAreTypedErrors() throws {
        let index = try SQLiteIndex(inMemory: ())
        let id = try #require(try index.add([sampleItem("/m/a.mp3", title: "A")]).first)
        #expect(throws: IndexError.invalidArgument(database: ":memory:", reason: "rating must be 0–5, got 9")) {
            try index.setRating(id: id, 9)
        }
        #expect(throws: IndexError.itemNotFound(database: ":memory:", id: 999)) { try index.recordPlay(id: 999, at: Date()) }
        #expect(throws: IndexError.itemNotFound(database: ":memory:", id: 999)) { try index.recordSkip(id: 999) }
    }
}

struct PlaylistStorageTests {
    @Test func staticPlaylistsKeepOrderAndDuplicates() throws {
        let index = try SQLiteIndex(inMemory: ())
        let ids = try index.add([sampleItem("/m/a.mp3", title: "A"), sampleItem("/m/b.mp3", title: "B"),
                                 sampleItem("/m/c.mp3", title: "C")])
        let created = try index.createPlaylist(name: "Road trip")
        #expect(!created.isSmart)
        try index.appendToPlaylist(name: "Road trip", itemIDs: [ids[2], ids[0]])
        try index.appendToPlaylist(name: "Road trip", itemIDs: [ids[2], ids[1]])
        #expect(try index.playlistItems(name: "Road trip").map(\.title) == ["C", "A", "C", "B"])
        #expect(try index.playlist(named: "Road trip")?.entryCount == 4)

        try index.removeFromPlaylist(name: "Road trip", positions: [0, 2])
        #expect(try index.playlistItems(name: "Road trip").map(\.title) == ["A", "B"])
        #expect(throws: IndexError.self) { try index.removeFromPlaylist(name: "Road trip", positions: [2]) }
        #expect(throws: IndexError.itemNotFound(database: ":memory:", id: 12345)) {
            try index.appendToPlaylist(name: "Road trip", itemIDs: [12345])
        }
        #expect(try index.playlistItems(name: "Road trip").count == 2)   // the failed append changed nothing
    }

    @Test func smartPlaylistsStoreTheirRule() throws {
        let index = try SQLiteIndex(inMemory: ())
        try index.createPlaylist(name: "Loved", smart: (predicate: "rating >= 4", sort: "-playCount", limit: 25))
        let loved = try #require(try index.playlist(named: "Loved"))
        #expect(loved.smart == SmartPlaylistRule(predicate: "rating >= 4", sort: "-playCount", limit: 25))
        #expect(try index.playlists().map(\.name) == ["Loved"])
    }

    @Test func renameDeleteAndNameClashes() throws {
        let index = try SQLiteIndex(inMemory: ())
        try index.createPlaylist(name: "A")
        try index.createPlaylist(name: "B")
        #expect(throws: IndexError.playlistExists(database: ":memory:", name: "A")) { try index.createPlaylist(name: "A") }
        #expect(throws: IndexError.playlistExists(database: ":memory:", name: "B")) { try index.renamePlaylist("A", to: "B") }
        try index.renamePlaylist("A", to: "C")
        #expect(try index.playlists().map(\.name) == ["B", "C"])
        try index.deletePlaylist(name: "B")
        #expect(try index.playlists().map(\.name) == ["C"])
        #expect(throws: IndexError.playlistNotFound(database: ":memory:", name: "B")) { try index.playlistItems(name: "B") }
        #expect(throws: IndexError.self) { try index.createPlaylist(name: "  ") }
    }

    @Test func entriesLeaveWithTheirItem() throws {
        let index = try SQLiteIndex(inMemory: ())
        let ids = try index.add([sampleItem("/m/a.mp3", title: "A"), sampleItem("/m/b.mp3", title: "B")])
        try index.createPlaylist(name: "P")
        try index.appendToPlaylist(name: "P", itemIDs: [ids[0], ids[1], ids[0]])
        try index.removeItems([ids[0]])
        #expect(try index.playlistItems(name: "P").map(\.title) == ["B"])
    }
}
