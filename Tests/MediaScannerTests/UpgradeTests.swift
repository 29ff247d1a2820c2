import Foundation
@testable import MediaIndex
@testable import SQLiteStore
import MediaModel
@testable import MediaScanner
import Testing

/// A library made by the previous release (mlib 0.1.0, Fixtures/libraries/mlib-0.1.0.sqlite: six fixture
/// files scanned under /tmp/mlib-upgrade/music, ratings and play counts set, a three-entry playlist) is
/// migrated on open, relocated, and rescanned with every id, rating, play count and playlist entry kept.
struct UpgradeTests {
    static let oldRoot = MediaPath("/tmp/mlib-upgrade/music")
    static let files = ["Album/flac-vorbis-cover.flac", "Album/m4a-aac-cover.m4a", "Album/mp3-id3v24.mp3",
                        "Other/ogg-vorbis.ogg", "Other/opus.opus", "Other/wav-riff-info.wav"]

    @Test func aLibraryOfThePreviousReleaseUpgradesAndKeepsItsUserData() async throws {
        let box = try Sandbox()
        let fixtures = FixturePaths.root
        try FileManager.default.copyItem(atPath: fixtures + "/libraries/mlib-0.1.0.sqlite", toPath: box.library)
        for file in Self.files {
            let destination = box.music.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: fixtures + "/" + (file as NSString).lastPathComponent, toPath: destination.path)
        }
        let index = try box.index()                      // migrates
        #expect(try index.integrityCheck() == "ok")
        #expect(try index.roots() == [Self.oldRoot])
        try index.relocateRoot(Self.oldRoot, to: box.root())
        let summary = try await MediaScanner(index: index).scan(try index.roots())
        #expect(summary.added == 0 && summary.removed == 0 && summary.failed == 0, "\(summary)")
        for (offset, file) in Self.files.enumerated() {
            let id = Int64(offset + 1)
            let item = try #require(try index.item(path: MediaPath(box.music.appendingPathComponent(file).path)), "\(file)")
            #expect(item.persistentID == id)
            #expect(item[.rating]?.integer == id % 5 + 1 && item.playCount == Int(id))
        }
        #expect(try index.playlistItems(name: "Favourites").map(\.persistentID) == [3, 2, 1])
        #expect(try itemsNotFoundByTitle(index).isEmpty)
        #expect(try index.integrityCheck() == "ok")

        let before = fileStates(box.library)
        let again = try await MediaScanner(index: index).scan(try index.roots())
        #expect(again.unchanged == Self.files.count && fileStates(box.library) == before)
    }
}

extension UpgradeTests {
    /// A new library and an upgraded 0.1.0 one have the same schema: the migrations are frozen steps.
    @Test func aNewLibraryHasTheSchemaOfAnUpgradedOne() throws {
        let box = try Sandbox()
        let upgraded = box.path + "/upgraded.sqlite"
        try FileManager.default.copyItem(atPath: FixturePaths.root + "/libraries/mlib-0.1.0.sqlite", toPath: upgraded)
        func schema(_ path: String) throws -> [String] {
            try SQLiteIndex(path: path).textRows("SELECT type || ' ' || name || ': ' || sql FROM sqlite_master WHERE sql IS NOT NULL")
                .compactMap { $0[0] }.sorted()
        }
        #expect(try schema(upgraded) == schema(box.library))
    }
}

enum FixturePaths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures").path
}
