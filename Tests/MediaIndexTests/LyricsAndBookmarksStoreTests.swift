import Foundation
@testable import MediaIndex
import MediaModel
import PostgresTestServer
import Testing

/// Lyrics and bookmarks in the store (schema "v20" / "pg v17"), on both stores: the scan's `.lyrics` change
/// writes a file's sets (a new row found by its path, a known item by its id), the summary columns are
/// queryable, a fold hands the row's lyrics and bookmarks to the item, a removed item takes its own along.
struct LyricsAndBookmarksStoreTests {
    static func lyrics(_ text: String, source: String = "uslt", language: String? = "eng", synced: Bool = false,
                       sidecar: String? = nil) -> StoredLyrics {
        StoredLyrics(source: source, origin: sidecar, language: language, isSynced: synced, text: text, body: #"{"text":"\#(text)"}"#,
                     sidecar: sidecar.map { SidecarStamp(name: Array($0.utf8), stamp: FileStamp(size: 10, mtimeNanoseconds: 20, inode: 30)) })
    }

    static func withLyrics(_ path: String, title: String, languages: String?, synced: Bool) -> MediaItem {
        var item = sampleItem(path, title: title)
        item[.hasLyrics] = .bool(languages != nil)
        item[.hasSyncedLyrics] = .bool(synced)
        item[.lyricsLanguage] = languages.map(MediaValue.text)
        return item
    }

    @Test(arguments: Store.available) func aScanBatchWritesLyricsAndTheyAreQueryable(_ store: Store) throws {
        let index = try store.emptyLibrary()
        let a = Self.withLyrics("/m/a.mp3", title: "A", languages: "eng; deu", synced: true)
        let b = Self.withLyrics("/m/b.mp3", title: "B", languages: nil, synced: false)
        try index.apply([
            .add(a, stamp(a.fileSize), fingerprint: 1),
            .lyrics(a.path, id: nil, [Self.lyrics("hello", language: "eng"), Self.lyrics("hallo", language: "deu"),
                                      Self.lyrics("[00:01.00]hi", source: "lrc", language: nil, synced: true, sidecar: "a.lrc")]),
            .add(b, stamp(b.fileSize), fingerprint: 2),
        ], generation: nil)
        let idA = try #require(try index.item(path: a.path)).persistentID
        let idB = try #require(try index.item(path: b.path)).persistentID
        let stored = try index.lyrics(ofItem: idA)
        #expect(stored.map(\.text) == ["hello", "hallo", "[00:01.00]hi"])
        #expect(stored[2].sidecar == SidecarStamp(name: Array("a.lrc".utf8), stamp: FileStamp(size: 10, mtimeNanoseconds: 20, inode: 30)))
        #expect(stored[2].isSynced && !stored[0].isSynced && stored[1].language == "deu")
        #expect(try index.lyrics(ofItem: idB).isEmpty)
        #expect(try index.lyricsSidecars(under: MediaPath("/m")) == [idA: [stored[2].sidecar!]])
        #expect(try index.lyricsSidecars(under: MediaPath("/other")).isEmpty)

        func ids(_ query: String) throws -> [Int64] {
            try index.items(MediaQuery(filter: try PredicateParser.parse(query))).map(\.persistentID).sorted()
        }
        #expect(try ids("hasLyrics == YES") == [idA])
        #expect(try ids("hasSyncedLyrics == YES") == [idA])
        #expect(try ids("hasLyrics == NO") == [idB])
        #expect(try ids(#"lyricsLanguage == "deu""#) == [idA], "any of the languages")

        // A known file read again: its sets are replaced (by id), and go when it has none.
        try index.apply([.update(id: idA, a, stamp(a.fileSize), fingerprint: 1), .lyrics(a.path, id: idA, [Self.lyrics("bye")])], generation: nil)
        #expect(try index.lyrics(ofItem: idA).map(\.text) == ["bye"])
        var plain = a
        plain[.hasLyrics] = .bool(false)
        try index.apply([.update(id: idA, plain, stamp(a.fileSize), fingerprint: 1), .lyrics(a.path, id: idA, [])], generation: nil)
        #expect(try index.lyrics(ofItem: idA).isEmpty)
    }

    @Test(arguments: Store.available) func bookmarksArePerUserAndItem(_ store: Store) throws {
        let index = try store.emptyLibrary()
        let ids = try add([sampleItem("/m/a.m4b", title: "A"), sampleItem("/m/b.m4b", title: "B")], to: index)
        // The first account made is the owner ("me", whose values are the owner's); bob is another user.
        for name in ["me", "bob"] {
            try index.addUser(UserAccount(name: name, password: "", apiKey: nil, isAdmin: false, created: Date(timeIntervalSince1970: 0)))
        }
        try index.setBookmark(ofItem: ids[0], user: nil, positionMs: 61_000, comment: "chapter 2")
        try index.setBookmark(ofItem: ids[0], user: "bob", positionMs: 5_000, comment: nil)
        try index.setBookmark(ofItem: ids[1], user: "bob", positionMs: 7_000, comment: nil)
        #expect(try index.bookmark(ofItem: ids[0], user: nil)?.positionMs == 61_000)
        #expect(try index.bookmark(ofItem: ids[0], user: nil)?.comment == "chapter 2")
        #expect(try index.bookmark(ofItem: ids[0], user: "me")?.positionMs == 61_000, "the owner account's are the owner's")
        #expect(try index.bookmarks(user: "bob").map(\.itemID).sorted() == ids)
        let created = try #require(try index.bookmark(ofItem: ids[0], user: "bob")).created
        try index.setBookmark(ofItem: ids[0], user: "bob", positionMs: 9_000, comment: "moved")
        let moved = try #require(try index.bookmark(ofItem: ids[0], user: "bob"))
        #expect(moved.positionMs == 9_000 && moved.comment == "moved" && moved.created == created)
        #expect(try index.deleteBookmark(ofItem: ids[1], user: "bob"))
        #expect(try !index.deleteBookmark(ofItem: ids[1], user: "bob"))
        #expect(try index.bookmarks(user: "bob").map(\.itemID) == [ids[0]])
        #expect(throws: IndexError.self) { try index.setBookmark(ofItem: 999_999, user: nil, positionMs: 1, comment: nil) }
        #expect(throws: IndexError.self) { try index.setBookmark(ofItem: ids[0], user: nil, positionMs: -1, comment: nil) }
        #expect(throws: IndexError.self) { try index.bookmarks(user: "nobody") }
        try index.removeItems([ids[0]])
        #expect(try index.bookmarks(user: nil).isEmpty && index.bookmarks(user: "bob").isEmpty, "gone with the item")
    }

    @Test(arguments: Store.available) func aFoldGivesTheItemTheRowsLyricsAndBookmarks(_ store: Store) throws {
        let index = try store.emptyLibrary()
        let ids = try add([sampleItem("/m/old.mp3", title: "A"), sampleItem("/m/new.mp3", title: "A")], to: index)
        let (item, row) = (ids[0], ids[1])
        try index.apply([.lyrics(MediaPath("/m/old.mp3"), id: item, [Self.lyrics("old words")]),
                         .lyrics(MediaPath("/m/new.mp3"), id: row, [Self.lyrics("new words")])], generation: nil)
        try index.setBookmark(ofItem: item, user: nil, positionMs: 1_000, comment: "the item's")
        try index.setBookmark(ofItem: row, user: nil, positionMs: 2_000, comment: "the row's")
        // The first account made is the owner ("me", whose values are the owner's); bob is another user.
        for name in ["me", "bob"] {
            try index.addUser(UserAccount(name: name, password: "", apiKey: nil, isAdmin: false, created: Date(timeIntervalSince1970: 0)))
        }
        try index.setBookmark(ofItem: row, user: "bob", positionMs: 3_000, comment: nil)

        try index.fold([(item: item, row: row)])
        #expect(try index.lyrics(ofItem: item).map(\.text) == ["new words"], "the file as it is now")
        #expect(try index.lyrics(ofItem: row).isEmpty)
        #expect(try index.bookmark(ofItem: item, user: nil)?.positionMs == 1_000, "the item's own kept")
        #expect(try index.bookmark(ofItem: item, user: "bob")?.positionMs == 3_000, "carried over")
        try index.removeItems([item])
        #expect(try index.lyrics(ofItem: item).isEmpty)
    }
}
