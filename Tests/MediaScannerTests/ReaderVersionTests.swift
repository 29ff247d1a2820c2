import Foundation
@testable import MediaIndex
@testable import SQLiteStore
@testable import PostgresStore
import MediaModel
import MediaProbe
import PostgresTestServer
@testable import MediaScanner
import Testing

/// Files an older mlib read are read again by the next scan, although they did not change: each item and
/// failure records the `MediaProbe.readerVersion` that read it. An older reader is simulated by what it
/// left: the facts it did not know (NULL) and no version.
struct ReaderVersionTests {
    /// Rewrites the library as an mlib before reader versions (and before partial reads and chapters) left it.
    static func forgetNewerFacts(_ store: any LibraryStore, failures: Bool = false) throws {
        var statements = [#"UPDATE items SET "isPartial" = NULL, "partialReason" = NULL, "chapterCount" = NULL, reader_version = NULL"#]
        if failures { statements.append("UPDATE failures SET reader_version = NULL") }
        if let sqlite = store as? SQLiteIndex {
            try sqlite.write { db in for sql in statements { try db.execute(sql: sql) } }
        } else {
            let postgres = try #require(store as? PostgresIndex)
            try postgres.session.run { s in for sql in statements { try s.execute(SQLStatement(raw: sql)) } }
        }
    }

    @discardableResult
    static func putFixture(_ box: Sandbox, _ name: String) throws -> MediaPath {
        let destination = box.music.appendingPathComponent((name as NSString).lastPathComponent)
        try FileManager.default.copyItem(atPath: FixturePaths.root + "/" + name, toPath: destination.path)
        return MediaPath(destination.path)
    }

    @Test(arguments: Store.available) func itemsReadByAnOlderReaderGainTheNewFactsAndKeepTheirUserData(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        let plain = try box.put("a.mp3", at: "a.mp3")
        let chapters = try Self.putFixture(box, "odd/mp3-chapters.mp3")
        let damaged = try Self.putFixture(box, "odd/ogg-bad-crc.ogg")
        #expect(try await box.scan().added == 3)
        let index = try box.store()
        let first = try [plain, chapters, damaged].map { try #require(try index.item(path: $0)) }
        #expect(first[1][.chapterCount] != nil && first[2][.isPartial] == .bool(true))
        let ids = first.map(\.persistentID)
        try index.recordPlay(id: ids[1], at: Date(timeIntervalSince1970: 100))
        try index.setRating(id: ids[2], 4)
        try index.createPlaylist(name: "Keep")
        try index.appendToPlaylist(name: "Keep", itemIDs: [ids[2], ids[0], ids[1]])

        try Self.forgetNewerFacts(index)
        #expect(try index.item(path: chapters)?[.chapterCount] == nil && index.item(path: damaged)?[.isPartial] == nil)
        let scanner = MediaScanner(index: index)
        #expect(try scanner.filesReadByAnOlderReader(in: [box.root()]) == 3)
        let summary = try await scanner.scan([box.root()])
        #expect(summary.reread == 3 && summary.updated == 0 && summary.added == 0 && summary.unchanged == 0
                && summary.removed == 0 && summary.moved == 0, "\(summary)")

        for (before, path) in zip(first, [plain, chapters, damaged]) {
            let item = try #require(try index.item(path: path))
            #expect(item.persistentID == before.persistentID)
            for p in [MediaProperty.isPartial, .partialReason, .chapterCount, .playbackDuration, .title] {
                #expect(item[p] == before[p], "\(path.lastComponent.string): \(p)")
            }
        }
        #expect(try index.item(path: chapters)?.playCount == 1)
        #expect(try index.item(path: damaged)?[.rating] == .integer(4))
        #expect(try index.playlistItems(name: "Keep").map(\.persistentID) == [ids[2], ids[0], ids[1]])

        #expect(try scanner.filesReadByAnOlderReader(in: [box.root()]) == 0)
        let again = try await scanner.scan([box.root()])
        #expect(again.unchanged == 3 && again.reread == 0, "\(again)")
    }

    /// Reader version 2 changed what the stored fingerprint and end hashes are (each end hashed once,
    /// `LaneHash`). A file renamed after the upgrade and before the first scan of version 2 keeps its item,
    /// its rating and its play count: the rename is found by its inode, size and mtime, not by the hashes
    /// the older reader stored (simulated here by values no file of version 2 hashes to).
    @Test func aFileRenamedBetweenTheUpgradeAndTheNextScanKeepsItsItem() async throws {
        let box = try Sandbox()
        let song = try Self.putFixture(box, "mp3-id3v24.mp3")
        try Self.putFixture(box, "flac-vorbis-cover.flac")
        #expect(try await box.scan().added == 2)
        let index = try box.store()
        let before = try #require(try index.item(path: song))
        try index.recordPlay(id: before.persistentID, at: Date(timeIntervalSince1970: 100))
        try index.setRating(id: before.persistentID, 5)
        let sqlite = try #require(index as? SQLiteIndex)
        try sqlite.write { db in
            try db.execute(sql: "UPDATE items SET reader_version = 1, fingerprint = ~fingerprint, head_hash = ~head_hash, tail_hash = ~tail_hash")
        }
        let renamed = MediaPath(box.music.appendingPathComponent("renamed.mp3").path)
        try FileManager.default.moveItem(atPath: song.string, toPath: renamed.string)
        let summary = try await MediaScanner(index: index).scan([box.root()])
        #expect(summary.added == 0 && summary.removed == 0 && summary.failed == 0, "\(summary)")
        #expect(try index.item(path: song) == nil)
        let after = try #require(try index.item(path: renamed))
        #expect(after.persistentID == before.persistentID)
        #expect(after[.rating] == .integer(5) && after.playCount == 1)
        // The rename moved the row as it was; the next scan reads it with this reader and keeps it too.
        let again = try await MediaScanner(index: index).scan([box.root()])
        #expect(again.added == 0 && again.removed == 0, "\(again)")
        #expect(try index.item(path: renamed)?.persistentID == before.persistentID)
        #expect(try MediaScanner(index: index).filesReadByAnOlderReader(in: [box.root()]) == 0)
    }

    /// A library of the previous release (mlib 0.1.0, as UpgradeTests uses it) whose files did not change
    /// since it scanned them: one scan reads them all again, in place, and they gain what 0.1.0 did not
    /// know (partial reads, file type); ids, ratings, play counts and playlist entries stay.
    @Test func aLibraryOfThePreviousReleaseGainsTheNewFactsWithNoFileChanged() async throws {
        let box = try Sandbox()
        try FileManager.default.copyItem(atPath: FixturePaths.root + "/libraries/mlib-0.1.0.sqlite", toPath: box.library)
        for file in UpgradeTests.files {
            let destination = box.music.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: FixturePaths.root + "/" + (file as NSString).lastPathComponent, toPath: destination.path)
        }
        let index = try box.index()
        try index.relocateRoot(UpgradeTests.oldRoot, to: box.root())
        // As 0.1.0 would have recorded these very files: their size, mtime and inode.
        try index.write { db in
            for file in UpgradeTests.files {
                let path = box.music.appendingPathComponent(file).path
                var st = stat()
                try #require(stat(path, &st) == 0)
                try db.execute(sql: """
                    UPDATE items SET fileSize = \(st.st_size), scan_mtime = \(Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)),
                        scan_inode = \(st.st_ino) WHERE path_text = '\(path)'
                    """)
            }
        }
        #expect(try index.item(path: MediaPath(box.music.path + "/Other/opus.opus"))?[.isPartial] == nil)
        let scanner = MediaScanner(index: index)
        #expect(try scanner.filesReadByAnOlderReader(in: [box.root()]) == UpgradeTests.files.count)
        let summary = try await scanner.scan([box.root()])
        #expect(summary.reread == UpgradeTests.files.count && summary.updated == 0 && summary.added == 0
                && summary.removed == 0 && summary.failed == 0, "\(summary)")
        for (offset, file) in UpgradeTests.files.enumerated() {
            let id = Int64(offset + 1)
            let item = try #require(try index.item(path: MediaPath(box.music.appendingPathComponent(file).path)), "\(file)")
            #expect(item.persistentID == id)
            #expect(item[.rating]?.integer == id % 5 + 1 && item.playCount == Int(id))
            #expect(item[.isPartial] == .bool(false) && item[.fileType] != nil, "\(file)")
        }
        #expect(try index.playlistItems(name: "Favourites").map(\.persistentID) == [3, 2, 1])
        #expect(try index.integrityCheck() == "ok")
        #expect(try await scanner.scan([box.root()]).unchanged == UpgradeTests.files.count)
    }

    /// A file an older reader refused (a format it did not know) is retried once by a newer reader, with
    /// the same bytes, size, mtime and inode; a refusal by the current reader is not.
    @Test(arguments: Store.available) func aFileAnOlderReaderRefusedIsReadByTheNewOne(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        let good = try Data(contentsOf: try Templates.url("a.mp3"))
        let path = box.music.appendingPathComponent("song.mp3")
        try Data(repeating: 0x5A, count: good.count).write(to: path)       // refused: not media
        let summary = try await box.scan()
        #expect(summary.failed == 1, "\(summary)")
        // The same file becomes readable without a change a scan could see (as a newer reader sees it).
        var st = stat()
        try #require(stat(path.path, &st) == 0)
        let handle = try FileHandle(forWritingTo: path)
        try handle.write(contentsOf: good)
        try handle.close()
        var times = [st.st_atim, st.st_mtim]
        try #require(utimensat(AT_FDCWD, path.path, &times, 0) == 0)

        let index = try box.store()
        #expect(try await box.scan().unchanged == 1, "a refusal by this reader is not retried")
        #expect(try index.item(path: MediaPath(path.path)) == nil)
        try Self.forgetNewerFacts(index, failures: true)
        #expect(try MediaScanner(index: index).filesReadByAnOlderReader(in: [box.root()]) == 1)
        let retried = try await box.scan()
        #expect(retried.added == 1 && retried.failed == 0, "\(retried)")
        #expect(try index.item(path: MediaPath(path.path))?.title == "Alpha")
        #expect(try index.failures().isEmpty)
    }

    /// A refusal recorded by an older reader that the new one refuses too is recorded again, silently, and
    /// not retried after that.
    @Test func aFileEveryReaderRefusesIsRetriedOnce() async throws {
        let box = try Sandbox()
        try Data(repeating: 0x5A, count: 4096).write(to: box.music.appendingPathComponent("noise.mp3"))
        #expect(try await box.scan().failed == 1)
        let index = try box.store()
        try Self.forgetNewerFacts(index, failures: true)
        #expect(try MediaScanner(index: index).filesReadByAnOlderReader(in: [box.root()]) == 1)
        let retried = try await box.scan()
        #expect(retried.failed == 0 && retried.unchanged == 1, "\(retried)")
        #expect(try MediaScanner(index: index).filesReadByAnOlderReader(in: [box.root()]) == 0)
        #expect(try index.failures().count == 1)
    }

    /// `mlib scan` says, once and before it starts, how many files it reads again.
    @Test func mlibScanSaysItReReadsFilesAnOlderMlibRead() throws {
        let box = try Sandbox()
        try box.put("a.mp3", at: "a.mp3")
        try box.put("b.flac", at: "b.flac")
        let first = try CLIScanTests.run(["scan", "--library", box.library, box.music.path])
        #expect(first.status == 0 && !first.stderr.contains("re-reading"), "\(first)")
        try Self.forgetNewerFacts(try box.index())
        let second = try CLIScanTests.run(["scan", "--library", box.library])
        #expect(second.status == 0)
        #expect(second.stderr.components(separatedBy: "re-reading 2 files read by an older mlib").count == 2, "\(second.stderr)")
        #expect(second.stdout.contains("0 updated, 2 re-read, 0 moved"), "\(second.stdout)")
        let third = try CLIScanTests.run(["scan", "--library", box.library])
        #expect(!third.stderr.contains("re-reading") && third.stdout.contains("2 unchanged"), "\(third)")
    }
}
