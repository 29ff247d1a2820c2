import Foundation
@testable import MediaIndex
import Library
import MediaModel
import MediaProbe
import PostgresTestServer
@testable import MediaScanner
import Testing
import TestSupport

/// Issue 47: evidence weaker than the content is no move when the same audio is another item's that is
/// still there, and a copy made before a retag written as a new file does not take the item from the file
/// the user kept. Each test failed before its change (see the commit that added it).
@Suite(.serialized) struct SharedAudioMoveTests {
    /// Formats whose tags ffmpeg writes at one end only, so that "the same audio" (one unchanged end) pairs.
    static let formats = ["mp3", "flac", "m4a"]

    static func cases() -> [(Store, String)] { Store.available.flatMap { store in formats.map { (store, $0) } } }

    /// A one-second tone in `format`, titled `title`, at `path`.
    static func source(_ path: String, format: String) throws {
        try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path,
                                                withIntermediateDirectories: true)
        let codec = format == "m4a" ? ["-c:a", "aac"] : []
        try Templates.ffmpeg(["-f", "lavfi", "-i", "sine=f=480:d=2", "-fflags", "+bitexact"] + codec
                             + ["-metadata", "title=Source", "-metadata", "artist=Test Artist", path])
    }

    /// `ffmpeg -i from -c copy -metadata title=… to`: the same audio bytes under another title.
    static func retaggedCopy(_ from: String, to: String, title: String) throws {
        try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: to).deletingLastPathComponent().path,
                                                withIntermediateDirectories: true)
        try Templates.ffmpeg(["-i", from, "-map", "0", "-c", "copy", "-metadata", "title=\(title)", to])
    }

    // Case 1 (the reproduction): two releases share their audio; one is deleted and a retagged copy
    // of the other appears elsewhere. The copy is no move of the deleted one: the other release still has
    // that audio, so the deleted song's rating goes to no file, and the scan names it as a possible move.
    @Test(arguments: cases())
    func aRetaggedCopyOfAnotherReleaseDoesNotTakeTheDeletedSong(_ store: Store, _ format: String) async throws {
        let box = try Sandbox(store: store)
        let src = box.path + "/src." + format
        try Self.source(src, format: format)
        let one = box.music.path + "/A/one." + format, two = box.music.path + "/B/two." + format
        try Self.retaggedCopy(src, to: one, title: "One")
        try Self.retaggedCopy(src, to: two, title: "Two")
        try await box.scan()
        let index = try box.store()
        let oneID = try #require(try index.item(path: MediaPath(one))).persistentID
        let twoID = try #require(try index.item(path: MediaPath(two))).persistentID
        try index.setRating(id: oneID, 5)
        try index.recordPlay(id: oneID, at: Date())

        try FileManager.default.removeItem(atPath: one)
        let three = box.music.path + "/C/three." + format
        try Self.retaggedCopy(two, to: three, title: "Three")
        let summary = try await box.scan()

        let copy = try #require(try index.item(path: MediaPath(three)))
        #expect(copy.persistentID != oneID && copy[.rating]?.integer == nil && copy.playCount == 0,
                "\(format): Three took One's item: \(summary)")
        #expect(summary.moved == 0 && summary.ambiguousMoves == [MediaPath(one)], "\(format): \(summary)")
        #expect(try index.item(path: MediaPath(two))?.persistentID == twoID)
    }

    // Case 1's other side: the same audio shared only with an exact copy of the vanished file itself is no
    // other recording: a backup copy of A does not stop A, retagged by a tagger writing a new file, from
    // keeping its item.
    @Test(arguments: Store.available)
    func aBackupCopyOfTheSameFileDoesNotMakeItsRetagAmbiguous(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        let a = try box.put("a.mp3", at: "A/a.mp3")
        let backup = box.music.path + "/Backup/a.mp3"
        try FileManager.default.createDirectory(atPath: box.music.path + "/Backup", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: a.string, toPath: backup)
        try await box.scan()
        let index = try box.store()
        let id = try #require(try index.item(path: a)).persistentID
        try index.setRating(id: id, 4)

        let renamed = box.music.path + "/A/a (Remaster).mp3"
        try Self.retaggedCopy(a.string, to: renamed, title: "Alpha (Remaster)")
        try FileManager.default.removeItem(atPath: a.string)
        let summary = try await box.scan()
        let item = try #require(try index.item(path: MediaPath(renamed)))
        #expect(item.persistentID == id && item[.rating]?.integer == 4, "\(summary)")
        #expect(summary.ambiguousMoves.isEmpty, "\(summary)")
    }

    // Case 2: a copy made before a retag and rename by a tagger that writes a new file. Both new files appear
    // in one scan; the copy has the old bytes, the file the user kept has the old audio under new tags. The
    // copy is the weaker claim: the item (rating, plays, playlist entry) stays with the retagged file.
    @Test(arguments: Store.available)
    func aCopyMadeBeforeARetagByNewFileDoesNotTakeTheItem(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        let a = try box.put("a.mp3", at: "Album/a.mp3")
        try box.put("b.flac", at: "Album/b.flac")
        try await box.scan()
        let index = try box.store()
        let id = try #require(try index.item(path: a)).persistentID
        try index.setRating(id: id, 5)
        try index.recordPlay(id: id, at: Date())

        let copy = box.music.path + "/Copies/a.mp3"
        try FileManager.default.createDirectory(atPath: box.music.path + "/Copies", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: a.string, toPath: copy)
        let kept = box.music.path + "/Album/01 Alpha (Live).mp3"
        try Self.retaggedCopy(a.string, to: kept, title: "Alpha (Live)")
        try FileManager.default.removeItem(atPath: a.string)
        let summary = try await box.scan()

        let item = try #require(try index.item(path: MediaPath(kept)))
        #expect(item.persistentID == id && item[.rating]?.integer == 5 && item.playCount == 1, "\(summary)")
        let other = try #require(try index.item(path: MediaPath(copy)))
        #expect(other.persistentID != id && other[.rating]?.integer == nil)
        #expect(try index.count(MediaQuery()) == 3)
    }

    // Case 2 as `mlib watch` sees it: the copy is indexed by a scan of its folder while the original is
    // still there, then the retag writes a new file: the copy found earlier is all the more a copy.
    @Test(arguments: Store.available)
    func aCopyIndexedBeforeTheRetagByNewFileDoesNotTakeTheItem(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        let a = try box.put("a.mp3", at: "Album/a.mp3")
        try await box.scan()
        let index = try box.store()
        let id = try #require(try index.item(path: a)).persistentID
        try index.setRating(id: id, 3)

        let copy = box.music.path + "/Copies/a.mp3"
        try FileManager.default.createDirectory(atPath: box.music.path + "/Copies", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: a.string, toPath: copy)
        _ = try await MediaScanner(index: index).scan([MediaPath(box.music.path + "/Copies")])
        let kept = box.music.path + "/Album/a (Live).mp3"
        try Self.retaggedCopy(a.string, to: kept, title: "Alpha (Live)")
        try FileManager.default.removeItem(atPath: a.string)
        let summary = try await MediaScanner(index: index).scan([MediaPath(box.music.path + "/Album")])
        try await box.scan()

        let item = try #require(try index.item(path: MediaPath(kept)))
        #expect(item.persistentID == id && item[.rating]?.integer == 3, "\(summary)")
        #expect(try index.item(path: MediaPath(copy))?.persistentID != id)
    }
}
