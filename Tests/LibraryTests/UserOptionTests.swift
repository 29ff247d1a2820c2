import Foundation
import PostgresTestServer
import Testing
import TestSupport

/// Issue 40: the CLI acts as a user (`--user NAME`, `MLIB_USER`; default: the library's owner) for `rate`,
/// `set`, `play --record-plays`, `history` and queries, on both stores. Alice (the first account) is the
/// owner: her values are the items'; Bob's are his own. An unknown user is a usage error (status 2).
struct UserOptionTests {
    struct Box {
        let folder: TemporaryLibrary
        let locator: String
        var keyFile: String { folder.directory.appendingPathComponent("users-key").path }

        init(_ store: Store) throws {
            folder = try TemporaryLibrary("user-option", copying: ["opus.opus", "mp3-notags.mp3", "ogg-vorbis.ogg"])
            locator = try store.newLocator(sqlitePath: folder.library)
            try run(["scan", "-q", folder.music.path])
            // The key file named: a PostgreSQL library's default is under ~/.config, which tests leave alone.
            try run(["user", "add", "alice", "--password", "a", "--key-file", keyFile])
            try run(["user", "add", "bob", "--password", "b", "--key-file", keyFile])
        }

        func call(_ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess.Output {
            try ChildProcess.run(ChildProcess.mlib.path, arguments + ["--library", locator], environment: environment)
        }

        @discardableResult
        func run(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
            let result = try call(arguments, environment: environment)
            guard result.status == 0 else { throw TestFailure("mlib \(arguments.joined(separator: " ")): \(result.status) \(result.stderr)") }
            return result.out
        }
    }

    @Test(arguments: Store.available) func theCLIActsAsTheUserItIsTold(_ store: Store) throws {
        let box = try Box(store)
        defer { box.folder.remove() }
        try box.run(["rate", "title:Opus", "5"])
        try box.run(["rate", "title:Opus", "2", "--user", "bob"])
        try box.run(["set", "playCount=3", "title:Opus"], environment: ["MLIB_USER": "bob"])
        try box.run(["rate", "title:Opus", "4", "--user", "alice"])   // the owner's account: the items' values

        let line = ["ls", "-f", "$title $rating $playCount", "title:Opus"]
        #expect(try box.run(line) == "Opus Song 4 0\n")
        #expect(try box.run(line + ["--user", "bob"]) == "Opus Song 2 3\n")
        #expect(try box.run(["ls", "-f", "$title", "rating >= 4"]) == "Opus Song\n")
        #expect(try box.run(["ls", "-f", "$title", "rating >= 4", "--user", "bob"]) == "", "Bob rated it 2")
        #expect(try box.run(["ls", "-f", "$title", "rating == 2", "--user", "bob"]) == "Opus Song\n")
        #expect(try box.run(["ls", "--count", "playCount == 0", "--user", "bob"]) == "2\n", "items without Bob's values have none")
        #expect(try box.run(["ls", "--count", "rating == nil", "--user", "bob"]) == "2\n")

        try box.run(["play", "--sink", "null:fast", "--record-plays", "title:Opus", "--user", "bob"])
        #expect(try box.run(line + ["--user", "bob"]) == "Opus Song 2 4\n")
        #expect(try box.run(line) == "Opus Song 4 0\n", "the owner's count is untouched")
        #expect(try box.run(["history", "--user", "bob"]).hasSuffix("  play  play  bob  The Fixtures – Opus Song\n"))
        #expect(try box.run(["history", "--user", "alice"]) == "")
        #expect(try box.run(["history"]).split(separator: "\n").count == 1)

        let unknown = try box.call(["rate", "title:Opus", "3", "--user", "carol"])
        #expect(unknown.status == 2 && unknown.stderr.contains("no user named \"carol\""), "\(unknown.status) \(unknown.stderr)")
        let unknownEnvironment = try box.call(["ls", "rating >= 1"], environment: ["MLIB_USER": "carol"])
        #expect(unknownEnvironment.status == 2, "\(unknownEnvironment.stderr)")
        #expect(try box.run(line) == "Opus Song 4 0\n", "nothing changed")
    }
}
