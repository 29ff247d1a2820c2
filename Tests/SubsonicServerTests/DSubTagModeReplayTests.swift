import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// A DSub session in tag (ID3) mode replayed (`Scripts/dsub_tag_client.py`: the calls and parameters of
/// DSub's own `RESTMusicService.java`, in XML as DSub asks, each read also validated in JSON against the
/// OpenSubsonic OpenAPI), on both stores: no error answers, and the songs the artists tab reaches are the
/// ones `mlib ls` lists. (DSub's folder mode: FolderModeClientTests.)
@Suite(.serialized, .enabled(if: pythonClientInstalled, "python3 with openapi-schema-validator missing (scripts/install-deps.sh)"))
struct DSubTagModeReplayTests {
    struct Summary: Decodable {
        struct Queue: Decodable { var count: Int; var currentMatches: Bool }
        var token: Bool
        var songs: [String]
        var albums: Int
        var cover: String?
        var streamed: Int?
        var queue: Queue?
        var starred: Int?
        var bookmarks: Int?
        var playlistSongs: Int?
        var shareSongs: Int?
        var shares: Int?
        var errors: [String: Int]
    }

    @Test(arguments: Store.available)
    func aDSubSessionInTagModeGetsNoErrors(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }
        guard let summary = try replayClient("dsub_tag_client.py", server, extra: [Paths.openAPI.path], as: Summary.self) else { return }
        #expect(summary.errors.isEmpty, "errors: \(summary.errors)")
        #expect(summary.token, "DSub moves to tokens once the server says 1.13 or later")
        let paths = try listedPaths(library)
        #expect(summary.songs == paths)
        #expect(summary.cover?.hasPrefix("image/") == true && (summary.streamed ?? 0) > 1000)
        #expect(summary.queue?.count == 4 && summary.queue?.currentMatches == true, "\(String(describing: summary.queue))")
        #expect(summary.starred == 2 && summary.bookmarks == 1 && summary.playlistSongs == 3)
        #expect((summary.shareSongs ?? 0) >= 1 && summary.shares == 1)
        #expect(server.stop() == 0)
    }
}
