import Foundation
import Testing

/// ncmpcpp, a full-screen MPD client nobody here wrote, under tmux: browse the library, add an album
/// (a directory), play it, skip to the next song; the screen is read with capture-pane.
@Suite(.enabled(if: toolExists("ncmpcpp") && toolExists("tmux") && toolExists("ffmpeg"),
                "ncmpcpp, tmux or ffmpeg missing (scripts/install-deps.sh)"))
struct NcmpcppTests {
    @Test func browseAddPlayNext() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        let session = "mlib-ncmpcpp-\(getpid())"
        let home = library.directory.appendingPathComponent("home").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try #require(try run("tmux", ["new-session", "-d", "-s", session, "-x", "120", "-y", "35",
                                      "env HOME=\(home) TERM=xterm ncmpcpp -h 127.0.0.1 -p \(server.port)"]).status == 0)
        defer { _ = try? run("tmux", ["kill-session", "-t", session]) }

        func screen() throws -> String { try run("tmux", ["capture-pane", "-t", session, "-p"]).out }
        func keys(_ k: String...) throws { try run("tmux", ["send-keys", "-t", session] + k) }
        /// Waits (at most 10 s: CI runs other suites beside it) until the screen shows `text`.
        func waitFor(_ text: String) throws -> Bool {
            for _ in 0..<200 {
                if try screen().contains(text) { return true }
                usleep(50_000)
            }
            return false
        }

        #expect(try waitFor("Playlist (0 items"))
        try keys("2")                                   // the browser: the root's directories and songs
        #expect(try waitFor("[Album1]"))
        let browser = try screen()
        #expect(browser.contains("[Long]") && browser.contains("[Other]") && browser.contains("The Fixtures - Opus Song"))

        try keys("Home"); try keys("Down")              // [Long]
        try keys("Space")                               // add the directory (an album) to the queue
        #expect(try waitFor("Directory \"Long\" added"))
        try keys("1")
        #expect(try waitFor("Playlist (2 items"))
        let queue = try screen()
        #expect(queue.contains("Tone 1") && queue.contains("Tone 2") && queue.contains("Long Tones"))

        try keys("Home"); try keys("Enter")             // play the first song
        #expect(try waitFor("Playing: Sine Wave \"Long Tones\" - Tone 1"))
        try keys(">")                                   // next
        #expect(try waitFor("Playing: Sine Wave \"Long Tones\" - Tone 2"))
        #expect(try server.mpc(["status"]).out.contains("[playing] #2/2"))
    }
}
