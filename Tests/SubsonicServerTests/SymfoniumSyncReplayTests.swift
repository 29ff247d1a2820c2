import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// A Symfonium sync and a play replayed (`Scripts/symfonium_client.py`: Symfonium is closed source, so the
/// calls are those its requests show in servers' logs — search3 with the query `""` in pages of 500 of one
/// kind, `getBookmarks`, lyrics, now playing, a resume point, the play), every answer validated against
/// OpenSubsonic's OpenAPI, on both stores: no error answers (a failed call fails Symfonium's sync until the
/// user turns on its compatibility mode), and the sync sees every song `mlib ls` lists.
@Suite(.serialized, .enabled(if: pythonClientInstalled, "python3 with openapi-schema-validator missing (scripts/install-deps.sh)"))
struct SymfoniumSyncReplayTests {
    struct Summary: Decodable {
        var server: String?
        var artists: Int
        var albums: Int
        var songs: [String]
        var playlists: Int
        var bookmarks: Int?
        var playCount: Int?
        var errors: [String: Int]
    }

    @Test(arguments: Store.available)
    func aSymfoniumSyncGetsNoErrorsAndEverySong(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }
        guard let summary = try replayClient("symfonium_client.py", server, extra: [Paths.openAPI.path], as: Summary.self) else { return }
        #expect(summary.errors.isEmpty, "errors: \(summary.errors)")
        #expect(summary.songs == (try listedPaths(library)))
        #expect(summary.server == "mlib" && summary.artists > 0 && summary.albums > 0 && summary.playlists >= 1)
        #expect(summary.bookmarks == 1 && summary.playCount == 1, "bookmarks \(String(describing: summary.bookmarks)), plays \(String(describing: summary.playCount))")
        #expect(server.stop() == 0)
    }
}
