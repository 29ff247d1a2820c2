import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// OpenSubsonic's `reportPlayback` (playbackReport) on both stores: the server counts the time heard
/// between a client's reports and records a play by the library's rule at `stopped` — one play for a
/// song heard past half, none for a seek to the end, none with `ignoreScrobble` — and `getNowPlaying`
/// shows the timeline. Driven by `Scripts/playback_client.py` (answers validated against the OpenAPI
/// description).
@Suite(.serialized, .enabled(if: pythonClientInstalled && ChildProcess.exists("ffmpeg"),
                             "python3 with py-sonic and openapi-schema-validator, or ffmpeg, missing (scripts/install-deps.sh)"))
struct PlaybackReportTests {
    struct Summary: Decodable {
        var extensions: [String]
        var nowPlaying: NowPlaying
        var afterStop: Int
        struct NowPlaying: Decodable {
            var id: String
            var state: String?
            var positionMs: Int?
            var playerName: String?
            var username: String
        }
    }

    @Test(arguments: Store.available)
    func theServerCountsWhatWasHeard(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let song = library.music.appendingPathComponent("four-seconds.mp3")
        let made = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=440:d=4", "-c:a", "libmp3lame",
                                                   "-metadata", "title=Four Seconds", song.path])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try mlib(["scan", "-q", "--library", library.library, library.music.path]).status == 0)
        let id = try mlib(["ls", "-f", "$persistentID", "title:\"Four Seconds\"", "--library", library.library]).out
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }

        let run = try ChildProcess.run("python3", [Paths.repo.appendingPathComponent("Tests/SubsonicServerTests/Scripts/playback_client.py").path,
                                                   String(server.port), TestLibrary.user, TestLibrary.password, Paths.openAPI.path, id])
        #expect(run.status == 0, "\(run.stderr)")
        guard run.status == 0 else { return }
        let summary = try JSONDecoder().decode(Summary.self, from: run.stdout)
        #expect(summary.extensions.contains("playbackReport"))
        #expect(summary.nowPlaying.id == id && summary.nowPlaying.state == "playing" && summary.nowPlaying.playerName == "Naviamp")
        #expect(summary.nowPlaying.username == TestLibrary.user)
        // 1.3 s reported, then half a second more worked out by the server.
        if let position = summary.nowPlaying.positionMs { #expect((1600...2300).contains(position), "positionMs \(position)") }
        #expect(summary.afterStop == 0, "a stopped song leaves the board")
        #expect(server.stop() == 0)

        // One play (the first), by the user, from the Subsonic front; the other two counted nothing.
        let plays = try mlib(["ls", "-f", "$playCount $skipCount", "persistentID == \(id)", "--library", library.library])
        #expect(plays.out == "1 0\n", "\(plays.out) \(plays.stderr)")
        let history = try mlib(["history", "--json", "--library", library.library])
        let rows = try #require(try JSONSerialization.jsonObject(with: history.stdout) as? [[String: Any]], "\(history.stderr)")
        #expect(rows.count == 1)
        #expect(rows.first?["front"] as? String == "subsonic" && rows.first?["user"] as? String == TestLibrary.user)
        if let heard = rows.first?["heard"] as? Double { #expect(heard >= 2 && heard <= 3, "heard \(heard)") }
    }
}
