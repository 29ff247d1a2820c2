import Foundation
import PostgresTestServer
import Testing
import TestSupport

/// Issue 40: MPD's `password user:secret` (mpd's per-password permissions) logs a connection in as a user
/// of the library: its stickers are that user's ratings and plays, and the player records that user's plays
/// when that connection started playback. With mpc, on both stores; alice (the first account) is the owner.
@Suite(.enabled(if: toolExists("mpc") && toolExists("ffmpeg"), "mpc or ffmpeg missing (scripts/install-deps.sh)"))
struct UserPasswordTests {
    @Test(arguments: Store.available) func aUsersPasswordActsAsThatUser(_ store: Store) throws {
        let library = try TestLibrary(library: store == .sqlite ? nil : try store.newLocator(sqlitePath: ""))
        defer { library.remove() }
        let keyFile = library.directory.appendingPathComponent("users-key").path
        func mlib(_ arguments: [String]) throws -> String {
            let r = try run(Paths.mlib.path, arguments + ["--library", library.library])
            guard r.status == 0 else { throw TestFailure("mlib \(arguments.joined(separator: " ")): \(r.err)") }
            return r.out
        }
        _ = try mlib(["user", "add", "alice", "--password", "a", "--key-file", keyFile])
        _ = try mlib(["user", "add", "bob", "--password", "b", "--key-file", keyFile])
        let server = try ServeProcess(library: library.library, extra: ["--key-file", keyFile, "--record-plays"])
        defer { server.stop() }
        let song = "opus.opus"

        #expect(try server.mpc(["sticker", song, "set", "rating", "5"]).status == 0)
        #expect(try server.mpc(["-P", "bob:b", "sticker", song, "set", "rating", "2"]).status == 0)
        #expect(try server.mpc(["-P", "bob:b", "sticker", song, "get", "rating"]).out == "rating=2\n")
        #expect(try server.mpc(["sticker", song, "get", "rating"]).out == "rating=5\n", "without a user: the owner's")
        #expect(try server.mpc(["-P", "alice:a", "sticker", song, "get", "rating"]).out == "rating=5\n", "alice is the owner")
        #expect(try server.mpc(["-P", "bob:wrong", "sticker", song, "get", "rating"]).status != 0, "a wrong password is refused")
        #expect(try server.mpc(["-P", "carol:b", "status"]).status != 0, "so is an unknown user")
        #expect(try mlib(["ls", "-f", "$rating", "title:Opus", "--user", "bob"]) == "2\n")
        // A smart playlist is evaluated on the connection's user's ratings.
        _ = try mlib(["playlist", "smart", "Loved", "rating >= 4"])
        let owners = try server.mpc(["-f", "%file%", "playlist", "Loved"]), bobs = try server.mpc(["-P", "bob:b", "-f", "%file%", "playlist", "Loved"])
        #expect(owners.status == 0 && owners.out.split(separator: "\n").contains("opus.opus"), "\(owners)")
        #expect(bobs.status == 0 && bobs.out.isEmpty, "Bob rated it 2, and nothing else: \(bobs)")

        // Bob starts playback: the 1 s song plays to its end, a play of Bob's.
        #expect(try server.mpc(["-P", "bob:b", "add", song]).status == 0)
        #expect(try server.mpc(["-P", "bob:b", "play"]).status == 0)
        #expect(try Poll.until(timeout: 10) { try mlib(["ls", "-f", "$playCount", "title:Opus", "--user", "bob"]) == "1\n" },
                "the player's play is not Bob's")
        #expect(try mlib(["ls", "-f", "$playCount", "title:Opus"]) == "0\n", "the owner's count is untouched")
        #expect(try server.mpc(["-P", "bob:b", "sticker", song, "get", "playCount"]).out == "playCount=1\n")
        #expect(try mlib(["history", "--user", "bob"]).contains("  play  mpd  bob  "))
    }
}
