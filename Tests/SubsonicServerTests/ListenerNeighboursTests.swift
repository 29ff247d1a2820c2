import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PostgresTestServer
import TestSupport
import Testing

/// Two people share a library and listen differently: `getSimilarSongs2` gives each their own neighbours
/// from the listening history (`Recommendations`: songs played in the same sessions, the asker's own
/// sessions weighing most), on both stores. Over `DiscoveryCallsTests`' planted library: alice plays
/// Alpha One with Gamma One (metal, which nothing in the tags relates to Alpha), bob plays it with Delta One.
@Suite(.serialized, .enabled(if: ChildProcess.exists("ffmpeg"), "ffmpeg missing (scripts/install-deps.sh)"))
struct ListenerNeighboursTests {
    static let bob = "u=bob&p=bobpass&c=test&v=1.16.1"

    @Test(arguments: Store.available)
    func eachListenerGetsTheirOwnNeighbours(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        try DiscoveryCallsTests.plant(in: library)
        #expect(try mlib(["scan", "-q", "--library", library.library, library.music.path]).status == 0)
        try #require(try mlib(["user", "add", "bob", "--password", "bobpass", "--library", library.library, "--key-file", library.keyFile]).status == 0)
        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)/rest"

        func json(_ method: String, _ query: String, as auth: String) async throws -> [String: Any] {
            let answer = try await http("\(base)/\(method)?\(query)&f=json&\(auth)")
            let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
            let response = try #require(object?["subsonic-response"] as? [String: Any])
            guard response["status"] as? String == "ok" else { throw TestFailure("\(method): \(response)") }
            return response
        }
        let songs = try await json("search3", "query=&songCount=50", as: BothServeProcess.auth)
        let found = ((songs["searchResult3"] as? [String: Any])?["song"] as? [[String: Any]]) ?? []
        let id = Dictionary(found.compactMap { song in (song["title"] as? String).map { ($0, "\(song["id"]!)") } }, uniquingKeysWith: { a, _ in a })
        let (alpha, gamma, delta) = (try #require(id["Alpha One"]), try #require(id["Gamma One"]), try #require(id["Delta One"]))

        // Two sessions each, a day apart; within a session the songs are a minute apart.
        let start: Int64 = 1_780_000_000_000
        for day in Int64(0)..<2 {
            let at = start + day * 86_400_000
            for (song, auth, offset) in [(alpha, BothServeProcess.auth, Int64(0)), (gamma, BothServeProcess.auth, 60_000),
                                         (alpha, Self.bob, 3_600_000 * 5), (delta, Self.bob, 3_600_000 * 5 + 60_000)] {
                _ = try await json("scrobble", "id=\(song)&time=\(at + offset)&submission=true", as: auth)
            }
        }
        func similar(as auth: String) async throws -> [String] {
            let answer = try await json("getSimilarSongs2", "id=\(alpha)&count=10", as: auth)
            return ((answer["similarSongs2"] as? [String: Any])?["song"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        }
        let forAlice = try await similar(as: BothServeProcess.auth), forBob = try await similar(as: Self.bob)
        // Alice's own sessions put Gamma first; bob's put Delta first. The seed is never among them.
        #expect(forAlice.first == "Gamma One", "\(forAlice)")
        #expect(forBob.first == "Delta One", "\(forBob)")
        #expect(!forAlice.contains("Alpha One") && !forBob.contains("Alpha One"))
        // The rest still comes from the tags: Alpha's other songs and the jazz artists, for both.
        for list in [forAlice, forBob] {
            #expect(Set(list) == ["Gamma One", "Delta One", "Alpha Two", "Alpha Three", "Beta One"], "\(list)")
        }
        #expect(server.stop() == 0)
    }
}
