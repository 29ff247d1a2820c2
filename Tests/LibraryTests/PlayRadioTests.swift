import Foundation
import PostgresTestServer
import Testing
import TestSupport

/// Issue 40: `mlib play --radio` keeps the queue going with the library's similar songs (`Radio`, over
/// `Recommendations`) for the user playing. The library of UserOptionTests.Box: Opus Song (The Fixtures,
/// Rock, 2003), ogg-vorbis (Кино, Rock, 2011: an alike artist) and mp3-notags (no tags: nothing relates it
/// but a listening session). Bob plays Opus and then mp3-notags: his radio of Opus puts mp3-notags first;
/// the real run plays the queue, then the radio's songs, until the library has no more, and records them.
/// Both stores.
struct PlayRadioTests {
    /// The dry run's queue: each line's title (or file name), in play order.
    static func titles(_ listing: String) -> [String] {
        listing.split(separator: "\n").map { line in
            let text = String(line)
            if text.contains("Opus Song") { return "opus" }
            if text.contains("mp3-notags") { return "notags" }
            if text.contains("Кино") || text.contains("ogg") { return "ogg" }
            return text
        }
    }

    @Test(arguments: Store.available) func theRadioKeepsGoingWithTheListenersNeighbours(_ store: Store) throws {
        let box = try UserOptionTests.Box(store)
        defer { box.folder.remove() }
        // Without history: the seed, then the alike artist's song; nothing relates the untagged file.
        #expect(Self.titles(try box.run(["play", "--radio", "--dry-run", "title:Opus"])) == ["opus", "ogg"])

        // Bob's session: Opus, then the untagged file, within minutes.
        try box.run(["play", "--sink", "null:fast", "--record-plays", "title:Opus", "--user", "bob"])
        try box.run(["play", "--sink", "null:fast", "--record-plays", "path:mp3-notags", "--user", "bob"])
        #expect(Self.titles(try box.run(["play", "--radio", "--dry-run", "title:Opus", "--user", "bob"])) == ["opus", "notags", "ogg"],
                "bob's own session weighs 3, the alike artist 1")
        // Without a query: songs like bob's recent plays (mp3-notags, Opus, themselves left out): the alike
        // artist's; then the dry run's first refill, songs like that one: Opus (its artist is alike too).
        #expect(Self.titles(try box.run(["play", "--radio", "--dry-run", "--user", "bob"])) == ["ogg", "opus"])
        // The owner has no plays yet: nothing to start from, said plainly.
        let none = try box.call(["play", "--radio", "--dry-run"])
        #expect(none.status == 1 && none.stderr.contains("recent plays"), "\(none.status) \(none.stderr)")

        // Played for real: the queue, then the radio until it has nothing more; each recorded as bob's.
        let played = try box.call(["play", "--radio", "--sink", "null:fast", "--record-plays", "title:Opus", "--user", "bob"])
        #expect(played.status == 0, "\(played.stderr)")
        let history = try box.run(["history", "--user", "bob", "--kind", "play", "--limit", "3"])
        #expect(history.split(separator: "\n").count == 3, "\(history)")
        #expect(history.contains("Opus Song") && history.contains("Кино") && history.contains("mp3-notags"), "\(history)")

        #expect(try box.call(["play", "--radio", "--files", "x.mp3"]).status == 2, "--radio plays from the library")
        #expect(try box.call(["play", "--radio", "--repeat", "all"]).status == 2)
    }
}
