import Foundation
import TestSupport
import Testing

/// What a mistyped command line does (issue 39): it says what is wrong, with a caret under a query's
/// mistake, and makes nothing on the disk.
struct MistypedInputTests {
    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-mistyped-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// `mlib scan /nonexistent` with no library made an empty library (and said exit 1).
    @Test func scanningAMissingFolderMakesNoLibrary() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let library = dir.appendingPathComponent("library.sqlite").path
        let r = try CLI.run(["scan", "--library", library, dir.appendingPathComponent("nonexistent").path])
        #expect(r.status != 0)
        #expect(r.stderr.contains("nonexistent"), "\(r.stderr)")
        let made = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(made.isEmpty, "made: \(made)")
    }

    /// `--library /no/such/dir/lib.sqlite` made every folder on the way, silently.
    @Test func aLibraryInAMissingFolderIsRefused() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("music"), withIntermediateDirectories: true)
        let library = dir.appendingPathComponent("no/such/dir/lib.sqlite").path
        let r = try CLI.run(["scan", "--library", library, dir.appendingPathComponent("music").path])
        #expect(r.status != 0)
        #expect(r.stderr.contains("no folder"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("no").path))
        // An existing folder is fine.
        #expect(try CLI.run(["scan", "--library", dir.appendingPathComponent("lib.sqlite").path, dir.appendingPathComponent("music").path]).status == 0)
    }

    /// Query mistakes: each an error with a caret under it, never an empty answer.
    @Test func queryMistakesAreErrorsWithACaret() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("music"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent("opus.opus"), to: dir.appendingPathComponent("music/opus.opus"))
        let library = dir.appendingPathComponent("library.sqlite").path
        try #require(try CLI.run(["scan", "--quiet", "--library", library, dir.appendingPathComponent("music").path]).status == 0)
        for query in ["artist LIKES \"x\"", "(artist:kino", "artist:x)", "year:2000..1990"] {
            let r = try CLI.run(["ls", "--library", library, query])
            #expect(r.status == 2, "\(query): status \(r.status), \(r.stderr)")
            #expect(r.stderr.contains("^"), "\(query): no caret: \(r.stderr)")
        }
        let backwards = try CLI.run(["ls", "--library", library, "year:2000..1990"])
        #expect(backwards.stderr.contains("runs backwards"), "\(backwards.stderr)")
    }
}
