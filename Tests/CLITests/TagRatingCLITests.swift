import Foundation
import Testing

/// mlib(1), "Ratings in tags": `info` and a scan read a file's rating into tagRating; `rating` (ls, --json,
/// queries, sorting) is the user's rating when set, else the tag's; `mlib rate --clear` falls back to it.
struct TagRatingCLITests {
    @Test func tagRatingsShowUntilTheUserRatesAndAfterTheyClear() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-tagrating-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        defer { try? FileManager.default.removeItem(at: dir) }
        let music = dir.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        for name in ["rating-popm.mp3", "rating-percent.flac", "rating-fmps.ogg", "m4a-advisory-only.m4a"] {
            try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent("odd/" + name), to: music.appendingPathComponent(name))
        }
        let library = dir.appendingPathComponent("lib.sqlite").path
        func mlib(_ args: [String]) throws -> CLI.Result { try CLI.run(args + ["--library", library]) }
        func ratings() throws -> [String] {
            try mlib(["ls", "-f", "$rating $title", "--sort", "-rating,title"]).out.split(separator: "\n").map(String.init)
        }

        let info = try CLI.run(["info", "--json", music.appendingPathComponent("rating-popm.mp3").path])
        let shown = try #require(try JSONSerialization.jsonObject(with: info.stdout) as? [[String: Any]])
        let item = try #require(shown.first?["item"] as? [String: Any])
        #expect(item["tagRating"] as? Int == 4 && item["rating"] as? Int == 4, "\(item)")

        #expect(try mlib(["scan", "--quiet", music.path]).status == 0)
        #expect(try ratings() == ["4 Rated POPM", "4 Rated RATING", "3 Rated FMPS_RATING", " Explicit"])
        #expect(try mlib(["ls", "--count", "rating:4"]).out == "2\n")

        #expect(try mlib(["rate", "title:popm", "1"]).status == 0)
        #expect(try ratings() == ["4 Rated RATING", "3 Rated FMPS_RATING", "1 Rated POPM", " Explicit"])
        let listed = try mlib(["ls", "--json", "title:popm"])
        let stored = try #require(try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]])
        #expect(stored.first?["rating"] as? Int == 1 && stored.first?["tagRating"] as? Int == 4, "\(stored)")

        // A rescan of the unchanged file keeps the user's rating.
        #expect(try mlib(["scan", "--quiet", music.path]).status == 0)
        #expect(try mlib(["ls", "--count", "rating:1"]).out == "1\n")

        #expect(try mlib(["rate", "title:popm", "--clear"]).status == 0)
        #expect(try ratings() == ["4 Rated POPM", "4 Rated RATING", "3 Rated FMPS_RATING", " Explicit"])
    }
}
