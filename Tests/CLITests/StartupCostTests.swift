import Foundation
import Testing
import TestSupport

/// What every command pays before doing its work (issue 41: `mlib lyrics` of one item under 20 ms, whole
/// process), seen in its system calls with strace.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"), "strace missing (scripts/install-deps.sh)"))
struct StartupCostTests {
    /// Every command first recovers interrupted tag writes (TagJournal); with nothing in the journal there
    /// is nothing to make durable, and it syncs nothing: the journal directory's fsync took 3.5 ms of a
    /// ~20 ms command under load.
    @Test func aCommandWithAnEmptyTagJournalSyncsNothing() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-startup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let journal = home.appendingPathComponent("share/mlib/tag-journal")
        try FileManager.default.createDirectory(at: journal, withIntermediateDirectories: true)
        let trace = home.appendingPathComponent("strace.out").path
        let r = try ChildProcess.run("/usr/bin/strace", ["-f", "-e", "trace=fsync,fdatasync,openat", "-o", trace, CLI.binary.path, "--version"],
                                     environment: ["HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("share").path,
                                                   "XDG_CONFIG_HOME": home.appendingPathComponent("config").path])
        #expect(r.status == 0, "\(r.stderr)")
        let calls = try String(contentsOfFile: trace, encoding: .utf8)
        // The journal was looked at (else this test would pass for the wrong reason), and nothing synced.
        #expect(calls.contains(journal.path), "\(calls)")
        let syncs = calls.split(separator: "\n").filter { $0.contains("fsync(") || $0.contains("fdatasync(") }
        #expect(syncs.isEmpty, "\(syncs)")
    }

    /// A command that reads the library opens its file once and looks at the tag journal once (issue 41):
    /// the not-a-library check ran on a connection of its own (open, WAL and -shm set up, closed: the
    /// whole SQLite start twice), and the journal was recovered by `MLib.main` and again by `Library.open`.
    @Test func aLibraryCommandOpensTheLibraryOnceAndTheJournalOnce() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-startup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let music = home.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent("flac-vorbis-cover.flac"), to: music.appendingPathComponent("song.flac"))
        let library = home.appendingPathComponent("library.sqlite").path
        let journal = home.appendingPathComponent("share/mlib/tag-journal").path
        let environment = ["HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("share").path,
                           "XDG_CONFIG_HOME": home.appendingPathComponent("config").path, "MLIB_LIBRARY": library]
        let scan = try CLI.run(["scan", "--quiet", music.path], environment: environment)
        #expect(scan.status == 0, "\(scan.stderr)")
        let trace = home.appendingPathComponent("strace.out").path
        let r = try ChildProcess.run("/usr/bin/strace", ["-f", "-e", "trace=openat", "-o", trace, CLI.binary.path, "lyrics", "title:nothing-has-this"],
                                     environment: environment)
        #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
        let opens = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        let libraryOpens = opens.filter { $0.contains("\"\(library)\"") }
        let journalOpens = opens.filter { $0.contains("\"\(journal)\"") }
        #expect(libraryOpens.count == 1, "\(libraryOpens)")
        #expect(journalOpens.count == 1, "\(journalOpens)")
    }
}
