import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PostgresTestServer
import TestSupport
import Testing

/// Playlists through the API belong to their users, as Navidrome has it (issue 37): bob, an ordinary user,
/// neither sees nor changes alice's private playlist; her public one he sees read-only; the library's own
/// (made with the CLI) everyone sees and only admins change. On both stores, against a real `mlib serve`.
@Suite(.serialized, .enabled(if: ChildProcess.exists("ffmpeg"), "ffmpeg missing (scripts/install-deps.sh)"))
struct PlaylistRightsTests {
    struct Answer {
        var code: Int?
        var message: String?
        var response: [String: Any]
        var text: String
    }

    /// One JSON call as `user` (alice: `TestLibrary`'s admin; the others' password is their name + "pass").
    static func call(_ server: HTTPServeProcess, _ user: String, _ method: String, _ query: String = "") async throws -> Answer {
        let auth = user == TestLibrary.user ? BothServeProcess.auth : "u=\(user)&p=\(user)pass&c=t&v=1.16.1"
        let answer = try await http("\(server.base)/\(method)?\(query)&f=json&\(auth)")
        let text = String(decoding: answer.body, as: UTF8.self)
        guard answer.status == 200, let object = try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any],
              let response = object["subsonic-response"] as? [String: Any] else { throw TestFailure("\(method): \(answer.status) \(text)") }
        let error = response["error"] as? [String: Any]
        return Answer(code: error?["code"] as? Int, message: error?["message"] as? String, response: response, text: text)
    }

    /// The playlists `user` lists: name → the playlist's attributes.
    static func listed(_ server: HTTPServeProcess, _ user: String) async throws -> [String: [String: Any]] {
        let answer = try await call(server, user, "getPlaylists")
        let list = ((answer.response["playlists"] as? [String: Any])?["playlist"] as? [[String: Any]]) ?? []
        var byName: [String: [String: Any]] = [:]
        for playlist in list { byName[playlist["name"] as? String ?? ""] = playlist }
        return byName
    }

    /// A playlist's name and entry ids, as `user` reads it.
    static func contents(_ server: HTTPServeProcess, _ user: String, _ id: String) async throws -> (name: String?, entries: [String]) {
        let playlist = try await call(server, user, "getPlaylist", "id=\(id)").response["playlist"] as? [String: Any]
        return (playlist?["name"] as? String, ((playlist?["entry"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String })
    }

    @Test(arguments: Store.available)
    func bobOnAlicesPrivatePlaylist(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        for user in ["bob", "carol"] {
            try #require(try mlib(["user", "add", user, "--password", "\(user)pass", "--library", library.library, "--key-file", library.keyFile]).status == 0)
        }
        // The library's own static playlist, made with the CLI.
        try #require(try mlib(["playlist", "create", "House", "--library", library.library]).status == 0)
        try #require(try mlib(["playlist", "add", "House", "--library", library.library, "fileSize > 0"]).status == 0)
        let songs = try HostileRequestTests.ids(library).sorted { $0.key < $1.key }.map(\.value)
        try #require(songs.count >= 3)
        let (a, b, c) = (songs[0], songs[1], songs[2])

        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }
        let alice = TestLibrary.user
        let made = try await Self.call(server, alice, "createPlaylist", "name=Secret&songId=\(a)&songId=\(b)")
        let playlist = try #require(made.response["playlist"] as? [String: Any], "\(made.text)")
        let id = try #require(playlist["id"] as? String)
        #expect(playlist["owner"] as? String == alice && playlist["public"] as? Bool == false, "a user's new playlist is theirs, private: \(made.text)")

        // bob: alice's private playlist is not listed, and every method answers as for an id never made.
        let bobs = try await Self.listed(server, "bob")
        #expect(bobs["Secret"] == nil, "bob lists alice's private playlist: \(bobs.keys.sorted())")
        #expect(bobs["House"] != nil && bobs[TestLibrary.smartPlaylist] != nil, "the library's playlists are everyone's to see: \(bobs.keys.sorted())")
        let never = try await Self.call(server, "bob", "getPlaylist", "id=987654")
        let attempts = [("getPlaylist", "id=\(id)"), ("updatePlaylist", "playlistId=\(id)&name=Mine"),
                        ("updatePlaylist", "playlistId=\(id)&songIdToAdd=\(c)"), ("updatePlaylist", "playlistId=\(id)&songIndexToRemove=0"),
                        ("updatePlaylist", "playlistId=\(id)&public=true"), ("createPlaylist", "playlistId=\(id)&songId=\(c)"),
                        ("deletePlaylist", "id=\(id)")]
        for (method, query) in attempts {
            let answer = try await Self.call(server, "bob", method, query)
            #expect(answer.code == 70 && answer.message == never.message?.replacingOccurrences(of: "987654", with: id),
                    "bob's \(method)?\(query) on alice's private playlist: \(answer.text)")
        }
        var now = try await Self.contents(server, alice, id)
        #expect(now.name == "Secret" && now.entries == [a, b], "alice's playlist is as she made it: \(now)")
        #expect(try await Self.listed(server, "carol")["Secret"] == nil, "nor does carol see it")

        // Public: bob sees it, read-only; changing it is refused (50) and leaves it as it was.
        #expect(try await Self.call(server, alice, "updatePlaylist", "playlistId=\(id)&public=true").code == nil)
        let shown = try #require(try await Self.listed(server, "bob")["Secret"])
        #expect(shown["owner"] as? String == alice && shown["public"] as? Bool == true && shown["readonly"] as? Bool == true, "\(shown)")
        #expect(try await Self.contents(server, "bob", id).entries == [a, b])
        for (method, query) in attempts.dropFirst() {
            let answer = try await Self.call(server, "bob", method, query)
            #expect(answer.code == 50, "bob's \(method)?\(query) on alice's public playlist: \(answer.text)")
        }
        now = try await Self.contents(server, alice, id)
        #expect(now.name == "Secret" && now.entries == [a, b], "alice's public playlist is as she made it: \(now)")

        // The library's playlist: read-only for bob, an admin changes it.
        let house = try #require(try await Self.listed(server, "bob")["House"]?["id"] as? String)
        #expect(try await Self.call(server, "bob", "updatePlaylist", "playlistId=\(house)&name=Bobs").code == 50)
        #expect(try await Self.call(server, "bob", "deletePlaylist", "id=\(house)").code == 50)
        #expect(try await Self.call(server, alice, "updatePlaylist", "playlistId=\(house)&songIdToAdd=\(c)").code == nil)

        // bob's own: made, changed and deleted by him; private, so carol does not see it, while alice, an
        // admin, does. A name in use (alice's "Secret") is refused without saying whose.
        let bobMade = try await Self.call(server, "bob", "createPlaylist", "name=Mine&songId=\(c)")
        let bobID = try #require((bobMade.response["playlist"] as? [String: Any])?["id"] as? String, "\(bobMade.text)")
        #expect(try await Self.listed(server, "carol")["Mine"] == nil)
        #expect(try await Self.listed(server, alice)["Mine"]?["owner"] as? String == "bob", "an admin sees every playlist")
        let taken = try await Self.call(server, "bob", "createPlaylist", "name=Secret")
        #expect(taken.code == 0 && taken.message?.contains(alice) == false, "\(taken.text)")
        #expect(try await Self.call(server, "bob", "updatePlaylist", "playlistId=\(bobID)&name=Mine2&songIdToAdd=\(a)").code == nil)
        let mine = try await Self.contents(server, "bob", bobID)
        #expect(mine.name == "Mine2" && mine.entries == [c, a], "\(mine)")
        #expect(try await Self.call(server, "bob", "deletePlaylist", "id=\(bobID)").code == nil)
        #expect(try await Self.call(server, "bob", "getPlaylist", "id=\(bobID)").code == 70)

        // alice's own actions on hers: rename, add, remove, replace, make private again, delete.
        #expect(try await Self.call(server, alice, "updatePlaylist", "playlistId=\(id)&name=Secret2&songIdToAdd=\(c)&songIndexToRemove=0&public=false").code == nil)
        now = try await Self.contents(server, alice, id)
        #expect(now.name == "Secret2" && now.entries == [b, c], "\(now)")
        #expect(try await Self.listed(server, "bob")["Secret2"] == nil, "private again")
        #expect(try await Self.call(server, alice, "createPlaylist", "playlistId=\(id)&songId=\(a)").code == nil)
        #expect(try await Self.contents(server, alice, id).entries == [a])

        // carol's private playlist outlives carol: the library's, still private (admins see it).
        #expect(try await Self.call(server, "carol", "createPlaylist", "name=Carols&songId=\(a)").code == nil)
        server.stop()
        try #require(try mlib(["user", "remove", "carol", "--library", library.library, "--key-file", library.keyFile]).status == 0)
        let listing = try mlib(["playlist", "list", "--json", "--library", library.library])
        let rows = try #require(try JSONSerialization.jsonObject(with: listing.stdout) as? [[String: Any]], "\(listing.stderr)")
        var byName: [String: [String: Any]] = [:]
        for row in rows { byName[row["name"] as? String ?? ""] = row }
        #expect(byName["Secret2"]?["owner"] as? String == alice && byName["Secret2"]?["public"] as? Bool == false, "\(rows)")
        #expect(byName["Carols"]?["owner"] is NSNull && byName["Carols"]?["public"] as? Bool == false, "\(rows)")
        #expect(byName["House"]?["owner"] is NSNull && byName["House"]?["public"] as? Bool == true, "\(rows)")
        let text = try mlib(["playlist", "list", "--library", library.library])
        let line = String(decoding: text.stdout, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("Secret2\t") }
        #expect(line?.contains("alice") == true && line?.contains("private") == true, "mlib playlist list names the owner: \(String(describing: line))")
    }
}
