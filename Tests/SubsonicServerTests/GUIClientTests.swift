import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// Sublime Music's program, if installed.
let sublimeMusic: String? = {
    let candidates = [ProcessInfo.processInfo.environment["SUBLIME_MUSIC"], "/opt/sublime-music/bin/sublime-music"].compactMap { $0 }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
        ?? (ChildProcess.exists("sublime-music") ? "sublime-music" : nil)
}()

/// Why Sublime Music cannot run here, or nil.
let guiClientMissing: String? = {
    guard sublimeMusic != nil else { return "Sublime Music not installed (scripts/install-deps.sh puts it in /opt/sublime-music; or set SUBLIME_MUSIC)" }
    for tool in ["xvfb-run", "dbus-run-session", "gdbus", "import", "ffmpeg", "python3"] where !ChildProcess.exists(tool) {
        return "\(tool) missing (scripts/install-deps.sh: xvfb, dbus, imagemagick)"
    }
    return nil
}()

/// A real desktop client: Sublime Music 0.12 (GTK, PyPI), configured through its own config file to use
/// `mlib serve --http`, run under Xvfb with a session bus (`Scripts/sublime_music_gui.py`): it logs in and lists
/// every album the API lists, lists the playlists, plays one through mpv (into ALSA's null device), and the
/// server sees the song played (Sublime Music's scrobble after 5 s of play raises its play count); screenshots
/// of the album page and of the song playing are taken, and the last one is kept with `MLIB_GUI_EVIDENCE=1`
/// (Evidence/sublime-music-playing.png). Sublime Music is looked for in `SUBLIME_MUSIC`, then in
/// /opt/sublime-music (where scripts/install-deps.sh puts it: a venv over Debian's python3-gi), then on PATH.
@Suite(.serialized, .enabled(if: guiClientMissing == nil, "\(guiClientMissing ?? "")"))
struct GUIClientTests {
    struct Summary: Decodable {
        var apiAlbums: Int
        var clientAlbums: Int
        var playlists: [String]
        var activated: Bool
        var playsBefore: Int
        var playsAfter: Int
        var stillPlaying: Bool
        var screenshotAlbums: String
        var screenshotPlaying: String
        var clientErrors: [String]
        var coverMisses: Int
    }

    @Test func sublimeMusicLogsInListsAlbumsAndPlaysASong() async throws {
        let library = try TestLibrary(on: .sqlite)
        defer { library.remove() }
        // A song long enough for Sublime Music's scrobble (after 5 s of play); the script puts it in a playlist.
        let tone = library.music.appendingPathComponent("Tones/long-tone.flac")
        try FileManager.default.createDirectory(at: tone.deletingLastPathComponent(), withIntermediateDirectories: true)
        let made = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=440:d=30", "-c:a", "flac", "-metadata", "title=Long Tone",
                                                   "-metadata", "artist=Tone Band", "-metadata", "album=Tones", tone.path])
        try #require(made.status == 0, "\(made.stderr)")
        try #require(try mlib(["scan", "-q", "--library", library.library, library.music.path]).status == 0)
        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }
        let out = library.directory.appendingPathComponent("gui")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let started = Date()
        let run = try ChildProcess.run("xvfb-run", ["-a", "-s", "-screen 0 1280x800x24", "dbus-run-session", "--", "python3",
                                                    Paths.repo.appendingPathComponent("Tests/SubsonicServerTests/Scripts/sublime_music_gui.py").path,
                                                    sublimeMusic!, String(server.port), TestLibrary.user, TestLibrary.password, "Long Tone", out.path])
        let seconds = Date().timeIntervalSince(started)
        try #require(run.status == 0, "sublime_music_gui.py: \(run.stderr)")
        let summary = try JSONDecoder().decode(Summary.self, from: run.stdout)
        print(String(format: "Sublime Music under Xvfb: %.1f s; %d albums listed of %d; playlists %@; play count %d → %d; %d cover-art misses; %d errors of its own",
                     seconds, summary.clientAlbums, summary.apiAlbums, summary.playlists.joined(separator: ", "), summary.playsBefore,
                     summary.playsAfter, summary.coverMisses, summary.clientErrors.count))
        #expect(summary.apiAlbums > 0 && summary.clientAlbums == summary.apiAlbums, "albums: client \(summary.clientAlbums), API \(summary.apiAlbums)")
        #expect(summary.playlists.contains("Desktop"), "playlists seen: \(summary.playlists)")
        #expect(summary.activated, "the player never said Playing")
        #expect(summary.playsAfter == summary.playsBefore + 1, "play count \(summary.playsBefore) → \(summary.playsAfter)")
        // Sublime Music's own errors (cover-art temp files raced, its cache read with downloads off) are its
        // business, shown but not held against the server: what the server owes it is checked above.
        if !summary.clientErrors.isEmpty { print("Sublime Music logged: \(summary.clientErrors.joined(separator: "\n"))") }
        for shot in [summary.screenshotAlbums, summary.screenshotPlaying] {
            let size = (try? FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int) ?? 0
            #expect(size > 10_000, "screenshot \(shot): \(size) bytes")
        }
        if ProcessInfo.processInfo.environment["MLIB_GUI_EVIDENCE"] == "1" {
            let evidence = Paths.repo.appendingPathComponent("Tests/SubsonicServerTests/Evidence/sublime-music-playing.png")
            try FileManager.default.createDirectory(at: evidence.deletingLastPathComponent(), withIntermediateDirectories: true)
            let shrink = try ChildProcess.run("convert", [summary.screenshotPlaying, "-resize", "50%", "-colors", "64", evidence.path])
            #expect(shrink.status == 0, "\(shrink.stderr)")
        }
        #expect(server.stop() == 0)
    }
}
