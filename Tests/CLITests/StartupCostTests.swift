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
}
