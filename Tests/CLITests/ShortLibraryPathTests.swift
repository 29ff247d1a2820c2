import Foundation
import TestSupport
import Testing

/// Issue 47: a one-character relative library path (`--library L`, `MLIB_LIBRARY=A`) crashed every command
/// (SIGILL in Foundation's `deletingLastPathComponent`, from `SQLiteIndex.directory(of:)`, `ScanLock` and
/// `PasswordVault`). Paths are handled as paths: the library's folder is the working directory.
@Suite(.serialized) struct ShortLibraryPathTests {
    @Test func aOneCharacterLibraryPathWorksForEveryKindOfCommand() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-short-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("music"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent("mp3-id3v24.mp3"),
                                         to: dir.appendingPathComponent("music/a.mp3"))
        // A temporary HOME: nothing of the runner's own configuration is read or written.
        let home = ["HOME": dir.path, "XDG_CONFIG_HOME": dir.appendingPathComponent(".config").path]

        for (arguments, environment) in [(["--library", "L"], home), ([], home.merging(["MLIB_LIBRARY": "A"]) { $1 })] {
            let scan = try CLI.run(["scan", "music"] + arguments, environment: environment, cwd: dir)
            #expect(scan.status == 0, "scan \(arguments) \(environment): \(scan.status) \(scan.stderr)")
            let ls = try CLI.run(["ls", "--count"] + arguments, environment: environment, cwd: dir)
            #expect(ls.status == 0 && ls.out.trimmingCharacters(in: .whitespacesAndNewlines) == "1",
                    "ls \(arguments): \(ls.status) \(ls.out) \(ls.stderr)")
            let rate = try CLI.run(["rate", "artist:Кино", "4"] + arguments, environment: environment, cwd: dir)
            #expect(rate.status == 0, "rate \(arguments): \(rate.status) \(rate.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("L").path))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("A").path))
    }
}
