import Foundation
@testable import MediaIndex
@testable import SQLiteStore
import MediaModel
import MediaProbe
import PostgresTestServer
@testable import MediaScanner
import Testing

struct ScanTests {
    @Test func addsThenAnUnchangedRescanWritesNothing() async throws {
        let box = try Sandbox()
        try box.put("a.mp3", at: "Artist/Album/01 a.mp3")
        try box.put("b.flac", at: "Artist/Album/02 b.flac")
        try box.put("c.ogg", at: "Other/c.ogg")
        let first = try await box.scan()
        #expect(first.added == 3)
        #expect(first.failed == 0 && first.unchanged == 0)
        let index = try box.index()
        #expect(try index.items(MediaQuery()).compactMap(\.title).sorted() == ["Alpha", "Bravo", "Charlie"])
        let item = try #require(try index.item(path: MediaPath(box.music.path + "/Other/c.ogg")))
        #expect(item.fileSize > 0)
        #expect(item[.modificationDate] != nil)

        let before = fileStates(box.library)
        let version = try index.textRows("PRAGMA data_version")   // changes when another connection commits
        let again = try await box.scan()
        #expect(again == ScanSummary(unchanged: 3, elapsed: again.elapsed, filesPerSecond: again.filesPerSecond,
                                     completeRoots: [box.root()]))
        #expect(fileStates(box.library) == before)
        #expect(try index.textRows("PRAGMA data_version") == version)
    }

    @Test(arguments: Store.available) func aRetaggedFileIsReadAgainAndKeepsItsUserData(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        let path = try box.put("a.mp3", at: "a.mp3")
        try box.put("b.flac", at: "b.flac")
        try await box.scan()
        let index = try box.store()
        let id = try #require(try index.item(path: path)).persistentID
        try index.recordPlay(id: id, at: Date(timeIntervalSince1970: 100))
        try index.setRating(id: id, 3)

        try Templates.retag(path, title: "Alpha (Remastered)")
        let summary = try await box.scan()
        #expect(summary.updated == 1 && summary.unchanged == 1 && summary.added == 0)
        let item = try #require(try index.item(path: path))
        #expect(item.title == "Alpha (Remastered)")
        #expect(item.persistentID == id)
        #expect(item.playCount == 1)
        #expect(item[.rating] == .integer(3))
        #expect(try index.count(MediaQuery(filter: .search("remastered"))) == 1)

        try Templates.retag(path, title: "Omega")
        #expect(try await box.scan().updated == 1)
        #expect(try index.count(MediaQuery(filter: .search("remastered"))) == 0, "the old title is still indexed")
        #expect(try index.count(MediaQuery(filter: .search("omega"))) == 1)
        #expect(try itemsNotFoundByTitle(index).isEmpty)
    }

    @Test(arguments: Store.available) func aMovedFileKeepsItsIdentityPlaysAndPlaylistEntries(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        let old = try box.put("b.flac", at: "Zed/b.flac")     // walked after the new place: the move is seen late
        try box.put("c.ogg", at: "c.ogg")
        try await box.scan()
        let index = try box.store()
        let id = try #require(try index.item(path: old)).persistentID
        try index.recordPlay(id: id, at: Date())
        try index.createPlaylist(name: "Keep")
        try index.appendToPlaylist(name: "Keep", itemIDs: [id])

        let new = MediaPath(box.music.path + "/Alpha/renamed.flac")
        try FileManager.default.createDirectory(atPath: new.directory.string, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: old.string, toPath: new.string)
        let summary = try await box.scan()
        #expect(summary.moved == 1 && summary.added == 0 && summary.removed == 0 && summary.unchanged == 1)
        let moved = try #require(try index.item(path: new))
        #expect(moved.persistentID == id)
        #expect(moved.playCount == 1)
        #expect(try index.playlistItems(name: "Keep").map(\.path) == [new])
        #expect(try index.item(path: old) == nil)
        #expect(try index.count(MediaQuery()) == 2)
    }

    @Test(arguments: Store.available) func deletedFilesAndDirectoriesLeaveTheIndex(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        let a = try box.put("a.mp3", at: "keep/a.mp3")
        try box.put("b.flac", at: "gone/deep/b.flac")
        let c = try box.put("c.ogg", at: "keep/c.ogg")
        try await box.scan()
        let index = try box.store()
        try index.createPlaylist(name: "P")
        try index.appendToPlaylist(name: "P", itemIDs: [try #require(try index.item(path: c)).persistentID])

        try FileManager.default.removeItem(at: box.music.appendingPathComponent("gone"))
        try FileManager.default.removeItem(atPath: c.string)
        let summary = try await box.scan()
        #expect(summary.removed == 2 && summary.unchanged == 1)
        #expect(try index.items(MediaQuery()).map(\.path) == [a])
        #expect(try index.playlistItems(name: "P").isEmpty)
    }

    @Test(arguments: Store.available) func aMissingOrUnmountedRootRemovesNothing(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        try box.put("a.mp3", at: "a.mp3")
        try box.put("c.ogg", at: "sub/c.ogg")
        try await box.scan()
        let aside = box.url.appendingPathComponent("aside")

        // Gone altogether (a disk taken away with its mount point).
        try FileManager.default.moveItem(at: box.music, to: aside)
        var summary = try await box.scan()
        #expect(summary.missingRoots.map(\.path) == [box.root()])
        #expect(summary.removed == 0 && summary.hasProblems)
        #expect(try box.store().count(MediaQuery()) == 2)

        // An empty mount point (the disk is not mounted).
        try FileManager.default.createDirectory(at: box.music, withIntermediateDirectories: true)
        summary = try await box.scan()
        #expect(summary.missingRoots.first?.reason.contains("not mounted") == true)
        #expect(try box.store().count(MediaQuery()) == 2)

        // Back again: nothing to do.
        try FileManager.default.removeItem(at: box.music)
        try FileManager.default.moveItem(at: aside, to: box.music)
        summary = try await box.scan()
        #expect(summary.unchanged == 2 && !summary.hasProblems)
    }

    @Test func symlinkLoopsEndAndAFileReachedTwiceIsIndexedOnce() async throws {
        let box = try Sandbox()
        try box.put("a.mp3", at: "real/a.mp3")
        try box.put("c.ogg", at: "real/inner/c.ogg")
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: box.music.path + "/real/inner/loop", withDestinationPath: "..")
        try fm.createSymbolicLink(atPath: box.music.path + "/alias", withDestinationPath: "real")
        try fm.createSymbolicLink(atPath: box.music.path + "/real/link-to-a.mp3", withDestinationPath: "a.mp3")
        try fm.createSymbolicLink(atPath: box.music.path + "/dangling.flac", withDestinationPath: "/nonexistent/x.flac")
        // Outside the root, reached only through a link: followed.
        try fm.createDirectory(at: box.url.appendingPathComponent("elsewhere"), withIntermediateDirectories: true)
        try fm.copyItem(at: try Templates.url("d.mp3"), to: box.url.appendingPathComponent("elsewhere/d.mp3"))
        try fm.createSymbolicLink(atPath: box.music.path + "/outside", withDestinationPath: "../elsewhere")

        let summary = try await box.scan()
        let titles = try box.index().items(MediaQuery()).compactMap(\.title).sorted()
        #expect(titles == ["Alpha", "Charlie", "Delta"])
        #expect(summary.failures.map(\.code) == ["not-found"])          // the dangling link
        let again = try await box.scan()
        #expect(again.unchanged == 4 && again.added == 0 && again.removed == 0)
    }

    @Test(arguments: Store.available) func nonUTF8NamesAreStoredAndFoundByTheirBytes(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        let name: [UInt8] = Array("caf".utf8) + [0xE9, 0xFF] + Array(".mp3".utf8)    // Latin-1, invalid UTF-8
        let directory: [UInt8] = Array(box.music.path.utf8) + [UInt8(ascii: "/"), 0xC0, 0x80]
        MediaPath(bytes: directory).withCString { _ = mkdir($0, 0o755) }
        let path = MediaPath(bytes: directory + [UInt8(ascii: "/")] + name)
        let data = try Data(contentsOf: try Templates.url("a.mp3"))
        let fd = path.withCString { open($0, O_WRONLY | O_CREAT, 0o644) }
        try #require(fd >= 0)
        _ = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)

        let summary = try await box.scan()
        #expect(summary.added == 1 && summary.failed == 0)
        let item = try #require(try box.store().item(path: path))
        #expect(item.path.bytes == path.bytes)
        #expect(item.title == "Alpha")
        #expect(try await box.scan().unchanged == 1)
    }

    @Test(arguments: Store.available) func aFileThatTurnsCorruptKeepsItsMetadataAndIsFlagged(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        let path = try box.put("b.flac", at: "b.flac")
        try box.put("a.mp3", at: "a.mp3")
        try Data().write(to: box.music.appendingPathComponent("zero.mp3"))
        try Data("just text".utf8).write(to: box.music.appendingPathComponent("text.m4a"))
        var summary = try await box.scan()
        #expect(summary.added == 2)
        #expect(summary.failures.map(\.code).sorted() == ["empty", "not-media"])
        let index = try box.store()
        let id = try #require(try index.item(path: path)).persistentID

        let good = try Data(contentsOf: URL(fileURLWithPath: path.string))
        try Data(repeating: 0x55, count: 3000).write(to: URL(fileURLWithPath: path.string))
        summary = try await box.scan()
        #expect(summary.failed == 1 && summary.removed == 0)
        #expect(try index.item(path: path)?.title == "Bravo")
        #expect(try index.failures().first { $0.path == path }?.itemID == id)

        summary = try await box.scan()            // still bad, unchanged: nothing to do, nothing reported
        #expect(summary.failed == 0 && summary.unchanged == 4)

        try good.write(to: URL(fileURLWithPath: path.string))
        summary = try await box.scan()
        #expect(summary.updated == 1)
        #expect(try index.failures().map(\.path.lastComponent.string) == ["text.m4a", "zero.mp3"])
        #expect(try index.item(path: path)?.persistentID == id)

        try FileManager.default.removeItem(at: box.music.appendingPathComponent("zero.mp3"))
        try await box.scan()
        #expect(try index.failures().map(\.path.lastComponent.string) == ["text.m4a"])
    }

    @Test func hiddenAndNonMediaFilesAreSkippedAndBareNamesSniffed() async throws {
        let box = try Sandbox()
        try box.put("a.mp3", at: ".hidden.mp3")
        try box.put("a.mp3", at: ".git/x.mp3")
        try box.put("c.ogg", at: "notes.txt")
        try box.put("c.ogg", at: "cover.jpg")
        try box.put("d.mp3", at: "no-extension")
        try Data("plain".utf8).write(to: box.music.appendingPathComponent("README"))
        let summary = try await box.scan()
        #expect(summary.added == 1 && summary.failed == 0)
        #expect(try box.index().items(MediaQuery()).map(\.path.lastComponent.string) == ["no-extension"])
    }

    @Test func overlappingRootsAreWalkedOnce() async throws {
        let box = try Sandbox()
        try box.put("a.mp3", at: "a.mp3")
        try box.put("c.ogg", at: "sub/c.ogg")
        let sub = MediaPath(box.music.path + "/sub")
        let summary = try await box.scan([box.root(), sub])
        #expect(summary.added == 2)
        #expect(try await box.scan([sub, box.root()]).unchanged == 2)
        #expect(try box.index().count(MediaQuery()) == 2)
    }

    @Test(arguments: Store.available) func smallBatchesGiveTheSameIndexAsOneBigOne(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        for i in 0..<12 { try box.put(["a.mp3", "b.flac", "c.ogg"][i % 3], at: "d\(i % 4)/f\(i).\(["mp3", "flac", "ogg"][i % 3])") }
        let other = try Sandbox(store: store)
        try FileManager.default.removeItem(at: other.music)
        try FileManager.default.createSymbolicLink(at: other.music, withDestinationURL: box.music)
        try await box.scan(batchSize: 1)
        try await other.scan([box.root()], batchSize: 500)
        #expect(try snapshot(box.store()) == snapshot(other.store()), "batch size changed the index")
        #expect(try box.store().count(MediaQuery()) == 12)
        #expect(try itemsNotFoundByTitle(box.store()).isEmpty && itemsNotFoundByTitle(other.store()).isEmpty)
    }
}

/// A stop request must be obeyed while files are queued, not only between directories: here all files sit
/// in one directory, more than the scanner keeps in flight (16 chunks of 8 per core), so a stop after the
/// first chunks leaves the rest unread.
struct StopRequestTests {
    /// True from its `after`-th call on.
    final class Countdown: @unchecked Sendable {
        private let lock = NSLock()
        private var calls = 0
        private let after: Int
        init(after: Int) { self.after = after }
        func poll() -> Bool { lock.withLock { calls += 1; return calls >= after } }
    }

    @Test func aStopWithinOneDirectoryKeepsWholeBatchesAndTheNextScanFinishes() async throws {
        let box = try Sandbox()
        let total = 200
        for i in 0..<total { try box.put(["a.mp3", "b.flac", "c.ogg"][i % 3], at: "one/f\(i).\(["mp3", "flac", "ogg"][i % 3])") }
        let index = try box.index()
        try index.addRoot(box.root())
        let countdown = Countdown(after: 3)       // the walk's one poll, then one after each collected chunk
        let stopped = try await MediaScanner(index: index, width: 1, batchSize: 5, shouldStop: { countdown.poll() })
            .scan([box.root()])
        #expect(stopped.interrupted)
        let kept = try index.count(MediaQuery())
        #expect(kept > 0 && kept < total, "kept \(kept) of \(total)")
        #expect(try index.integrityCheck() == "ok")

        let finished = try await box.scan()
        #expect(!finished.interrupted && finished.unchanged == kept && finished.added == total - kept)
        #expect(try index.count(MediaQuery()) == total)
    }
}

/// A scan killed after committing a moved file's new row, but before pairing it with the old one, must not
/// cost the file its identity: the next complete scan still sees the move.
struct InterruptedMoveTests {
    @Test(arguments: Store.available) func aMoveBegunByAKilledScanIsFinishedByTheNext(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        let old = try box.put("b.flac", at: "Zed/b.flac")
        try box.put("c.ogg", at: "c.ogg")
        try await box.scan()
        let index = try box.store()
        let id = try #require(try index.item(path: old)).persistentID
        try index.recordPlay(id: id, at: Date())
        try index.setRating(id: id, 5)

        let new = MediaPath(box.music.path + "/Alpha/renamed.flac")
        try FileManager.default.createDirectory(atPath: new.directory.string, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: old.string, toPath: new.string)
        // What the killed scan had committed: the new path as a new row (its batch), no pairing yet.
        var st = stat()
        #expect(new.withCString { stat($0, &st) } == 0)
        let stamp = FileStamp(st)
        let item = try MediaProbe.probe(new, detail: .library).item
        try index.apply([.add(item, stamp, fingerprint: try #require(Fingerprint.of(new)))])
        #expect(try index.count(MediaQuery()) == 3)

        let summary = try await box.scan()
        #expect(summary.moved == 1 && summary.removed == 0)
        let moved = try #require(try index.item(path: new))
        #expect(moved.persistentID == id)
        #expect(moved.playCount == 1)
        #expect(moved[.rating]?.integer == 5)
        #expect(try index.count(MediaQuery()) == 2)
    }
}

/// The batch writer runs on its own thread: a failed batch must still reach the scan, and stop the writes.
struct BatchWriterTests {
    @Test func aFailedBatchIsReportedAndNothingAfterItIsWritten() throws {
        let index = try SQLiteIndex(inMemory: ())
        try index.write { db in try db.execute(sql: "DROP TABLE failures") }      // every batch below fails
        let writer = BatchWriter(index: index, depth: 1)
        try writer.write([.removeFailure(MediaPath("/music/a.mp3"))])
        #expect(throws: IndexError.self) { try writer.drain() }
        #expect(throws: IndexError.self) { try writer.write([.removeFailure(MediaPath("/music/b.mp3"))]) }
    }
}
