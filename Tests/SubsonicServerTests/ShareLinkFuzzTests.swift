import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PostgresTestServer
import TestSupport
import Testing

/// A share's public link (`/share/<id>`, `/share/<id>/<song id>`, no account) with hostile input
/// (`Tests/DLNAServerTests/Scripts/fuzz_dlna.py share`, as DLNAFuzzTests for the DLNA routes): hostile ids
/// in both places, Range edge cases, other methods, malformed HTTP. No crash, no 5xx, no song outside the
/// share, and no byte of a file outside the roots (a shared song's file swapped for a symlink to one).
@Suite(.serialized, .enabled(if: ChildProcess.exists("ffmpeg") && ChildProcess.exists("python3"), "ffmpeg or python3 missing (scripts/install-deps.sh)"))
struct ShareLinkFuzzTests {
    struct Summary: Decodable {
        var requests: Int
        var status: [String: Int]
        var failures: [[String: String]]
    }

    @Test(arguments: Store.available)
    func hostileRequestsOnAPublicLink(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }
        func call(_ method: String, _ query: String) async throws -> [String: Any] {
            let answer = try await http("\(server.base)/\(method)?f=json&\(BothServeProcess.auth)&\(query)")
            let json = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
            return try #require(json?["subsonic-response"] as? [String: Any])
        }
        let songs = try #require(((try await call("search3", "query=&songCount=10"))["searchResult3"] as? [String: Any])?["song"] as? [[String: Any]])
        func id(_ suffix: String) throws -> String {
            try #require(songs.first { ($0["path"] as? String)?.hasSuffix(suffix) == true }?["id"] as? String, "no \(suffix)")
        }
        let (flac, mp3, ogg) = (try id(".flac"), try id(".mp3"), try id(".ogg"))
        let made = try await call("createShare", "id=\(flac)&id=\(mp3)")
        let share = try #require(((made["shares"] as? [String: Any])?["share"] as? [[String: Any]])?.first?["url"] as? String)
        let shareID = try #require(share.split(separator: "/").last.map(String.init))
        // The shared mp3's file swapped for a symlink to a file outside the roots, holding the marker.
        let marker = "OUTSIDE-THE-ROOTS-\(UUID().uuidString)"
        let outside = library.directory.appendingPathComponent("outside.mp3")
        try Data(marker.utf8).write(to: outside)
        let shared = library.music.appendingPathComponent("Album1/mp3-id3v24.mp3")
        try FileManager.default.removeItem(at: shared)
        try FileManager.default.createSymbolicLink(at: shared, withDestinationURL: outside)

        let script = Paths.repo.appendingPathComponent("Tests/DLNAServerTests/Scripts/fuzz_dlna.py").path
        let run = try ChildProcess.run("python3", [script, "share", "http://127.0.0.1:\(server.port)", marker, shareID, flac, ogg, mp3])
        guard let summary = try? JSONDecoder().decode(Summary.self, from: run.stdout) else {
            Issue.record("the fuzzer stopped: \(run.stderr.suffix(3000)) \(run.out.suffix(2000))")
            return
        }
        print("share fuzz (\(store)): \(summary.requests) requests, statuses \(summary.status)")
        #expect(summary.failures.isEmpty, "\(summary.failures.prefix(8))")
        #expect(summary.requests > 250)
        #expect(server.stop() == 0, "the server was still running and stops cleanly")
    }
}
