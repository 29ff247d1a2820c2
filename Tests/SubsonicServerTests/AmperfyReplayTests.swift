import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// An Amperfy session replayed in XML (`Scripts/amperfy_client.py`: the actions and parameters of Amperfy's
/// SubsonicServerApi.swift), on both stores: both of its syncs (folders, tags) see every song `mlib ls`
/// lists, a playlist edit by index, an MP3 stream, and no error answers.
@Suite(.serialized, .enabled(if: ChildProcess.exists("python3"), "python3 missing"))
struct AmperfyReplayTests {
    struct Summary: Decodable {
        struct Stream: Decodable { var type: String; var bytes: Int }
        var folderSongs: Int
        var tagSongs: [String]
        var albums: Int
        var streamed: Stream?
        var playlistSongs: Int?
        var errors: [String: Int]
    }

    @Test(arguments: Store.available)
    func anAmperfySessionInXMLGetsNoErrors(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }
        let run = try ChildProcess.run("python3", [Paths.repo.appendingPathComponent("Tests/SubsonicServerTests/Scripts/amperfy_client.py").path,
                                                   String(server.port), TestLibrary.user, TestLibrary.password])
        #expect(run.status == 0, "\(run.stderr)")
        guard run.status == 0 else { return }
        let summary = try JSONDecoder().decode(Summary.self, from: run.stdout)
        #expect(Set(summary.errors.keys) == [], "errors: \(summary.errors)")
        let listed = try mlib(["ls", "--paths", "--library", library.library])
        let paths = listed.out.split(separator: "\n").map { String($0.dropFirst(library.music.path.count + 1)) }.sorted()
        #expect(summary.tagSongs == paths)
        #expect(summary.folderSongs == paths.count)
        #expect(summary.streamed?.type == "audio/mpeg" && (summary.streamed?.bytes ?? 0) > 1000, "\(String(describing: summary.streamed))")
        #expect(summary.playlistSongs == 2)
        #expect(server.stop() == 0)
    }
}
