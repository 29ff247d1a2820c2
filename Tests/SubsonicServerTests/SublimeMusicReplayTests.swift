import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// A Sublime Music session replayed (`Scripts/sublime_client.py`: the calls and parameters of Sublime Music's
/// `adapters/subsonic/adapter.py`), every answer validated against OpenSubsonic's OpenAPI, on both stores:
/// no error answers, its album sync sees every song `mlib ls` lists, and its folder browsing every one in a folder.
@Suite(.serialized, .enabled(if: pythonClientInstalled, "python3 with openapi-schema-validator missing (scripts/install-deps.sh)"))
struct SublimeMusicReplayTests {
    struct Summary: Decodable {
        struct Queue: Decodable { var count: Int; var currentMatches: Bool; var position: Int? }
        struct Playlist: Decodable { var name: String?; var songsMatch: Bool }
        var version: String
        var albums: Int
        var songs: [String]
        var folderSongs: Int
        var cover: String?
        var downloaded: Bool?
        var streamed: Int?
        var queue: Queue?
        var playlist: Playlist?
        var errors: [String: Int]
    }

    @Test(arguments: Store.available)
    func aSublimeMusicSessionGetsNoErrors(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }
        guard let summary = try replayClient("sublime_client.py", server, extra: [Paths.openAPI.path], as: Summary.self) else { return }
        #expect(summary.errors.isEmpty, "errors: \(summary.errors)")
        #expect(summary.version == "1.16.1")
        let paths = try listedPaths(library)
        #expect(summary.songs == paths)
        // Sublime's `get_directory("root")` keeps only getIndexes' artists (folders), not its `child` songs: a song
        // directly in the music folder is not reached by its folder browsing (its album sync sees it).
        #expect(summary.folderSongs == paths.filter { $0.contains("/") }.count)
        #expect(summary.cover?.hasPrefix("image/") == true && summary.downloaded == true && (summary.streamed ?? 0) > 1000)
        #expect(summary.queue?.count == 4 && summary.queue?.currentMatches == true && summary.queue?.position == 75500,
                "\(String(describing: summary.queue))")
        #expect(summary.playlist?.name == "Sublime 2" && summary.playlist?.songsMatch == true, "\(String(describing: summary.playlist))")
        #expect(server.stop() == 0)
    }
}
