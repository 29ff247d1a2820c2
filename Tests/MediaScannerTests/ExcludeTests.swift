import Foundation
@testable import MediaIndex
import MediaModel
@testable import MediaScanner
import Testing

/// Exclude lists: `.mlibignore` and MPD's `.mpdignore` in any directory (inherited below it), `--exclude`
/// for a whole scan; what they leave out is hidden, not removed, and comes back with its id.
struct ExcludeTests {
    func write(_ text: String, _ box: Sandbox, _ relative: String) throws {
        try Data(text.utf8).write(to: box.music.appendingPathComponent(relative))
    }

    @Test func rulesMatchLikeGitignore() {
        var list = ExcludeList()
        let base = MediaPath("/m")
        list.add(lines: ["# a comment", "", "*.wav", "Podcasts/", "/top.mp3", "live/**/bootleg*", "keep/*.mp3", "!keep/this.mp3"]
            .map { Substring($0) }, base: base) { "test:\($0)" }
        func out(_ path: String, directory: Bool = false) -> Bool { list.exclusion(of: MediaPath(path), isDirectory: directory) != nil }
        #expect(out("/m/a/b/song.wav") && out("/m/song.wav"))
        #expect(out("/m/x/Podcasts", directory: true) && !out("/m/x/Podcasts"))      // dir/ matches directories only
        #expect(out("/m/top.mp3") && !out("/m/a/top.mp3"))                           // anchored
        #expect(out("/m/live/2001/paris/bootleg1.mp3") && out("/m/live/bootleg2.mp3") && !out("/m/studio/bootleg.mp3"))
        #expect(out("/m/keep/that.mp3") && !out("/m/keep/this.mp3"))                 // ! brings back
        #expect(!out("/other/song.wav"))                                            // outside its base
        #expect(list.exclusion(of: MediaPath("/m/a.wav"), isDirectory: false)?.origin == "test:3")
    }

    @Test func excludedFilesStayOutAndComeBackWithTheirIdentity() async throws {
        let box = try Sandbox()
        let song = try box.put("a.mp3", at: "Album/song.mp3")
        let podcast = try box.put("c.ogg", at: "Podcasts/Show/episode.ogg")
        let wav = try box.put("b.flac", at: "Album/Live/take.flac")
        try box.put("d.mp3", at: "Album/Live/kept.mp3")
        try await box.scan()
        let index = try box.index()
        #expect(try index.count(MediaQuery()) == 4)
        let podcastID = try #require(try index.item(path: podcast)).persistentID
        try index.setRating(id: podcastID, 4)

        // An MPD user's .mpdignore at the top, a .mlibignore one level down (inherited by Live/).
        try write("Podcasts\n", box, ".mpdignore")
        try write("*.flac\n", box, "Album/.mlibignore")
        let summary = try await box.scan()
        #expect(summary.excluded == 2 && summary.removed == 0, "\(summary)")
        #expect(Set(try index.items(MediaQuery()).map(\.path)) == [song, MediaPath(box.music.path + "/Album/Live/kept.mp3")])
        #expect(try index.item(path: wav) == nil)

        // A subtree scan leaves out what a full scan does (the ignore files above it apply).
        let sub = try await MediaScanner(index: index).scan([MediaPath(box.music.path + "/Album/Live")])
        #expect(sub.added == 0 && sub.unchanged == 1, "\(sub)")

        // Included again: the same items, with their user data.
        try FileManager.default.removeItem(atPath: box.music.path + "/.mpdignore")
        try FileManager.default.removeItem(atPath: box.music.path + "/Album/.mlibignore")
        let back = try await box.scan()
        #expect(back.added == 0, "\(back)")
        let item = try #require(try index.item(path: podcast))
        #expect(item.persistentID == podcastID && item[.rating]?.integer == 4)
        #expect(try index.count(MediaQuery()) == 4)
    }

    @Test func excludeOptionAndDryRun() async throws {
        let box = try Sandbox()
        try box.put("a.mp3", at: "Album/song.mp3")
        try box.put("c.ogg", at: "Album/bonus.ogg")
        let index = try box.index()
        try index.addRoot(box.root())
        var scanner = MediaScanner(index: index)
        scanner.excludes = ["bonus.*"]
        var entries: [DryRunEntry] = []
        try scanner.dryRun([box.root()]) { entries.append($0) }
        #expect(entries.map { "\($0.path.lastComponent) \($0.excludedBy ?? "")" } == ["bonus.ogg bonus.* (--exclude)", "song.mp3 "])
        #expect(try index.count(MediaQuery()) == 0)                 // a dry run writes nothing
        #expect(try await scanner.scan([box.root()]).added == 1)
    }
}
