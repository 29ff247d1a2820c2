import Foundation
import Testing
import TestSupport

/// ncmpcpp, a full-screen MPD client nobody here wrote, under tmux against `mlib serve`: browse the
/// library, add an album (a directory), play it, skip to the next song; the screen is read with
/// capture-pane. The steps are Tests/tmux/ncmpcpp-tmux.sh.
@Suite(.enabled(if: toolExists("ncmpcpp") && toolExists("tmux") && toolExists("mpc") && toolExists("ffmpeg"),
                "ncmpcpp, tmux, mpc or ffmpeg missing (scripts/install-deps.sh)"))
struct NcmpcppTests {
    @Test func browseAddPlayNext() throws {
        // The script's output goes to a file, not a pipe: a tmux server started by the script inherits its
        // descriptors and may outlive it (another test's session), and a pipe would not end until it does.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("ncmpcpp-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let process = try SpawnedProcess("/bin/sh", [Paths.repo.appendingPathComponent("Tests/tmux/ncmpcpp-tmux.sh").path, Paths.mlib.path],
                                         stdout: .file(log.path), stderr: .standardOutput)
        process.waitUntilExit()
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("all checks passed"))
    }
}
