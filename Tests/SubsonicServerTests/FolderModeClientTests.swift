import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// A folder-browsing client (DSub's default mode: `getIndexes`/`getMusicDirectory`, `getAlbumList`,
/// `search2`, `getStarred`, the legacy `search`) against `mlib serve --http` on SQLite and PostgreSQL,
/// driven by `Scripts/folder_mode_client.py`, every answer validated against the OpenSubsonic OpenAPI
/// description and what it lists compared with `mlib ls`.
@Suite(.serialized, .enabled(if: pythonClientInstalled && ChildProcess.exists("ffmpeg"),
                             "python3 with py-sonic and openapi-schema-validator, or ffmpeg, missing (scripts/install-deps.sh)"))
struct FolderModeClientTests {
    struct Summary: Decodable {
        var lastModified: Int64
        var folderSongs: [String]
        var albums: Int
        var albumSongs: [String]
        var searchSongs: [String]
        var folded: [String: [String: [String]]]
        var artistAlbums: [String]
        var legacy: Legacy
        struct Legacy: Decodable {
            var totalHits: Int
            var matches: [String]
        }
    }

    @Test(arguments: Store.available)
    func dsubInFolderModeGetsNoErrorAndEverySong(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        // A song whose artist folds only by transliteration (ð → d), as `mlib ls` and MPD find it.
        let source = Paths.fixtures.appendingPathComponent("mp3-id3v24.mp3").path
        let icelandic = library.music.appendingPathComponent("Other/saman.mp3").path
        let tagged = try ChildProcess.run("ffmpeg", ["-v", "error", "-i", source, "-c", "copy", "-map_metadata", "-1",
                                                     "-metadata", "title=Saman", "-metadata", "artist=Hildur Guðnadóttir",
                                                     "-metadata", "album=Chernobyl", icelandic])
        #expect(tagged.status == 0, "\(tagged.stderr)")
        #expect(try mlib(["scan", "-q", "--library", library.library, library.music.path]).status == 0)
        let keys = try mlib(["user", "key", TestLibrary.user, "--reset", "--library", library.library, "--key-file", library.keyFile])
        let apiKey = keys.out.components(separatedBy: "apiKey=").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }

        let run = try ChildProcess.run("python3", [Paths.repo.appendingPathComponent("Tests/SubsonicServerTests/Scripts/folder_mode_client.py").path,
                                                   String(server.port), TestLibrary.user, TestLibrary.password, Paths.openAPI.path, apiKey])
        #expect(run.status == 0, "\(run.stderr)")
        guard run.status == 0 else { return }
        let summary = try JSONDecoder().decode(Summary.self, from: run.stdout)

        let listed = try mlib(["ls", "--json", "--library", library.library])
        let items = try #require(try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]])
        let ids = items.compactMap { ($0["persistentID"] as? NSNumber).map { String($0.int64Value) } }.sorted()
        #expect(summary.folderSongs == ids, "the folder tree holds every song once")
        #expect(summary.albumSongs == ids, "the albums of getAlbumList, opened, hold every song once")
        #expect(summary.searchSongs == ids, "search2 with an empty query lists every song")
        // Every song has a modification time: the index's lastModified is the newest (ms), never 0.
        let newest = items.compactMap { ($0["modificationDate"] as? NSNumber)?.doubleValue }.max()
        #expect(summary.lastModified > 0)
        if let newest { #expect(abs(Double(summary.lastModified) / 1000 - newest) < 1) }
        for method in ["search2", "search3"] {
            #expect(summary.folded[method]?["artist"] == ["Hildur Guðnadóttir"], "\(method) folds ð as d")
            #expect(summary.folded[method]?["album"] == ["Chernobyl"])
            #expect(summary.folded[method]?["song"] == ["Saman"])
        }
        #expect(summary.artistAlbums == ["Chernobyl"])
        #expect(summary.legacy.totalHits == 1 && summary.legacy.matches == ["Saman"])
        #expect(server.stop() == 0)
    }
}
