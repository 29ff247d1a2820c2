import Foundation
import Testing
import TestSupport

/// Runs Tests/tmux/play-tmux.sh: `mlib play` on a tmux terminal, keys sent, screen read back.
/// The mlib binary is the one `swift test` built next to the test bundle.
@Suite("mlib play in tmux")
struct TmuxPlayTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../tmux/play-tmux.sh").standardizedFileURL.path
    static let mlib = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("mlib").path
    static let hasTmux = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].contains {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    @Test(.enabled(if: hasTmux, "tmux is not installed: skipping the terminal test of mlib play"),
          .enabled(if: FileManager.default.isExecutableFile(atPath: mlib), "no mlib binary next to the tests"))
    func statusLineUpdatesAndKeysAct() throws {
        let process = try SpawnedProcess("/bin/sh", [Self.script, Self.mlib], stdout: .pipe, stderr: .standardOutput)
        let text = String(decoding: process.readToEnd().stdout, as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(text)")
    }
}
