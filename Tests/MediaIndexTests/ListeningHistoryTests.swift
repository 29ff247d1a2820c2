import Foundation
@testable import MediaIndex
import MediaModel
import PostgresTestServer
import Testing

/// Issue 40: one row per play and per skip, written with the item's counters in one transaction; newest
/// first, by date, user and kind; a removed item's rows stay (orphaned). On both stores.
struct ListeningHistoryTests {
    static func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

    @Test(arguments: Store.available) func aListenIsARowAndTheCountersInOneWrite(_ store: Store) throws {
        let index = try store.emptyLibrary()
        let ids = try add([sampleItem("/m/a.mp3", title: "A"), sampleItem("/m/b.mp3", title: "B", artist: "Kino")], to: index)
        let (a, b) = (ids[0], ids[1])
        // A listen names an account (schema "v18"): alice, the first, is the owner, whose counters are the item's.
        try index.addUser(UserAccount(name: "alice", password: "", apiKey: nil, isAdmin: false, created: Self.at(0)))
        try index.recordListen(Listen(itemID: a, kind: .play, date: Self.at(100), heard: 181.5, front: .play))
        try index.recordListen(Listen(itemID: b, kind: .skip, date: Self.at(200), heard: 3, front: .mpd))
        try index.recordListen(Listen(itemID: a, kind: .play, date: Self.at(300), front: .subsonic, user: "alice"))
        let itemA = try #require(try index.item(id: a)), itemB = try #require(try index.item(id: b))
        #expect(itemA.playCount == 2 && itemA[.lastPlayedDate] == .real(300))
        #expect(itemB[.skipCount] == .integer(1) && itemB.playCount == 0 && itemB[.lastPlayedDate] == nil)

        let all = try index.history(HistoryQuery())
        #expect(all.map(\.listen.itemID) == [a, b, a], "newest first")
        #expect(all.map(\.listen.kind) == [.play, .skip, .play])
        #expect(all.map(\.listen.front) == [.subsonic, .mpd, .play])
        #expect(all.map(\.listen.user) == ["alice", nil, nil])
        #expect(all.map(\.listen.heard) == [nil, 3, 181.5])
        #expect(all.map(\.listen.date) == [Self.at(300), Self.at(200), Self.at(100)])
        #expect(all[1].title == "B" && all[1].artist == "Kino" && all[1].path == MediaPath("/m/b.mp3"))
        #expect(try index.historyCount() == 3)

        #expect(try index.history(HistoryQuery(since: Self.at(200))).map(\.listen.date) == [Self.at(300), Self.at(200)])
        #expect(try index.history(HistoryQuery(user: .named("alice"))).count == 1)
        #expect(try index.history(HistoryQuery(user: .owner)).map(\.listen.date) == [Self.at(200), Self.at(100)])
        #expect(try index.history(HistoryQuery(kind: .skip)).map(\.listen.itemID) == [b])
        #expect(try index.history(HistoryQuery(limit: 1)).map(\.listen.date) == [Self.at(300)])
    }

    /// Same date twice: the one recorded last comes first (the row id breaks the tie).
    @Test(arguments: Store.available) func listensAtTheSameTimeComeInReverseRecordingOrder(_ store: Store) throws {
        let index = try store.emptyLibrary()
        let ids = try add([sampleItem("/m/a.mp3", title: "A"), sampleItem("/m/b.mp3", title: "B")], to: index)
        for id in ids { try index.recordListen(Listen(itemID: id, kind: .play, date: Self.at(50), front: .play)) }
        #expect(try index.history(HistoryQuery()).map(\.listen.itemID) == ids.reversed())
    }

    /// Nothing is half-written: no row for an id that is no item, nor for a bad date or time heard.
    @Test(arguments: Store.available) func aRefusedListenWritesNothing(_ store: Store) throws {
        let index = try store.emptyLibrary()
        let id = try #require(try add([sampleItem("/m/a.mp3", title: "A")], to: index).first)
        #expect(throws: IndexError.itemNotFound(database: databaseName(index), id: 999)) {
            try index.recordListen(Listen(itemID: 999, kind: .play, date: Self.at(1), front: .play))
        }
        #expect(throws: IndexError.self) { try index.recordListen(Listen(itemID: id, kind: .play, date: Self.at(1), heard: -1, front: .play)) }
        #expect(throws: IndexError.self) { try index.recordListen(Listen(itemID: id, kind: .play, date: Self.at(1e300), front: .play)) }
        #expect(try index.historyCount() == 0)
        #expect(try index.item(id: id)?.playCount == 0)
    }

    /// An item removed keeps its history, orphaned: no title or path, its id and the listen as they were.
    @Test(arguments: Store.available) func aRemovedItemsHistoryStays(_ store: Store) throws {
        let index = try store.emptyLibrary()
        let ids = try add([sampleItem("/m/a.mp3", title: "A"), sampleItem("/m/b.mp3", title: "B")], to: index)
        try index.recordListen(Listen(itemID: ids[0], kind: .play, date: Self.at(10), heard: 200, front: .mpd))
        try index.removeItems([ids[0]])
        let entries = try index.history(HistoryQuery())
        #expect(entries.count == 1)
        #expect(entries.first?.listen == Listen(itemID: ids[0], kind: .play, date: Self.at(10), heard: 200, front: .mpd))
        #expect(entries.first?.title == nil && entries.first?.path == nil)
    }
}
