import Foundation
import PostgresTestServer
import Testing
import TestSupport

/// Issue 40: `mlib playlist show` and `playlist export` act as `--user` as ls does: a smart playlist's
/// rule reads that user's ratings and plays. Both stores; alice (the owner) and bob as UserOptionTests.
struct PlaylistUserOptionTests {
    @Test(arguments: Store.available) func aSmartPlaylistIsTheUsersOwn(_ store: Store) throws {
        let box = try UserOptionTests.Box(store)
        defer { box.folder.remove() }
        try box.run(["rate", "title:Opus", "5", "--user", "bob"])
        try box.run(["playlist", "smart", "Loved", "rating >= 4"])
        #expect(try box.run(["playlist", "show", "Loved"]) == "", "the owner rated nothing")
        #expect(try box.run(["playlist", "show", "Loved", "--user", "bob"]).contains("Opus Song"))
        #expect(try box.run(["playlist", "show", "Loved", "--json"], environment: ["MLIB_USER": "bob"]).contains("Opus Song"))
        #expect(try box.run(["playlist", "export", "Loved", "--user", "bob"]).contains("opus.opus"))
        #expect(!(try box.run(["playlist", "export", "Loved"])).contains("opus.opus"))
        #expect(try box.call(["playlist", "show", "Loved", "--user", "carol"]).status == 2, "an unknown user")
    }
}
