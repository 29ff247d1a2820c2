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
        let run = try ChildProcess.run("python3", [Paths.repo.appendingPathComponent("Tests/SubsonicServerTests/Scripts/feishin_client.py").path,
                                                   String(server.port), TestLibrary.user, TestLibrary.password, Paths.openAPI.path])
        #expect(run.status == 0, "\(run.stderr)")
        guard run.status == 0 else { return }
        let summary = try JSONDecoder().decode(Summary.self, from: run.stdout)
        #expect(Set(summary.errors.keys) == [], "errors: \(summary.errors)")
        let listed = try mlib(["ls", "--paths", "--library", library.library])
        let paths = listed.out.split(separator: "\n").map { String($0.dropFirst(library.music.path.count + 1)) }.sorted()
        #expect(summary.songs == paths)
        #expect(summary.albumSongs == paths.count)
        #expect(summary.starred == ["song": 1, "album": 1, "artist": 1], "\(String(describing: summary.starred))")
        #expect(summary.playlistSongs == 2)
        #expect(server.stop() == 0)
    }
}
