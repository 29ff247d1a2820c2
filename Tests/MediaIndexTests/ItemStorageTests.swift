import Foundation
@testable import MediaIndex
@testable import SQLiteStore
import MediaModel
import Testing

struct ItemStorageTests {
    @Test func everyPropertyRoundTripsThroughARow() throws {
        let index = try SQLiteIndex(inMemory: ())
        var item = MediaItem(path: MediaPath("/m/a.flac"), tags: ["TITLE": "T", "X-CUSTOM": "v"])
        // One value for every file-derived property, of its own type.
        for (n, property) in MediaProperty.fileDerived.enumerated() where property != .path {
            switch property.spec.type {
            case .text: item[property] = .text("text \(n)")
            case .date: item[property] = .text("2001-02-03")
            case .integer: item[property] = .integer(property == .tagRating ? 4 : Int64(n))   // a rating is read back within 0–5 (StoredBounds)
            case .mediaType: item[property] = .integer(MediaType.musicVideo.rawValue)
            case .bool: item[property] = .bool(n % 2 == 0)
            case .real, .duration, .timestamp: item[property] = .real(Double(n) + 0.5)
            }
        }
        let id = try #require(try index.add([item]).first)
        let stored = try #require(try index.item(id: id))
        for property in MediaProperty.fileDerived {
            #expect(stored[property] == item[property], "\(property)")
        }
        #expect(stored.tags == item.tags)
        #expect(stored.persistentID == id)
        #expect(stored[.dateAdded] != nil)
        #expect(try index.item(path: MediaPath("/m/a.flac"))?.persistentID == id)
    }

    @Test func awkwardTagTextRoundTrips() throws {
        let index = try SQLiteIndex(inMemory: ())
        var item = sampleItem("/m/t.mp3", title: "T")
        item.tags = ["TITLE": "100% Pure \"Love\"", "PATH\\KEY": "a\\b", "LYRICS": "line 1\nline 2\r\n\tend",
                     "CONTROL": "bell\u{07}nul\u{01}", "ARTIST": "坂本龍一 · Björk 🎹", "EMPTY": ""]
        try index.add([item])
        #expect(try index.item(path: item.path)?.tags == item.tags)
    }

    @Test func nonUTF8PathsComeBackAsTheSameBytes() throws {
        let index = try SQLiteIndex(inMemory: ())
        let path = MediaPath(bytes: Array("/m/caf".utf8) + [0xE9, 0xFF] + Array(".mp3".utf8))
        #expect(!path.isUTF8)
        var item = sampleItem("/x", title: "Latin-1")
        item.path = path
        try index.add([item])
        let stored = try #require(try index.item(path: path))
        #expect(stored.path.bytes == path.bytes)
        #expect(try index.items(MediaQuery()).map(\.path) == [path])
    }

    @Test func updateRewritesFileDataButNeverUserData() throws {
        let index = try SQLiteIndex(inMemory: ())
        let id = try #require(try index.add([sampleItem("/m/a.mp3", title: "Old")]).first)
        try index.recordPlay(id: id, at: Date(timeIntervalSince1970: 1000))
        try index.setRating(id: id, 4)
        let added = try #require(try index.item(id: id))[.dateAdded]

        try index.apply([.update(id: id, sampleItem("/m/a.mp3", title: "New", size: 2000), stamp(2000), fingerprint: 9)])
        let item = try #require(try index.item(id: id))
        #expect(item.title == "New")
        #expect(item.fileSize == 2000)
        #expect(item.playCount == 1)
        #expect(item[.rating] == .integer(4))
        #expect(item[.lastPlayedDate] == .real(1000))
        #expect(item[.dateAdded] == added)
    }

    @Test func fullTextIndexFollowsInsertsUpdatesAndDeletes() throws {
        let index = try SQLiteIndex(inMemory: ())
        let ids = try index.add([sampleItem("/m/a.mp3", title: "Jóga"), sampleItem("/m/b.mp3", title: "Bachelorette", artist: "Sigur Rós")])
        #expect(try index.ftsMatches("joga") == [ids[0]])             // folded: case and diacritics
        #expect(try index.ftsMatches("artist: ros*") == [ids[1]])
        #expect(try index.ftsMatches("bjork") == [ids[0]])

        try index.apply([.update(id: ids[0], sampleItem("/m/a.mp3", title: "Hunter"), stamp(5), fingerprint: 1)])
        #expect(try index.ftsMatches("joga").isEmpty)
        #expect(try index.ftsMatches("hunter") == [ids[0]])

        try index.removeItems([ids[0]])
        #expect(try index.ftsMatches("hunter").isEmpty)
    }

    @Test func aFailedReadFlagsTheRowAndKeepsItsMetadata() throws {
        let index = try SQLiteIndex(inMemory: ())
        let id = try #require(try index.add([sampleItem("/m/a.mp3", title: "Good")]).first)
        try index.apply([.fail(MediaPath("/m/a.mp3"), stamp(3), code: "corrupt", message: "truncated"),
                         .fail(MediaPath("/m/new.mp3"), stamp(0), code: "empty", message: "empty file")])
        #expect(try index.item(id: id)?.title == "Good")
        #expect(try index.textRows("SELECT scan_failed FROM items WHERE id = ?", [id]) == [["1"]])
        let failures = try index.failures()
        #expect(failures.map(\.code) == ["corrupt", "empty"])
        #expect(failures[0].itemID == id)
        #expect(failures[1].itemID == nil)

        // Read fine again: the flag and the failure go.
        try index.apply([.update(id: id, sampleItem("/m/a.mp3", title: "Fixed"), stamp(4), fingerprint: 2),
                         .removeFailure(MediaPath("/m/new.mp3"))])
        #expect(try index.failures().isEmpty)
        #expect(try index.textRows("SELECT scan_failed FROM items WHERE id = ?", [id]) == [["0"]])
    }

    @Test func directoryStateAndIndexedDirectoriesStayInsideTheRoot() throws {
        let index = try SQLiteIndex(inMemory: ())
        try index.add([sampleItem("/m/a/1.mp3", title: "1"), sampleItem("/m/a/b/2.mp3", title: "2"),
                       sampleItem("/m0/3.mp3", title: "3"), sampleItem("/mm/4.mp3", title: "4")])
        try index.apply([.fail(MediaPath("/m/c/bad.mp3"), stamp(1), code: "empty", message: "e")])
        #expect(try index.indexedDirectories(under: MediaPath("/m")).map(\.string) == ["/m/a", "/m/a/b", "/m/c"])
        #expect(try index.itemCount(under: MediaPath("/m")) == 2)
        let state = try index.directoryState(MediaPath("/m/a"))
        #expect(state.items.keys.map(\.string) == ["/m/a/1.mp3"])
        #expect(state.items.values.first?.stamp == stamp(1000))
        #expect(try index.directoryState(MediaPath("/m/c")).failures.keys.map(\.string) == ["/m/c/bad.mp3"])
    }

    @Test func moveCandidatesComeFromTheWindowAndAFoldKeepsTheItem() throws {
        let index = try SQLiteIndex(inMemory: ())
        let oldID = try #require(try index.add([sampleItem("/m/old.mp3", title: "Song", size: 500)], fingerprint: 42).first)
        try index.recordPlay(id: oldID, at: Date())
        try index.createPlaylist(name: "Mix")
        try index.appendToPlaylist(name: "Mix", itemIDs: [oldID])
        let window = try index.currentGeneration()

        // The scan finds the file at a new path (a new row, in a new generation) and the old path gone.
        let newIDs = try index.add([sampleItem("/m/new/place.mp3", title: "Song", size: 500),
                                    sampleItem("/m/other.mp3", title: "Other", size: 500)], fingerprint: 42)
        let vanished = [VanishedItem(id: oldID, path: MediaPath("/m/old.mp3"), size: 500, fingerprint: 42, window: window)]
        let candidates = try index.moveCandidates(for: vanished, evidence: .content)
        #expect(Set(candidates.map(\.rowID)) == Set(newIDs))
        #expect(candidates.allSatisfy { $0.evidence == .content })
        // Outside the window (rows added before the root's last complete walk): no candidates.
        #expect(try index.moveCandidates(for: [VanishedItem(id: oldID, path: MediaPath("/m/old.mp3"), size: 500,
                                                            fingerprint: 42, window: window + 1)], evidence: .content).isEmpty)

        try index.fold([(item: oldID, row: newIDs[0])])
        let moved = try #require(try index.item(path: MediaPath("/m/new/place.mp3")))
        #expect(moved.persistentID == oldID)
        #expect(moved.playCount == 1)
        #expect(try index.playlistItems(name: "Mix").map(\.persistentID) == [oldID])
        #expect(try index.item(path: MediaPath("/m/old.mp3")) == nil)
        #expect(try index.item(id: newIDs[0]) == nil)
        #expect(try index.count(MediaQuery()) == 2)
    }

    @Test func statisticsAddUp() throws {
        let index = try SQLiteIndex(inMemory: ())
        var video = sampleItem("/m/v.mkv", title: "V", size: 5000)
        video.mediaType = .movie
        video[.container] = .text("matroska,webm")
        try index.add([sampleItem("/m/a.mp3", title: "A"), sampleItem("/m/b.mp3", title: "B"), video])
        try index.addRoot(MediaPath("/m"))
        let stats = try index.statistics()
        #expect(stats.items == 3)
        #expect(stats.totalSize == 7000)
        #expect(abs(stats.totalDuration - 3 * 241.5) < 1e-9)
        #expect(stats.byMediaType == [.init(name: "music", count: 2), .init(name: "movie", count: 1)])
        #expect(stats.byContainer == [.init(name: "mp3", count: 2), .init(name: "matroska,webm", count: 1)])
        #expect(stats.roots == [MediaPath("/m")])
    }

    @Test func forgettingANestedRootKeepsWhatTheOuterRootCovers() throws {
        let index = try SQLiteIndex(inMemory: ())
        try index.addRoot(MediaPath("/m"))
        try index.addRoot(MediaPath("/m/sub"))
        try index.add([sampleItem("/m/a.mp3", title: "A"), sampleItem("/m/sub/b.mp3", title: "B")])
        try index.removeRoot(MediaPath("/m/sub"))
        #expect(try index.roots() == [MediaPath("/m")])
        #expect(try index.count(MediaQuery()) == 2)

        // The other way round: forgetting the outer root keeps what the nested one holds.
        try index.addRoot(MediaPath("/m/sub"))
        try index.removeRoot(MediaPath("/m"))
        #expect(try index.items(MediaQuery()).map(\.path.string) == ["/m/sub/b.mp3"])
    }

    @Test func relocatingARootRewritesEveryPathAndKeepsIdentity() throws {
        let index = try SQLiteIndex(inMemory: ())
        try index.addRoot(MediaPath("/mnt/nas"))
        let ids = try index.add([sampleItem("/mnt/nas/a/1.mp3", title: "1"), sampleItem("/mnt/nasty/2.mp3", title: "2")])
        try index.setRating(id: ids[0], 5)
        try index.apply([.fail(MediaPath("/mnt/nas/bad.mp3"), stamp(1), code: "empty", message: "e")])
        try index.addRoot(MediaPath("/other"))
        #expect(throws: IndexError.self) { try index.relocateRoot(MediaPath("/mnt/nas"), to: MediaPath("/other/nas")) }

        try index.relocateRoot(MediaPath("/mnt/nas"), to: MediaPath("/media/nas"))
        #expect(try index.roots() == [MediaPath("/media/nas"), MediaPath("/other")])
        let item = try #require(try index.item(path: MediaPath("/media/nas/a/1.mp3")))
        #expect(item.persistentID == ids[0] && item[.rating]?.integer == 5)
        #expect(try index.directoryState(MediaPath("/media/nas/a")).items.count == 1)
        #expect(try index.failures().map(\.path.string) == ["/media/nas/bad.mp3"])
        #expect(try index.item(path: MediaPath("/mnt/nasty/2.mp3")) != nil)     // a sibling with the same prefix stays
    }

    @Test func rootsAreAddedOnceAndForgettingOneRemovesItsItems() throws {
        let index = try SQLiteIndex(inMemory: ())
        #expect(try index.addRoot(MediaPath("/m")))
        #expect(try index.addRoot(MediaPath("/m")) == false)
        try index.add([sampleItem("/m/a.mp3", title: "A"), sampleItem("/n/b.mp3", title: "B")])
        try index.removeRoot(MediaPath("/m"))
        #expect(try index.roots().isEmpty)
        #expect(try index.items(MediaQuery()).map(\.path.string) == ["/n/b.mp3"])
    }
}
