import Foundation
@testable import MediaIndex
@testable import SQLiteStore
import MediaModel
import Testing

/// Issue 47: a library file replaced under a running process (`mlib serve`; a backup restored with `mv`)
/// was never noticed: writes went to the unlinked old database and its WAL, which sits beside the new file
/// under the same name, and the restored library was then malformed. A write now checks first that the
/// file at the library's path is still the one opened, and refuses with a clear message.
struct ReplacedLibraryFileTests {
    @Test func aWriteAfterTheLibraryFileWasReplacedIsRefusedAndTheNewFileStaysWhole() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-replaced-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("library.sqlite").path
        let backup = dir.appendingPathComponent("backup.sqlite").path
        do {
            let maker = try SQLiteIndex(path: path)
            try maker.createPlaylist(name: "Before")
        }
        // A backup taken as the manual says (one file, consistent), while no process has the library open.
        let vacuum = try Process.run(URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: [path, "VACUUM INTO '\(backup)'"])
        vacuum.waitUntilExit()
        try #require(vacuum.terminationStatus == 0)

        let running = try SQLiteIndex(path: path, mode: .existing)      // `mlib serve`'s connection
        try running.createPlaylist(name: "While serving")
        try #require(rename(backup, path) == 0)                          // the backup restored under it

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
