import Foundation
import Library
import MediaIndex
import MediaModel
import PostgresTestServer
import Testing
import TestSupport

/// Issue 42: radio stations and shares kept in the library, with their rights in `Library` (every front the
/// same), on both stores. Only admins (or the library's own user, `by: nil`) edit stations; a user manages
/// their own shares and an admin everyone's; a share's link opens until it expires or is deleted; a share's
/// items follow a moved file (its id is kept) and go with a removed account's shares.
struct RadioStationsAndSharesTests {
    struct Box {
        let folder: TemporaryLibrary
        let library: Library
        let admin: UserAccount
        let bob: UserAccount

        init(_ store: Store) async throws {
            folder = try TemporaryLibrary("sharing", copying: ["opus.opus", "mp3-notags.mp3", "ogg-vorbis.ogg"])
            let locator = LibraryLocator(try store.newLocator(sqlitePath: folder.library))
            library = try Library.open(locator, mode: .create)
            _ = try await library.scan([MediaPath(folder.music.path)])
            let users = try library.users(keyFile: folder.directory.appendingPathComponent("users-key").path, createKey: true)
            admin = try users.add(name: "alice", password: "a", admin: true)
            bob = try users.add(name: "bob", password: "b")
        }

        func id(_ name: String) throws -> Int64 {
            try #require(try library.store.item(path: MediaPath(folder.music.appendingPathComponent(name).path))).id
        }
    }

    @Test(arguments: Store.available) func onlyAdminsEditStations(_ store: Store) async throws {
        let box = try await Box(store)
        defer { box.folder.remove() }
        let library = box.library
        #expect(throws: UsersError.notAllowed("editing radio stations (admins only)")) {
            try library.addRadioStation(name: "Bob FM", streamURL: "http://radio.example.org/bob", homePageURL: nil, by: box.bob)
        }
        let jazz = try library.addRadioStation(name: " Jazz ", streamURL: "http://radio.example.org/jazz", homePageURL: "", by: box.admin)
        let news = try library.addRadioStation(name: "All news", streamURL: "https://radio.example.org/news", homePageURL: "https://example.org", by: nil)
        #expect(jazz.name == "Jazz" && jazz.homePageURL == nil, "trimmed; an empty home page is none")
        #expect(try library.radioStations().map(\.name) == ["All news", "Jazz"])
        for bad in ["file:///etc/passwd", "javascript:alert(1)", "radio.example.org/x", "http://"] {
            #expect(throws: UsersError.self, "\(bad)") { try library.addRadioStation(name: "X", streamURL: bad, homePageURL: nil, by: nil) }
        }
        #expect(throws: UsersError.self) { try library.addRadioStation(name: "  ", streamURL: "http://radio.example.org/", homePageURL: nil, by: nil) }
        #expect(throws: UsersError.notAllowed("editing radio stations (admins only)")) {
            try library.updateRadioStation(id: jazz.id, name: "Mine", streamURL: "http://evil.example.org/", homePageURL: nil, by: box.bob)
        }
        try library.updateRadioStation(id: jazz.id, name: "Jazz 24", streamURL: "http://radio.example.org/jazz24", homePageURL: "http://example.org/", by: box.admin)
        let changed = try #require(try library.radioStations().first { $0.id == jazz.id })
        #expect(changed.name == "Jazz 24" && changed.streamURL == "http://radio.example.org/jazz24" && changed.homePageURL == "http://example.org/")
        #expect(changed.created == jazz.created)
        #expect(throws: UsersError.notFound("Radio station 999")) {
            try library.updateRadioStation(id: 999, name: "X", streamURL: "http://radio.example.org/", homePageURL: nil, by: box.admin)
        }
        #expect(throws: UsersError.notAllowed("editing radio stations (admins only)")) { try library.removeRadioStation(id: news.id, by: box.bob) }
        try library.removeRadioStation(id: news.id, by: box.admin)
        #expect(throws: UsersError.notFound("Radio station \(news.id)")) { try library.removeRadioStation(id: news.id, by: box.admin) }
        let again = try library.addRadioStation(name: "Again", streamURL: "http://radio.example.org/again", homePageURL: nil, by: nil)
        #expect(again.id > news.id, "ids are never reused")
        #expect(try library.radioStations().map(\.name) == ["Again", "Jazz 24"])
    }

    @Test(arguments: Store.available) func aUserManagesTheirOwnSharesAndTheLinkOpensUntilItEnds(_ store: Store) async throws {
        let box = try await Box(store)
        defer { box.folder.remove() }
        let library = box.library
        let (opus, mp3, ogg) = (try box.id("opus.opus"), try box.id("mp3-notags.mp3"), try box.id("ogg-vorbis.ogg"))
        let bobs = try library.createShareLink(itemIDs: [mp3, opus, mp3], description: "for Carol", expires: nil, by: box.bob)
        let alices = try library.createShareLink(itemIDs: [ogg], description: "", expires: nil, by: box.admin)
        #expect(bobs.itemIDs == [mp3, opus], "in order, each once")
        #expect(bobs.owner == "bob" && bobs.description == "for Carol" && alices.description == nil && bobs.visitCount == 0)
        #expect(Library.isShareID(bobs.id) && bobs.id != alices.id)
        #expect(throws: UsersError.self) { try library.createShareLink(itemIDs: [], description: nil, expires: nil, by: box.bob) }

        #expect(try library.shareLinks(visibleTo: box.bob).map(\.id) == [bobs.id])
        #expect(Set(try library.shareLinks(visibleTo: box.admin).map(\.id)) == [bobs.id, alices.id])
        #expect(throws: UsersError.notFound("Share \(alices.id)")) {
            try library.updateShareLink(id: alices.id, description: "mine", expires: nil, by: box.bob)
        }
        #expect(throws: UsersError.notFound("Share \(alices.id)")) { try library.removeShareLink(id: alices.id, by: box.bob) }
        try library.updateShareLink(id: bobs.id, description: "for Carol and Dan", expires: nil, by: box.admin)

        // The link: open (a visit counted), expired, open again without expiry, gone once deleted.
        guard case .open(let opened) = try library.openShareLink(id: bobs.id, visiting: true) else { Issue.record("not open"); return }
        #expect(opened.description == "for Carol and Dan" && opened.itemIDs == [mp3, opus])
        #expect(try library.shareLink(id: bobs.id, visibleTo: box.bob).visitCount == 1)
        _ = try library.openShareLink(id: bobs.id, visiting: false)
        #expect(try library.shareLink(id: bobs.id, visibleTo: box.bob).visitCount == 1, "a song fetched is no visit")
        try library.updateShareLink(id: bobs.id, description: nil, expires: .some(Date(timeIntervalSinceNow: -1)), by: box.bob)
        #expect(try library.openShareLink(id: bobs.id, visiting: true) == .expired)
        #expect(try library.shareLink(id: bobs.id, visibleTo: box.bob).description == "for Carol and Dan", "nil keeps the description")
        try library.updateShareLink(id: bobs.id, description: nil, expires: .some(nil), by: box.bob)
        guard case .open = try library.openShareLink(id: bobs.id, visiting: false) else { Issue.record("not open again"); return }
        try library.removeShareLink(id: bobs.id, by: box.bob)
        #expect(try library.openShareLink(id: bobs.id, visiting: true) == .missing)
        #expect(try library.openShareLink(id: "../../etc/passwd", visiting: true) == .missing)
    }

    @Test(arguments: Store.available) func aSharedFileMovedKeepsItsPlaceAndARemovedAccountTakesItsShares(_ store: Store) async throws {
        let box = try await Box(store)
        defer { box.folder.remove() }
        let library = box.library
        let opus = try box.id("opus.opus"), mp3 = try box.id("mp3-notags.mp3")
        let share = try library.createShareLink(itemIDs: [opus, mp3], description: nil, expires: nil, by: box.bob)
        // A move on disk: the item keeps its id, and so the share keeps it.
        let moved = box.folder.music.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: moved, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: box.folder.music.appendingPathComponent("opus.opus"), to: moved.appendingPathComponent("opus.opus"))
        _ = try await library.scan([MediaPath(box.folder.music.path)])
        #expect(try library.store.item(path: MediaPath(moved.appendingPathComponent("opus.opus").path))?.id == opus)
        #expect(try library.shareLink(id: share.id, visibleTo: box.bob).itemIDs == [opus, mp3])
        // A file deleted leaves the share; the others stay.
        try FileManager.default.removeItem(at: box.folder.music.appendingPathComponent("mp3-notags.mp3"))
        _ = try await library.scan([MediaPath(box.folder.music.path)])
        #expect(try library.shareLink(id: share.id, visibleTo: box.bob).itemIDs == [opus])
        // bob removed: his shares go with him.
        try library.users(keyFile: box.folder.directory.appendingPathComponent("users-key").path).remove(name: "bob")
        #expect(try library.openShareLink(id: share.id, visiting: false) == .missing)
    }
}
