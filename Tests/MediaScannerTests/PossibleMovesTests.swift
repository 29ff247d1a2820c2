import Foundation
@testable import MediaIndex
import MediaModel
import PostgresTestServer
@testable import MediaScanner
import Testing

/// `mlib resolve`'s library side (issue 47): a possible move hidden by a partial scan is listed with the files
/// that may be it, and the user settles it: the item takes the file they name, with its id, rating and plays,
/// or it is dropped. On both stores.
@Suite(.serialized) struct PossibleMovesTests {
    /// Two deleted and a retagged copy of One (another release of the same audio) written in Two's folder,
    /// seen by a scan of that folder only: Two is a possible move, hidden, and Three a new item.
    struct World {
        let releases: IdentityModelCasesTests.Releases
        let three: String

        init(_ store: Store) async throws {
            releases = try await IdentityModelCasesTests.Releases(store)
            three = releases.box.music.path + "/B/three.mp3"
            try SharedAudioMoveTests.retaggedCopy(releases.one, to: three, title: "Three")
            try FileManager.default.removeItem(atPath: releases.two)
            let summary = try await MediaScanner(index: releases.index).scan([MediaPath(releases.box.music.path + "/B")])
            #expect(summary.ambiguousMoves == [MediaPath(releases.two)], "\(summary)")
        }
    }

    @Test(arguments: Store.available)
    func aPossibleMoveIsListedWithItsFileAndTakesItWhenResolved(_ store: Store) async throws {
        let world = try await World(store)
        let index = world.releases.index
        let listed = try PossibleMoves.list(index)
        #expect(listed.map(\.id) == [world.releases.twoID] && listed.first?.path == MediaPath(world.releases.two), "\(listed)")
        let candidate = try #require(listed.first?.candidates.first, "\(listed)")
        #expect(candidate.path == MediaPath(world.three) && candidate.doubtful, "\(listed)")

        try PossibleMoves.resolve(index, old: world.releases.two, new: MediaPath(world.three))
        let item = try #require(try index.item(path: MediaPath(world.three)))
        #expect(item.persistentID == world.releases.twoID && item[.rating]?.integer == 4 && item.playCount == 1)
        #expect(item.title == "Three")
        #expect(try PossibleMoves.list(index).isEmpty)
        #expect(try index.item(path: MediaPath(world.releases.one))?.persistentID == world.releases.oneID)
        // Settled: the next scan of every root keeps it there.
        _ = try await MediaScanner(index: index).scan([world.releases.box.root()])
        #expect(try index.item(path: MediaPath(world.three))?.persistentID == world.releases.twoID)
    }

    @Test(arguments: Store.available)
    func aDroppedPossibleMoveIsGoneAndAnUnknownOneIsRefused(_ store: Store) async throws {
        let world = try await World(store)
        let index = world.releases.index
        let threeID = try #require(try index.item(path: MediaPath(world.three))).persistentID
        #expect(throws: IndexError.self) { try PossibleMoves.drop(index, old: world.releases.one) }   // shown, not a possible move
        #expect(throws: IndexError.self) { try PossibleMoves.resolve(index, old: world.releases.two, new: MediaPath(world.three + ".none")) }
        try PossibleMoves.drop(index, old: String(world.releases.twoID))
        #expect(try PossibleMoves.list(index).isEmpty)
        #expect(try index.item(id: world.releases.twoID) == nil)
        #expect(try index.item(path: MediaPath(world.three))?.persistentID == threeID)
    }

    /// `mlib resolve` itself: the listing (text and JSON), then the item given its file, then a wrong use refused.
    @Test(arguments: Store.available)
    func mlibResolveListsAndSettlesAPossibleMove(_ store: Store) async throws {
        let world = try await World(store)
        let library = world.releases.box.locator
        let text = try CLIScanTests.run(["resolve", "--library", library])
        #expect(text.status == 0 && text.stdout.contains(world.releases.two + " (#\(world.releases.twoID))")
                && text.stdout.contains(world.three + "\t"), "\(text)")
        let json = try CLIScanTests.run(["resolve", "--json", "--library", library])
        let listed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect((listed?.first?["id"] as? Int).map(Int64.init) == world.releases.twoID, "\(json)")

        #expect(try CLIScanTests.run(["resolve", "--library", library, world.releases.two]).status == 2)
        let resolved = try CLIScanTests.run(["resolve", "--library", library, world.releases.two, world.three])
        #expect(resolved.status == 0, "\(resolved)")
        let item = try #require(try world.releases.box.store().item(path: MediaPath(world.three)))
        #expect(item.persistentID == world.releases.twoID && item[.rating]?.integer == 4)
        #expect(try CLIScanTests.run(["resolve", "--library", library, "--drop", world.releases.two]).status != 0)
    }
}
