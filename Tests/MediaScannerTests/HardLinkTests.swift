import Foundation
import Library
import MediaIndex
import MediaModel
@testable import MediaScanner
import PostgresTestServer
import Testing

/// Issue 50: a file with several hard links in the roots is an item per path (MPD, beets and Navidrome
/// list every path; users hard-link albums into "best of" or seeding folders), neither path a move of the
/// other, and the scan counts the paths after the first. Before, 100,040 paths made of ten hard-linked
/// copies of a library gave a tenth as many items, silently.
@Suite(.serialized) struct HardLinkTests {
    /// `Album/a.mp3` and its hard link `Best of/a.mp3`, scanned; the album's item rated 5, the best-of's 2.
    struct Linked {
        let box: Sandbox
        let index: any LibraryStore
        let album: String, best: String
        let albumID: Int64, bestID: Int64
        let firstScan: ScanSummary

        init(_ store: Store) async throws {
            box = try Sandbox(store: store)
            album = try box.put("a.mp3", at: "Album/a.mp3").string
            best = box.music.path + "/Best of/a.mp3"
            try FileManager.default.createDirectory(atPath: box.music.path + "/Best of", withIntermediateDirectories: true)
            try #require(link(album, best) == 0)
            firstScan = try await box.scan()
            index = try box.store()
            albumID = try #require(try index.item(path: MediaPath(album))).persistentID
            bestID = try #require(try index.item(path: MediaPath(best))).persistentID
            try index.setRating(id: albumID, 5)
            try index.setRating(id: bestID, 2)
        }

        func rating(_ path: String) throws -> (id: Int64, rating: Int64?)? {
            try index.item(path: MediaPath(path)).map { ($0.persistentID, $0[.rating]?.integer) }
        }
    }

    @Test(arguments: Store.available)
    func everyPathOfAHardLinkedFileIsAnItemOfItsOwn(_ store: Store) async throws {
        let world = try await Linked(store)
        #expect(world.albumID != world.bestID)
        #expect(world.firstScan.added == 2 && world.firstScan.hardLinked == 1, "\(world.firstScan)")
        #expect(try world.index.count(MediaQuery()) == 2)
        let rescan = try await world.box.scan()
        #expect(rescan.unchanged == 2 && rescan.moved == 0 && rescan.hardLinked == 1, "\(rescan)")
        #expect(try world.rating(world.album)! == (world.albumID, 5))
        #expect(try world.rating(world.best)! == (world.bestID, 2))
    }

    @Test(arguments: Store.available)
    func aHardLinkMadeLaterIsANewItemAndTakesNothing(_ store: Store) async throws {
        let world = try await Linked(store)
        let third = world.box.music.path + "/Seeding/a.mp3"
        try FileManager.default.createDirectory(atPath: world.box.music.path + "/Seeding", withIntermediateDirectories: true)
        try #require(link(world.album, third) == 0)
        let summary = try await world.box.scan()
        #expect(summary.added == 1 && summary.moved == 0 && summary.hardLinked == 2, "\(summary)")
        let new = try #require(try world.rating(third))
        #expect(new.id != world.albumID && new.id != world.bestID && new.rating == nil)
        #expect(try world.rating(world.album)! == (world.albumID, 5))
        #expect(try world.rating(world.best)! == (world.bestID, 2))
    }

    @Test(arguments: Store.available)
    func unlinkingOnePathRemovesThatItemAlone(_ store: Store) async throws {
        let world = try await Linked(store)
        try #require(unlink(world.album) == 0)
        let summary = try await world.box.scan()
        #expect(summary.removed == 1 && summary.moved == 0 && summary.hardLinked == 0, "\(summary)")
        #expect(try world.rating(world.album) == nil)
        #expect(try world.rating(world.best)! == (world.bestID, 2))
    }

    @Test(arguments: Store.available)
    func renamingOnePathMovesThatItemAlone(_ store: Store) async throws {
        let world = try await Linked(store)
        let renamed = world.box.music.path + "/Best of/01 a.mp3"
        try #require(rename(world.best, renamed) == 0)
        let summary = try await world.box.scan()
        #expect(summary.moved == 1 && summary.added == 0 && summary.removed == 0, "\(summary)")
        #expect(try world.rating(renamed)! == (world.bestID, 2))
        #expect(try world.rating(world.album)! == (world.albumID, 5))
    }
}
