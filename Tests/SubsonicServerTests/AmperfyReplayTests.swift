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
        guard let summary = try replayClient("amperfy_client.py", server, as: Summary.self) else { return }
        #expect(Set(summary.errors.keys) == [], "errors: \(summary.errors)")
        let paths = try listedPaths(library)
        #expect(summary.tagSongs == paths)
        #expect(summary.folderSongs == paths.count)
        #expect(summary.streamed?.type == "audio/mpeg" && (summary.streamed?.bytes ?? 0) > 1000, "\(String(describing: summary.streamed))")
        #expect(summary.playlistSongs == 2)
        #expect(server.stop() == 0)
    }
}
