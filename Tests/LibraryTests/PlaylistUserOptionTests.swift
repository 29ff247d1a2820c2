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

    /// History terms read the user's own listens: bob's plays(…) count bob's rows of the history, not
    /// the owner's, and the owner's count the owner's, not bob's (OwnersHistoryTermsTests).
    @Test(arguments: Store.available) func historyTermsCountTheUsersOwnListens(_ store: Store) throws {
        let box = try UserOptionTests.Box(store)
        defer { box.folder.remove() }
        try box.run(["play", "--sink", "null:fast", "--record-plays", "title:Opus", "--user", "bob"])
        try box.run(["play", "--sink", "null:fast", "--record-plays", "path:ogg-vorbis"])
        let bobs = try box.run(["ls", "-f", "$path", "plays() >= 1", "--user", "bob"])
        #expect(bobs.contains("opus.opus") && !bobs.contains(".ogg"), "\(bobs)")
        #expect(try box.run(["ls", "--count", "plays() == 0", "--user", "bob"]) == "2\n")
        #expect(try box.run(["ls", "-f", "$path", "plays() >= 1"]).hasSuffix("ogg-vorbis.ogg\n"), "the owner's query: the owner's listens")
        #expect(try box.run(["ls", "--count", "plays() >= 1"]) == "1\n")
        try box.run(["playlist", "smart", "Played", "plays(30) >= 1"])
        #expect(!(try box.run(["playlist", "show", "Played", "--user", "bob"])).contains(".ogg"))
    }
}
