import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// Issue 40: each logged-in user rates and plays for themself. Alice (the library's first account, its
/// owner) writes the items' own values, which the CLI reads; Bob's are his own, read back by getSong and
/// getAlbum, and still there after the server restarts (from the store, not the server's memory). Both stores.
@Suite(.serialized) struct PerUserValuesTests {
    static func auth(_ user: String, _ password: String) -> String {
        "u=\(user)&p=enc:\(Array(password.utf8).map { String(format: "%02x", $0) }.joined())&c=t&v=1.16.1&f=json"
    }

    static func call(_ server: HTTPServeProcess, _ method: String, _ query: String, as user: (String, String)) async throws -> [String: Any] {
        let answer = try await http("\(server.base)/\(method)?\(query)&\(auth(user.0, user.1))")
        let json = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
        let response = try #require(json["subsonic-response"] as? [String: Any])
        #expect(response["status"] as? String == "ok", "\(method) as \(user.0): \(String(decoding: answer.body, as: UTF8.self))")
        return response
    }

    @Test(arguments: Store.available) func twoUsersRateAndPlayApart(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let alice = (TestLibrary.user, TestLibrary.password), bob = ("bob", "bobpass")
        try #require(try mlib(["user", "add", "bob", "--password", "bobpass", "--library", library.library, "--key-file", library.keyFile]).status == 0)
        let id = try mlib(["ls", "-f", "$persistentID", "title:Opus", "--library", library.library]).out.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(Int64(id) != nil)

        var server = try HTTPServeProcess(library: library)
        _ = try await Self.call(server, "setRating", "id=\(id)&rating=5", as: alice)
        _ = try await Self.call(server, "scrobble", "id=\(id)&time=1700000000000", as: alice)
        _ = try await Self.call(server, "setRating", "id=\(id)&rating=2", as: bob)
        _ = try await Self.call(server, "scrobble", "id=\(id)&time=1700000100000", as: bob)
        _ = try await Self.call(server, "scrobble", "id=\(id)&time=1700000200000", as: bob)

        func song(_ user: (String, String)) async throws -> (rating: Int?, plays: Int?, played: String?) {
            let song = try #require(try await Self.call(server, "getSong", "id=\(id)", as: user)["song"] as? [String: Any])
            return (song["userRating"] as? Int, song["playCount"] as? Int, song["played"] as? String)
        }
        for round in ["written", "after a restart"] {
            let mine = try await song(alice), his = try await song(bob)
            #expect(mine.rating == 5 && mine.plays == 1 && mine.played == "2023-11-14T22:13:20Z", "\(round): alice \(mine)")
            #expect(his.rating == 2 && his.plays == 2 && his.played == "2023-11-14T22:16:40Z", "\(round): bob \(his)")
            server.stop()
            server = try HTTPServeProcess(library: library)
        }
        defer { server.stop() }
        // The smart playlist "Rated" (rating >= 3) is evaluated on each user's ratings.
        func rated(_ user: (String, String)) async throws -> [String] {
            let lists = try #require(try await Self.call(server, "getPlaylists", "", as: user)["playlists"] as? [String: Any])
            let id = try #require((lists["playlist"] as? [[String: Any]])?.first { $0["name"] as? String == TestLibrary.smartPlaylist }?["id"] as? String)
            let list = try #require(try await Self.call(server, "getPlaylist", "id=\(id)", as: user)["playlist"] as? [String: Any])
            return (list["entry"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        }
        #expect(try await rated(alice).contains(id))
        #expect(try await rated(bob).isEmpty, "Bob rated nothing 3 or more")
        // The owner's values are the items': what the CLI reads.
        #expect(try mlib(["ls", "-f", "$rating $playCount", "title:Opus", "--library", library.library]).out == "5 1\n")
        let history = try mlib(["history", "--json", "--library", library.library])
        let rows = try #require(try JSONSerialization.jsonObject(with: history.stdout) as? [[String: Any]])
        #expect(rows.map { $0["user"] as? String ?? "-" } == ["bob", "bob", "alice"])
    }
}
