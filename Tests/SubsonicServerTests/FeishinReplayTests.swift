import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// A Feishin session replayed (`Scripts/feishin_client.py`: the paths and queries of Feishin's own sources,
/// among them its "everything" lists, search3 of `""` in pages of 500), every answer validated against
/// OpenSubsonic's OpenAPI, on both stores: no error answers, and every song `mlib ls`
/// lists, once.
@Suite(.serialized, .enabled(if: pythonClientInstalled, "python3 with openapi-schema-validator missing (scripts/install-deps.sh)"))
struct FeishinReplayTests {
    struct Summary: Decodable {
        var songs: [String]
        var albums: Int
        var albumSongs: Int
        var starred: [String: Int]?
        var playlistSongs: Int?
        var errors: [String: Int]
    }

    @Test(arguments: Store.available)
    func aFeishinSessionListsEverySongOnce(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }
        guard let summary = try replayClient("feishin_client.py", server, extra: [Paths.openAPI.path], as: Summary.self) else { return }
        #expect(Set(summary.errors.keys) == [], "errors: \(summary.errors)")
        let paths = try listedPaths(library)
        #expect(summary.songs == paths)
        #expect(summary.albumSongs == paths.count)
        #expect(summary.starred == ["song": 1, "album": 1, "artist": 1], "\(String(describing: summary.starred))")
        #expect(summary.playlistSongs == 2)
        #expect(server.stop() == 0)
    }
}
