import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// An Ultrasonic session replayed (`Scripts/ultrasonic_client.py`: the calls and parameters of Ultrasonic's
/// own sources — the first call with an `enc:` password at API 1.7.0, then tokens at the version the server
/// reports; the folder and the ID3 browsers, both album-list families, search2 and search3, a stream resumed
/// by `Range`, favourites, playlists, shares, bookmarks, chat and the jukebox), every answer validated against
/// OpenSubsonic's OpenAPI, on both stores, against `mlib serve` with its player (Ultrasonic's jukebox mode
/// drives it): no error answers, and both browsers see every song `mlib ls` lists.
@Suite(.serialized, .enabled(if: pythonClientInstalled, "python3 with openapi-schema-validator missing (scripts/install-deps.sh)"))
struct UltrasonicReplayTests {
    struct Summary: Decodable {
        var licenseValid: Bool?
        var jukeboxRole: Bool?
        var folders: Int
        var folderSongs: [String]
        var artists: Int
        var albums: Int
        var songs: [String]
        var searchSongs: [Int]
        var resumed: Bool?
        var starredSongs: Int?
        var playlistSongs: Int?
        var shares: Int?
        var bookmarks: Int?
        var jukeboxIndex: Int?
        var chat: Int
        var avatar: Bool
        var errors: [String: Int]
    }

    @Test(arguments: Store.available)
    func anUltrasonicSessionGetsNoErrors(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let server = try BothServeProcess(library: library)
        defer { server.stop() }
        let run = try ChildProcess.run("python3", [Paths.repo.appendingPathComponent("Tests/SubsonicServerTests/Scripts/ultrasonic_client.py").path,
                                                   String(server.httpPort), TestLibrary.user, TestLibrary.password, Paths.openAPI.path])
        try #require(run.status == 0, "ultrasonic_client.py: \(run.stderr)")
        let summary = try JSONDecoder().decode(Summary.self, from: run.stdout)
        #expect(summary.errors.isEmpty, "errors: \(summary.errors)")
        let paths = try listedPaths(library)
        #expect(summary.folderSongs == paths, "the folder browser")
        #expect(summary.songs == paths, "the ID3 browser")
        #expect(summary.licenseValid == true && summary.jukeboxRole == true && summary.folders == 1)
        #expect(summary.searchSongs.allSatisfy { $0 > 0 }, "search2 and search3 found the first song's word: \(summary.searchSongs)")
        #expect(summary.resumed == true, "a stream resumed from byte 1000 is 206 with the rest of the file")
        #expect(summary.starredSongs == 1 && summary.playlistSongs == 3 && summary.shares == 1 && summary.bookmarks == 1)
        #expect(summary.jukeboxIndex == 1, "the jukebox skipped to the second song")
        #expect(summary.chat == 1 && summary.avatar)
        #expect(server.stop() == 0)
    }
}
