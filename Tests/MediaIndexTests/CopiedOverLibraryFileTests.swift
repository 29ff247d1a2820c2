import Foundation
@testable import MediaIndex
@testable import SQLiteStore
import MediaModel
import Testing

/// Issue 47: a backup restored with `cp` over the library under a running process (`mlib serve`) keeps the
/// file's inode, so the check of `ReplacedLibraryFileTests` (another file at the library's path) does not see
/// it; the connection's write-ahead log, written against the old content, was then read into the restored
/// file by the next write or the next process (the restored library malformed, or holding the old writes).
/// A write now also checks SQLite's file change counter (offset 24 of the header): a backup (`VACUUM INTO`,
/// as the manual says) has a lower one than the library it was taken from, and a library's own counter never
/// goes down.
struct CopiedOverLibraryFileTests {
    @Test func aWriteAfterABackupWasCopiedOverTheLibraryIsRefusedAndTheCopyStaysWhole() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-copied-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("library.sqlite").path
        let backup = dir.appendingPathComponent("backup.sqlite").path
        do {
            let maker = try SQLiteIndex(path: path)
            try maker.createPlaylist(name: "Before")
        }
        let vacuum = try Process.run(URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: [path, "VACUUM INTO '\(backup)'"])
        vacuum.waitUntilExit()
        try #require(vacuum.terminationStatus == 0)

        let running = try SQLiteIndex(path: path, mode: .existing)      // `mlib serve`'s connection
        try running.createPlaylist(name: "While serving")
        var before = stat()
        try #require(stat(path, &before) == 0)
        let copy = try Process.run(URL(fileURLWithPath: "/bin/cp"), arguments: [backup, path])   // the backup restored over it
        copy.waitUntilExit()
        try #require(copy.terminationStatus == 0)
        var after = stat()
        try #require(stat(path, &after) == 0 && after.st_ino == before.st_ino, "cp made a new file: not the case tested")

        #expect(throws: IndexError.self) { try running.createPlaylist(name: "After the restore") }
        do {
            try running.createPlaylist(name: "After the restore")
        } catch {
            #expect("\(error)".contains("replaced"), "\(error)")
        }
        let reopened = try SQLiteIndex(path: path, mode: .existing)
        #expect(try reopened.integrityCheck() == "ok")
        #expect(try reopened.playlists().map(\.name).sorted() == ["Before"])
    }
}
