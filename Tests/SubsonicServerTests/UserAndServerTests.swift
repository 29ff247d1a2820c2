import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Library
import MediaIndex
import PostgresTestServer
@testable import SubsonicServer
import TestSupport
import Testing

/// Users in the library (both stores) with sealed passwords, the `mlib user` command, and the server's
/// bounds: body limit, ids that are never paths, unknown methods, ids that survive a rescan and a rename.
@Suite(.serialized) struct UserAndServerTests {
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-subsonic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test(arguments: Store.available)
    func usersLiveInTheLibraryWithSealedPasswords(_ store: Store) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("users-key").path
        let library = Library(store: try store.emptyLibrary())
        let users = try Users(library: library, keyFile: keyFile, createKey: true)

        var info = stat()
        #expect(stat(keyFile, &info) == 0 && info.st_mode & 0o777 == 0o600, "the key file is made with mode 0600")
        let alice = try users.add(name: "alice", password: "sesame")
        #expect(throws: (any Error).self) { try users.add(name: "alice", password: "other") }
        let stored = try #require(try users.store.user(named: "alice"))
        #expect(stored.password.hasPrefix("aes-gcm:") && !stored.password.contains("sesame"), "no clear password in the library")
        #expect(try users.vault.open(stored.password) == "sesame")
        #expect(alice.apiKey?.count == 64)
        // The API key is stored as its SHA-256 hash (shown once, when made), and found by it.
        #expect(stored.apiKey == Users.storedAPIKey(alice.apiKey!) && stored.apiKey?.hasPrefix("sha256:") == true)
        #expect(try users.store.user(apiKey: alice.apiKey!) == nil, "the clear key is not in the library")
        let byKey = try users.store.user(apiKey: Users.storedAPIKey(alice.apiKey!))
        #expect(byKey?.name == "alice")

        // Token auth, as every client does it: t = md5(password + salt).
        func authenticates(_ query: String) -> Bool { (try? users.authenticate(Parameters(query: query))) != nil }
        #expect(authenticates("u=alice&t=d8b1e2b6e0e9ad9a1f1ba4f3b0f3a4a8&s=x") == false)
        #expect(authenticates("u=alice&t=\(md5("sesame" + "abc"))&s=abc"))
        #expect(authenticates("u=alice&p=enc:\(Array("sesame".utf8).map { String(format: "%02x", $0) }.joined())"))
        #expect(authenticates("apiKey=\(alice.apiKey!)"))

        // A key stored in clear (by an older mlib) is hashed when the users are next opened, and still works.
        let clearKey = String(repeating: "ab", count: 32)
        _ = try users.store.setAPIKey(of: "alice", to: clearKey)
        let reopened = try Users(library: library, keyFile: keyFile, createKey: false)
        #expect(try reopened.store.user(named: "alice")?.apiKey == Users.storedAPIKey(clearKey))
        #expect((try? reopened.authenticate(Parameters(query: "apiKey=\(clearKey)")))?.name == "alice")
        try users.setPassword(name: "alice", to: "new one")
        #expect(!authenticates("u=alice&p=sesame") && authenticates("u=alice&p=new%20one"))
        // Stars and the play queue are the user's, and leave with them.
        try users.store.star([UserStar(kind: .album, key: "al-1", starred: Date())], for: "alice")
        try users.store.star([UserStar(kind: .album, key: "al-1", starred: Date())], for: "alice")   // again: one star
        try users.store.savePlayQueue(SavedPlayQueue(itemIDs: [3, 1, 2], current: 1, position: 42, changed: Date(), changedBy: "t"), for: "alice")
        #expect(try users.store.stars(of: "alice").map(\.key) == ["al-1"])
        #expect(try users.store.playQueue(of: "alice")?.itemIDs == [3, 1, 2])
        try users.remove(name: "alice")
        #expect(try users.list().isEmpty)
        #expect(try users.store.stars(of: "alice").isEmpty)
        let queue = try users.store.playQueue(of: "alice")
        #expect(queue == nil)
        #expect(throws: UsersError.self) { try users.remove(name: "alice") }

        // A key file others can read is refused; another key cannot open the passwords.
        chmod(keyFile, 0o644)
        #expect(throws: UsersError.self) { try PasswordVault(keyFile: keyFile, create: false) }
        let other = try PasswordVault(keyFile: directory.appendingPathComponent("other-key").path, create: true)
        #expect(throws: (any Error).self) { try other.open(stored.password) }
    }

    @Test func theUserCommandAddsListsChangesAndRemoves() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = directory.appendingPathComponent("library.sqlite").path
        #expect(try mlib(["scan", "--library", library, "-q", directory.path]).status == 0)
        // The password from standard input (a line), as a script would give it.
        let add = try ChildProcess.run("/bin/sh", ["-c", "echo 'pass word' | '\(Paths.mlib.path)' user add bob --admin --library '\(library)'"])
        // The API key is printed once, and the library keeps only its hash.
        #expect(add.status == 0 && add.out.hasPrefix("added bob (admin)\napiKey=") && add.out.count == "added bob (admin)\napiKey=".count + 65,
                "\(add.out) \(add.stderr)")
        let shown = String(add.out.split(separator: "=").last!.dropLast())
        let dump = try ChildProcess.run("sqlite3", [library, "SELECT * FROM users"])
        #expect(dump.status == 0 && !dump.out.contains(shown) && dump.out.contains("sha256:"), "no API key in clear in the library: \(dump.out)")
        let reset = try mlib(["user", "key", "bob", "--reset", "--library", library])
        #expect(reset.status == 0 && reset.out.hasPrefix("apiKey=") && !reset.out.contains(shown), "a new key, shown once: \(reset.out) \(reset.stderr)")
        #expect(try mlib(["user", "key", "bob", "--library", library]).status != 0, "a stored key cannot be shown")
        var info = stat()
        #expect(stat(library + ".users-key", &info) == 0 && info.st_mode & 0o777 == 0o600, "the key file beside the library")
        #expect(stat(library, &info) == 0 && info.st_mode & 0o777 == 0o600, "the library file is made 0600: \(String(info.st_mode & 0o777, radix: 8))")
        #expect(try mlib(["user", "list", "--library", library]).out == "bob (admin, owner)\n", "the first account is the owner")
        #expect(try mlib(["user", "passwd", "bob", "--password", "other", "--library", library]).status == 0)
        #expect(try mlib(["user", "add", "bob", "--password", "x", "--library", library]).status == 1, "the name is taken")
        #expect(try mlib(["user", "remove", "carol", "--library", library]).status == 1, "no such user")
        #expect(try mlib(["user", "remove", "bob", "--library", library]).out == "removed bob\n")
        #expect(try mlib(["user", "list", "--library", library]).out == "")
        // A library named by a relative path: the key file beside it, in the current directory.
        // (A library of its own: the first one's key file exists already, and only making one failed.)
        #expect(try ChildProcess.run(Paths.mlib.path, ["scan", "--library", "fresh.sqlite", "-q", "."], cwd: directory).status == 0)
        let relative = try ChildProcess.run(Paths.mlib.path, ["user", "add", "carol", "--password", "x", "--library", "fresh.sqlite"],
                                            cwd: directory)
        #expect(relative.status == 0, "\(relative.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("fresh.sqlite.users-key").path))
    }

    /// A library's first account is an admin (a household's only account could otherwise manage nothing, and
    /// the API refuses to change `adminRole`), later ones only when asked; `mlib user admin` gives and takes
    /// the rights afterwards, on both stores, and says when no admin is left.
    @Test(arguments: Store.available)
    func theFirstAccountIsAnAdminAndTheRightsChangeLater(_ store: Store) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = try store.newLocator(sqlitePath: directory.appendingPathComponent("library.sqlite").path)
        let keyFile = directory.appendingPathComponent("users-key").path
        #expect(try mlib(["scan", "--library", library, "-q", directory.path]).status == 0)
        func add(_ name: String, _ flags: [String] = []) throws -> String {
            try mlib(["user", "add", name, "--password", "pw", "--library", library, "--key-file", keyFile] + flags).out
        }
        func list() throws -> String { try mlib(["user", "list", "--library", library]).out }
        #expect(try add("alice").hasPrefix("added alice (admin)\n"), "the first account is an admin")
        #expect(try add("bob").hasPrefix("added bob\n"), "a later one is not")
        #expect(try add("carol", ["--admin"]).hasPrefix("added carol (admin)\n"))
        #expect(try list() == "alice (admin, owner)\nbob\ncarol (admin)\n")

        let granted = try mlib(["user", "admin", "bob", "--library", library])
        #expect(granted.status == 0 && granted.out == "bob is an admin\n", "\(granted)")
        #expect(try list() == "alice (admin, owner)\nbob (admin)\ncarol (admin)\n")
        for name in ["alice", "carol"] {
            let revoked = try mlib(["user", "admin", name, "--revoke", "--library", library])
            #expect(revoked.status == 0 && revoked.out == "\(name) is no longer an admin\n"
                    && !revoked.stderr.contains("no admin"), "\(revoked)")
        }
        let last = try mlib(["user", "admin", "bob", "--revoke", "--library", library])
        #expect(last.status == 0 && last.stderr.contains("warning: the library has no admin now"), "\(last)")
        #expect(try list() == "alice (owner)\nbob\ncarol\n")
        let listed = try mlib(["user", "list", "--json", "--library", library])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [[String: Any]], "\(listed)")
        #expect(rows.map { $0["name"] as? String } == ["alice", "bob", "carol"])
        #expect(rows.map { $0["owner"] as? Bool } == [true, false, false] && rows.allSatisfy { $0["admin"] as? Bool == false })
        #expect(rows.allSatisfy { ($0["created"] as? String).flatMap { try? Date($0, strategy: .iso8601) } != nil }, "\(listed.out)")
        let nobody = try mlib(["user", "admin", "dave", "--library", library])
        #expect(nobody.status == 1 && nobody.stderr.contains("User \"dave\" not found"), "\(nobody)")

        // --no-admin keeps a first account ordinary.
        let other = try store.newLocator(sqlitePath: directory.appendingPathComponent("other.sqlite").path)
        #expect(try mlib(["scan", "--library", other, "-q", directory.path]).status == 0)
        let plain = try mlib(["user", "add", "erin", "--no-admin", "--password", "pw", "--library", other,
                              "--key-file", directory.appendingPathComponent("other-key").path])
        #expect(plain.status == 0 && plain.out.hasPrefix("added erin\n"), "\(plain)")
        #expect(try mlib(["user", "list", "--library", other]).out == "erin (owner)\n")
    }

    /// `--http` beside the MPD port: one process, one library, both protocols answer.
    @Test func theAPIRunsBesideTheMPDServer() async throws {
        let library = try TestLibrary()
        defer { library.remove() }
        // A library others can read (made by an older mlib, or chmodded) is served, with a warning.
        chmod(library.library, 0o644)
        let server = try BothServeProcess(library: library)
        defer { server.stop() }
        #expect(server.startLines.contains { $0.hasPrefix("mlib: warning: the library") && $0.hasSuffix("chmod 600 \(library.library)") },
                "\(server.startLines)")
        let ping = try await http("\(server.base)/ping?\(BothServeProcess.auth)")
        #expect(String(decoding: ping.body, as: UTF8.self).contains(#"status="ok""#))
        let mpd = try ChildProcess.run("python3", ["-c", "import socket; s = socket.create_connection(('127.0.0.1', \(server.mpdPort))); print(s.recv(64).decode().strip())"])
        #expect(mpd.out.hasPrefix("OK MPD "), "\(mpd)")
        #expect(server.stop() == 0, "both stop cleanly on SIGTERM")
    }

    @Test func theServerKeepsItsBoundsAndItsIDs() async throws {
        let library = try TestLibrary()
        defer { library.remove() }
        var configuration = SubsonicServerConfiguration()
        configuration.port = 0
        configuration.keyFile = library.keyFile
        configuration.maximumBodySize = 1024
        let server = try SubsonicServer(library: try Library.open(LibraryLocator(library.library)), configuration: configuration)
        try await server.start()
        let port = try #require(server.boundPort)
        let auth = "u=\(TestLibrary.user)&p=\(TestLibrary.password.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&f=json"
        let base = "http://127.0.0.1:\(port)/rest"
        func json(_ method: String, _ query: String = "") async throws -> [String: Any] {
            let answer = try await http("\(base)/\(method)?\(auth)&\(query)")
            #expect(answer.status == 200)
            let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
            return try #require(object?["subsonic-response"] as? [String: Any])
        }
        func errorCode(_ response: [String: Any]) -> Int? { (response["error"] as? [String: Any])?["code"] as? Int }

        // Ids are never paths: whatever a client sends, only the library's items are read.
        for id in ["../../../../etc/passwd", "/etc/passwd", "%2Fetc%2Fpasswd", "-1", "fo-../.."] {
            #expect(errorCode(try await json("getSong", "id=\(id)")) == 70)
            let stream = try await http("\(base)/stream?\(auth)&id=\(id)")
            #expect(stream.headers["content-type"]?.hasPrefix("application/json") == true, "\(id): an error envelope, not a file")
        }
        #expect(errorCode(try await json("noSuchMethod")) == 70)
        // A cover.jpg linked to a file outside the roots is not sent (the song's embedded picture is).
        try FileManager.default.createSymbolicLink(atPath: library.music.appendingPathComponent("Album1/cover.jpg").path,
                                                   withDestinationPath: "/etc/passwd")
        let found = try await json("search3", "query=&songCount=500&albumCount=0&artistCount=0")["searchResult3"] as? [String: Any]
        let flac = try #require((found?["song"] as? [[String: Any]])?.first { ($0["path"] as? String) == "Album1/flac-vorbis-cover.flac" })
        let cover = try await http("\(base)/getCoverArt?\(auth)&id=\(flac["id"] as! String)")
        let passwd = try Data(contentsOf: URL(fileURLWithPath: "/etc/passwd"))
        #expect(cover.status == 200 && cover.body != passwd && cover.headers["content-type"]?.hasPrefix("image/") == true)
        #expect(try await http("http://127.0.0.1:\(port)/elsewhere").status == 404)
        // A form POST over the body limit is refused; under it, its parameters count.
        let big = Data(repeating: UInt8(ascii: "a"), count: 4096)
        #expect(try await http("\(base)/ping", method: "POST", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: big).status == 413)
        let form = try await http("\(base)/ping", method: "POST", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                  body: Data(auth.utf8))
        #expect(String(decoding: form.body, as: UTF8.self).contains(#""status":"ok""#))

        // Ids survive a rename and a rescan: the song keeps its id, the album its derived one.
        func ids() async throws -> (songs: [String: String], albums: Set<String>) {
            let result = try await json("search3", "query=&songCount=500&albumCount=500&artistCount=0")["searchResult3"] as? [String: Any]
            let songs = (result?["song"] as? [[String: Any]] ?? []).map { ($0["id"] as! String, $0["title"] as! String) }
            let albums = (result?["album"] as? [[String: Any]] ?? []).map { $0["id"] as! String }
            return (Dictionary(uniqueKeysWithValues: songs), Set(albums))
        }
        let before = try await ids()
        try FileManager.default.moveItem(at: library.music.appendingPathComponent("Album1/mp3-id3v24.mp3"),
                                         to: library.music.appendingPathComponent("Other/renamed.mp3"))
        #expect(try mlib(["scan", "--library", library.library, "-q"]).status == 0)
        await server.view.refreshed(force: true)
        let after = try await ids()
        #expect(after.songs == before.songs && after.albums == before.albums)
        await server.stop()
    }
}

func md5(_ text: String) -> String {
    let run = try? ChildProcess.run("python3", ["-c", "import hashlib,sys; print(hashlib.md5(sys.argv[1].encode()).hexdigest())", text])
    return run?.out.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
}
