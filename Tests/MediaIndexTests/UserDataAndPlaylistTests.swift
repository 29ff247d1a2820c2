import Foundation
@testable import MediaIndex
import MediaModel
import PostgresTestServer
import Testing

struct UserDataTests {
    @Test(arguments: Store.available) func playsSkipsAndRatingsAreKept(_ store: Store) throws {
        let index = try store.emptyLibrary()
        let id = try #require(try add([sampleItem("/m/a.mp3", title: "A")], to: index).first)
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

    /// `mlib set lastPlayedDate=2024-01-02` (issue 30): a date is set as recordPlay stores one, nil clears it.
    @Test(arguments: Store.available) func theLastPlayedDateCanBeSet(_ store: Store) throws {
        let index = try store.emptyLibrary()
        let id = try #require(try add([sampleItem("/m/a.mp3", title: "A")], to: index).first)
        #expect(try index.setUserData(.lastPlayedDate, to: 1_704_153_600, ids: [id]) == 1)
        #expect(try index.item(id: id)?[.lastPlayedDate] == .real(1_704_153_600))
        try index.setUserData(.lastPlayedDate, to: nil, ids: [id])
        #expect(try index.item(id: id)?[.lastPlayedDate] == nil)
    }

    @Test(arguments: Store.available) func badArgumentsAreTypedErrors(_ store: Store) throws {
        let index = try store.emptyLibrary()
        let id = try #require(try add([sampleItem("/m/a.mp3", title: "A")], to: index).first)
        #expect(throws: IndexError.invalidArgument(database: databaseName(index), reason: "rating must be 0–5, got 9")) {
            try index.setRating(id: id, 9)
        }
        #expect(throws: IndexError.itemNotFound(database: databaseName(index), id: 999)) { try index.recordPlay(id: 999, at: Date()) }
        #expect(throws: IndexError.itemNotFound(database: databaseName(index), id: 999)) { try index.recordSkip(id: 999) }
    }
}

struct PlaylistStorageTests {
    /// A scan says "N playlist files mirrored" only when a mirror was made or its entries changed.
    @Test(arguments: Store.available) func aMirrorSaysWhetherItChanged(_ store: Store) throws {
        let index = try store.emptyLibrary()
        let ids = try add([sampleItem("/m/a.mp3", title: "A"), sampleItem("/m/b.mp3", title: "B")], to: index)
        let file = MediaPath("/m/party.m3u")
        #expect(try index.syncPlaylist(mirroring: file, name: "party", itemIDs: ids) == ("party", true))
        #expect(try index.syncPlaylist(mirroring: file, name: "party", itemIDs: ids) == ("party", false))
        #expect(try index.syncPlaylist(mirroring: file, name: "party", itemIDs: [ids[1]]) == ("party", true))
    }


    @Test(arguments: Store.available) func staticPlaylistsKeepOrderAndDuplicates(_ store: Store) throws {
        let index = try store.emptyLibrary()
        let ids = try add([sampleItem("/m/a.mp3", title: "A"), sampleItem("/m/b.mp3", title: "B"),
                           sampleItem("/m/c.mp3", title: "C")], to: index)
        let created = try index.createPlaylist(name: "Road trip")
        #expect(!created.isSmart)
        try index.appendToPlaylist(name: "Road trip", itemIDs: [ids[2], ids[0]])
        try index.appendToPlaylist(name: "Road trip", itemIDs: [ids[2], ids[1]])
        #expect(try index.playlistItems(name: "Road trip").map(\.title) == ["C", "A", "C", "B"])
        #expect(try index.playlist(named: "Road trip")?.entryCount == 4)

        try index.removeFromPlaylist(name: "Road trip", positions: [0, 2])
        #expect(try index.playlistItems(name: "Road trip").map(\.title) == ["A", "B"])
        #expect(throws: IndexError.self) { try index.removeFromPlaylist(name: "Road trip", positions: [2]) }
        #expect(throws: IndexError.itemNotFound(database: databaseName(index), id: 12345)) {
            try index.appendToPlaylist(name: "Road trip", itemIDs: [12345])
        }
        #expect(try index.playlistItems(name: "Road trip").count == 2)   // the failed append changed nothing
    }

    /// `playlist add` appends what its query selects inside the write that adds it (issue 24, case 11: a
    /// fold between a separate query and the append made "no item with id N"): in the query's order and
    /// limit; nothing matched adds nothing.
    @Test(arguments: Store.available) func appendingByQueryKeepsItsOrderAndLimit(_ store: Store) throws {
        let index = try store.emptyLibrary()
        _ = try add([sampleItem("/m/a.mp3", title: "A"), sampleItem("/m/b.mp3", title: "B"),
                     sampleItem("/m/c.mp3", title: "C")], to: index)
        try index.createPlaylist(name: "P")
        let query = MediaQuery(sort: [SortDescriptor(.title, ascending: false)], limit: 2)
        #expect(try index.appendToPlaylist(name: "P", matching: query) == 2)
        #expect(try index.playlistItems(name: "P").map(\.title) == ["C", "B"])
        let none = MediaQuery(filter: try QueryArguments.predicate(["title:zzz"]))
        #expect(try index.appendToPlaylist(name: "P", matching: none) == 0)
        #expect(try index.playlist(named: "P")?.entryCount == 2)
    }

    @Test(arguments: Store.available) func smartPlaylistsStoreTheirRule(_ store: Store) throws {
        let index = try store.emptyLibrary()
        try index.createPlaylist(name: "Loved", smart: (predicate: "rating >= 4", sort: "-playCount", limit: 25))
        let loved = try #require(try index.playlist(named: "Loved"))
        #expect(loved.smart == SmartPlaylistRule(predicate: "rating >= 4", sort: "-playCount", limit: 25))
        #expect(try index.playlists().map(\.name) == ["Loved"])
    }

    @Test(arguments: Store.available) func renameDeleteAndNameClashes(_ store: Store) throws {
        let index = try store.emptyLibrary()
        try index.createPlaylist(name: "A")
        try index.createPlaylist(name: "B")
        #expect(throws: IndexError.playlistExists(database: databaseName(index), name: "A")) { try index.createPlaylist(name: "A") }
        #expect(throws: IndexError.playlistExists(database: databaseName(index), name: "B")) { try index.renamePlaylist("A", to: "B") }
        try index.renamePlaylist("A", to: "C")
        #expect(try index.playlists().map(\.name) == ["B", "C"])
        try index.deletePlaylist(name: "B")
        #expect(try index.playlists().map(\.name) == ["C"])
        #expect(throws: IndexError.playlistNotFound(database: databaseName(index), name: "B")) { try index.playlistItems(name: "B") }
        #expect(throws: IndexError.self) { try index.createPlaylist(name: "  ") }
    }

    @Test(arguments: Store.available) func entriesLeaveWithTheirItem(_ store: Store) throws {
        let index = try store.emptyLibrary()
        let ids = try add([sampleItem("/m/a.mp3", title: "A"), sampleItem("/m/b.mp3", title: "B")], to: index)
        try index.createPlaylist(name: "P")
        try index.appendToPlaylist(name: "P", itemIDs: [ids[0], ids[1], ids[0]])
        try index.removeItems([ids[0]])
        #expect(try index.playlistItems(name: "P").map(\.title) == ["B"])
    }
}
