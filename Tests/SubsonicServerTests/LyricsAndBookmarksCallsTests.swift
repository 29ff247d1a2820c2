import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// Issue 41 through the API, on both stores, driven by `Scripts/lyrics_client.py` (py-sonic, and every
/// answer validated against the OpenSubsonic description): `getLyricsBySongId` gives every set the scan
/// stored with its lines' start times, `getLyrics` the preferred one by artist and title, `songLyrics` is
/// announced; bookmarks are created, moved and deleted per user and read back with their song.
@Suite(.serialized, .enabled(if: pythonClientInstalled && ChildProcess.exists("ffmpeg"),
                             "python3 with py-sonic and openapi-schema-validator, or ffmpeg, missing (scripts/install-deps.sh)"))
struct LyricsAndBookmarksCallsTests {
    @Test(arguments: Store.available)
    func lyricsAndBookmarksThroughTheAPI(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let song = library.music.appendingPathComponent("sung.flac")
        let made = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=440:d=4", "-metadata", "title=Sung Song",
                                                   "-metadata", "artist=Singer", "-metadata", "LYRICS=Plain words\nsecond line", song.path])
        #expect(made.status == 0, "\(made.stderr)")
        try Data("[la:eng]\n[00:00.50]First\n[00:01.75]Second\n".utf8).write(to: library.music.appendingPathComponent("sung.lrc"))
        #expect(try mlib(["scan", "-q", "--library", library.library, library.music.path]).status == 0)
        let id = try mlib(["ls", "-f", "$persistentID", "title:\"Sung Song\"", "--library", library.library]).out
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }

        let run = try ChildProcess.run("python3", [Paths.repo.appendingPathComponent("Tests/SubsonicServerTests/Scripts/lyrics_client.py").path,
                                                   String(server.port), TestLibrary.user, TestLibrary.password, Paths.openAPI.path, id,
                                                   "singer", "SUNG SONG"])
        #expect(run.status == 0, "\(run.stderr)")
        guard run.status == 0 else { return }
        let out = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        #expect((out["extensions"] as? [String])?.contains("songLyrics") == true)

        let sets = try #require(out["bySongId"] as? [[String: Any]])
        #expect(sets.count == 2, "\(sets)")
        let plain = sets.first { $0["synced"] as? Bool == false }, synced = sets.first { $0["synced"] as? Bool == true }
        #expect((plain?["line"] as? [[String: Any]])?.compactMap { $0["value"] as? String } == ["Plain words", "second line"])
        #expect(synced?["lang"] as? String == "eng" && synced?["offset"] as? Int == 0)
        #expect(synced?["displayTitle"] as? String == "Sung Song" && synced?["displayArtist"] as? String == "Singer")
        let lines = (synced?["line"] as? [[String: Any]]) ?? []
        #expect(lines.compactMap { $0["start"] as? Int } == [500, 1750] && lines.compactMap { $0["value"] as? String } == ["First", "Second"])

        // getLyrics: the preferred set (the synced sidecar), as text; folded matching; none for an unknown song.
        let byName = try #require(out["getLyrics"] as? [String: Any])
        #expect(byName["value"] as? String == "First\nSecond" && byName["title"] as? String == "Sung Song", "\(byName)")
        #expect((out["pysonicLyrics"] as? [String: Any])?["value"] as? String == "First\nSecond")
        #expect((out["unknownLyrics"] as? [String: Any])?["value"] as? String == "")

        let created = try #require((out["afterCreate"] as? [[String: Any]])?.first)
        #expect(created["position"] as? Int == 61500 && created["comment"] as? String == "chapter two")
        #expect(created["username"] as? String == TestLibrary.user && (created["entry"] as? [String: Any])?["id"] as? String == id)
        let moved = try #require((out["afterMove"] as? [[String: Any]]))
        #expect(moved.count == 1 && moved.first?["position"] as? Int == 62000 && moved.first?["comment"] == nil)
        #expect((out["afterDelete"] as? [[String: Any]])?.isEmpty == true)
    }
}
