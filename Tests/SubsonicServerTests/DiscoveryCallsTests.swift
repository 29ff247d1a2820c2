import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// What clients show beside a song, an album or an artist, answered from the library with no internet:
/// `getArtistInfo(2)`, `getAlbumInfo(2)`, `getTopSongs`, `getSimilarSongs(2)` (of a song, and of a folder), `getNowPlaying`, on both
/// stores, over a planted library: Alpha and Beta play jazz in the 1960s, Gamma metal in 1990, Delta
/// jazz in 2020. Driven by `Scripts/discovery_client.py`, every answer validated against OpenSubsonic's
/// OpenAPI description.
@Suite(.serialized, .enabled(if: pythonClientInstalled && ChildProcess.exists("ffmpeg"),
                             "python3 with py-sonic and openapi-schema-validator, or ffmpeg, missing (scripts/install-deps.sh)"))
struct DiscoveryCallsTests {
    struct Summary: Decodable {
        var nowPlayingBefore: Int
        var similarArtists: [String]
        var similarArtistsV1: [String]
        var artistMusicBrainzId: String?
        var albumMusicBrainzId: String?
        var topSongs: [String]
        var getSimilarSongs2: [String]
        var getSimilarSongs: [String]
        var getSimilarSongsOfFolder: [String]
        var nowPlaying: [[String: String]]
    }

    static let albumMBID = "0e5b2a8c-2f2d-4a53-a8c5-8f1e7d6c5b4a", artistMBID = "5b11f4ce-a62d-471e-81fc-a69a8278c7da"

    /// Six songs of four artists in `library`'s music folder, not yet scanned: Alpha (three songs, with
    /// MusicBrainz ids) and Beta play jazz in the 1960s, Gamma metal in 1990, Delta jazz in 2020.
    static func plant(in library: TestLibrary) throws {
        let planted = library.music.appendingPathComponent("Planted")
        try FileManager.default.createDirectory(at: planted, withIntermediateDirectories: true)
        let songs: [(title: String, artist: String, album: String, genre: String, year: Int)] = [
            ("Alpha One", "Alpha", "Alpha Sessions", "Jazz", 1961), ("Alpha Two", "Alpha", "Alpha Sessions", "Jazz", 1961),
            ("Alpha Three", "Alpha", "Alpha Sessions", "Jazz", 1961), ("Beta One", "Beta", "Beta Blue", "Jazz", 1963),
            ("Gamma One", "Gamma", "Gamma Noise", "Metal", 1990), ("Delta One", "Delta", "Delta Now", "Jazz", 2020),
        ]
        for (n, song) in songs.enumerated() {
            // A folder an artist (as folder-mode clients browse), so that a folder id can seed similar songs.
            let folder = planted.appendingPathComponent(song.artist)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var metadata = ["title=\(song.title)", "artist=\(song.artist)", "album_artist=\(song.artist)", "album=\(song.album)",
                            "genre=\(song.genre)", "date=\(song.year)", "track=\(n + 1)"]
            if song.artist == "Alpha" { metadata += ["MusicBrainz Album Id=\(Self.albumMBID)", "MusicBrainz Album Artist Id=\(Self.artistMBID)"] }
            let made = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=\(300 + n * 50):d=1", "-c:a", "libmp3lame",
                                                       "-id3v2_version", "3"] + metadata.flatMap { ["-metadata", $0] }
                                                      + [folder.appendingPathComponent("\(n).mp3").path])
            guard made.status == 0 else { throw TestFailure("ffmpeg: \(made.stderr)") }
        }
    }

    @Test(arguments: Store.available)
    func infoTopAndSimilarComeFromTheLibrary(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        try Self.plant(in: library)
        #expect(try mlib(["scan", "-q", "--library", library.library, library.music.path]).status == 0)
        // Alpha Two is the most played, Alpha Three played less but rated: plays rank first.
        #expect(try mlib(["set", "plays=7", "title:\"Alpha Two\"", "--library", library.library]).status == 0)
        #expect(try mlib(["set", "plays=2", "rating=5", "title:\"Alpha Three\"", "--library", library.library]).status == 0)
        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }

        let run = try ChildProcess.run("python3", [Paths.repo.appendingPathComponent("Tests/SubsonicServerTests/Scripts/discovery_client.py").path,
                                                   String(server.port), TestLibrary.user, TestLibrary.password, Paths.openAPI.path])
        #expect(run.status == 0, "\(run.stderr)")
        guard run.status == 0 else { return }
        let summary = try JSONDecoder().decode(Summary.self, from: run.stdout)
        // Beta shares the genre and the decade, Delta only the genre; Gamma nothing.
        #expect(summary.similarArtists == ["Beta", "Delta"])
        #expect(summary.similarArtistsV1 == ["Beta", "Delta"])
        #expect(summary.artistMusicBrainzId == Self.artistMBID)
        #expect(summary.albumMusicBrainzId == Self.albumMBID)
        #expect(summary.topSongs == ["Alpha Two", "Alpha Three", "Alpha One"])
        // The seed's artist and the artists like them, the seed left out; never Gamma.
        for similar in [summary.getSimilarSongs2, summary.getSimilarSongs] {
            #expect(similar == ["Alpha Three", "Alpha Two", "Beta One", "Delta One"])
        }
        // Alpha's folder: its three songs are the seeds.
        #expect(summary.getSimilarSongsOfFolder == ["Beta One", "Delta One"])
        #expect(summary.nowPlayingBefore == 0)
        #expect(summary.nowPlaying == [["title": "Alpha One", "username": TestLibrary.user, "playerName": "Tempo"]])
        #expect(server.stop() == 0)
    }
}
