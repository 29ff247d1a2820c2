import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PostgresTestServer
import TestSupport
import Testing

/// Every method x every parameter with hostile values, as an authenticated user who is not an admin, on
/// both stores (Scripts/fuzz_requests.py, its quick run: one hostile value at a time, some 4,800
/// requests; Benchmarks/subsonic-fuzz.sh runs the full one). No crash, no 5xx, every JSON answer parses,
/// and the library opens afterwards for every front.
@Suite(.serialized, .enabled(if: ChildProcess.exists("ffmpeg") && ChildProcess.exists("mpc") && ChildProcess.exists("python3"),
                             "ffmpeg, mpc or python3 missing (scripts/install-deps.sh)"))
struct RequestFuzzTests {
    struct Summary: Decodable {
        var requests: Int
        var methods: Int
        var status: [String: Int]
        var failures: [[String: String]]
    }

    @Test(arguments: Store.available)
    func hostileValuesInEveryParameterOfEveryMethod(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        try #require(try mlib(["user", "add", "bob", "--password", "bobpass", "--library", library.library, "--key-file", library.keyFile]).status == 0)
        let server = try HTTPServeProcess(library: library)
        let script = Paths.repo.appendingPathComponent("Tests/SubsonicServerTests/Scripts/fuzz_requests.py").path
        let methods = Paths.repo.appendingPathComponent("Sources/SubsonicServer/SubsonicServer.swift").path
        let run = try ChildProcess.run("python3", [script, String(server.port), "bob", "bobpass", methods, "quick"])
        let summary = try JSONDecoder().decode(Summary.self, from: run.stdout)
        print("fuzz (\(store)): \(summary.requests) requests over \(summary.methods) methods, statuses \(summary.status)")
        #expect(summary.failures.isEmpty, "\(summary.failures.prefix(5))")
        #expect(summary.requests > 4000 && summary.methods >= 33)
        #expect(server.stop() == 0, "the server was still running and stops cleanly")

        // The library opens afterwards, and every front serves it.
        #expect(try mlib(["ls", "--library", library.library]).status == 0)
        let both = try BothServeProcess(library: library)
        defer { both.stop() }
        let ping = try await http("\(both.base)/ping?f=json&\(BothServeProcess.auth)")
        #expect(ping.status == 200 && String(decoding: ping.body, as: UTF8.self).contains("\"ok\""))
        #expect(try both.mpc(["listall"]).status == 0)
    }
}
