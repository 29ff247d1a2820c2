import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// `mlib serve --http` driven by a real Subsonic client library (py-sonic, form POSTs with token auth) and
/// raw HTTP, on SQLite and PostgreSQL: every JSON answer is validated against the OpenSubsonic OpenAPI
/// description (Fixtures/openapi), and what the API says is compared with what the mlib CLI says.
@Suite(.serialized, .enabled(if: pythonClientInstalled && ChildProcess.exists("ffmpeg"),
                             "python3 with py-sonic and openapi-schema-validator, or ffmpeg, missing (scripts/install-deps.sh)"))
struct SubsonicClientTests {
    struct Summary: Decodable {
        var songs: [String]
        var albums: [String]
        var artists: [String]
        var scrobbled: String
        var rated: String
        var smartEntries: [String]
        var covers: [String: String]
        var validated: [String]
        var phonePlaylist: [String]
    }

    @Test(arguments: Store.available)
    func aPhoneSyncsBrowsesPlaysStarsRatesAndKeepsPlaylists(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }
        // The key is shown only when made: a new one.
        let keys = try mlib(["user", "key", TestLibrary.user, "--reset", "--library", library.library, "--key-file", library.keyFile])
        let apiKey = keys.out.components(separatedBy: "apiKey=").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""

        let run = try ChildProcess.run("python3", [Paths.client.path, String(server.port), TestLibrary.user, TestLibrary.password,
                                                   library.music.path, Paths.openAPI.path, TestLibrary.smartPlaylist],
                                       environment: ["MLIB_TEST_API_KEY": apiKey])
        #expect(run.status == 0, "\(run.stderr)")
        guard run.status == 0 else { return }
        let summary = try JSONDecoder().decode(Summary.self, from: run.stdout)

        // The full sync lists exactly the library's items, by their ids.
        let listed = try itemIDs(["ls", "--json", "--library", library.library])
        #expect(Set(summary.songs) == Set(listed) && summary.songs.count == listed.count)
        #expect(summary.albums.count >= 3 && !summary.artists.isEmpty)
        // A smart playlist's entries, evaluated per request, equal `mlib playlist show` (after the rating
        // the client set, which puts one more song in it).
        #expect(summary.smartEntries == (try itemIDs(["playlist", "show", TestLibrary.smartPlaylist, "--json", "--library", library.library])))
        #expect(summary.smartEntries.contains(summary.rated))
        #expect(summary.phonePlaylist == (try itemIDs(["playlist", "show", "Phone mix", "--json", "--library", library.library])))
        // The scrobble and the rating are the library's own: the CLI sees them.
        let scrobbled = try mlib(["ls", "-f", "$playCount", "persistentID == \(summary.scrobbled)", "--library", library.library])
        #expect(scrobbled.out == "1\n")
        let rated = try mlib(["ls", "-f", "$rating", "persistentID == \(summary.rated)", "--library", library.library])
        #expect(rated.out == "4\n")
        // Covers: cover.jpg in the folder (JPEG), else the file's embedded picture.
        #expect(summary.covers["Other/ogg-vorbis.ogg"] == "ffd8ffe0")
        #expect(summary.covers["Album1/flac-vorbis-cover.flac"] != nil)
        // Scaled covers (size=8 of 32×32 cover.jpg, 16×16 embedded JPEG and PNG) were kept in the cache beside the key file.
        let cached = (try? FileManager.default.contentsOfDirectory(atPath: library.keyFile + ".covers")) ?? []
        #expect(cached.contains { $0.hasSuffix(".jpg") } && cached.contains { $0.hasSuffix(".png") }, "cached covers: \(cached)")
        for method in ["getArtists", "getAlbumList2", "search3", "getAlbum", "getIndexes", "getMusicDirectory", "getStarred2",
                       "getPlaylist", "getPlayQueue", "ping", "scrobble"] {
            #expect(summary.validated.contains(method), "\(method) validated against the OpenAPI description")
        }
        #expect(server.stop() == 0, "the server exits cleanly on SIGTERM")
    }

    private func itemIDs(_ arguments: [String]) throws -> [String] {
        let output = try mlib(arguments)
        guard output.status == 0, let items = try JSONSerialization.jsonObject(with: output.stdout) as? [[String: Any]] else {
            throw TestFailure("mlib \(arguments.joined(separator: " ")): \(output.stderr)")
        }
        return items.compactMap { ($0["persistentID"] as? NSNumber)?.stringValue }
    }
}
