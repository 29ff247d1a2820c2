import Foundation
import Testing

/// mlib(1), "Ratings in tags": `info` and a scan read a file's rating into tagRating; `rating` (ls, --json,
/// queries, sorting) is the user's rating when set, else the tag's; `mlib rate --clear` falls back to it.
struct TagRatingCLITests {
    @Test func tagRatingsShowUntilTheUserRatesAndAfterTheyClear() throws {
        let folder = try FixtureFolder("tagrating", copying: ["rating-popm.mp3", "rating-percent.flac", "rating-fmps.ogg",
                                                                "m4a-advisory-only.m4a"].map { "odd/" + $0 })
        defer { folder.remove() }
        let mlib = folder.mlib
        func ratings() throws -> [String] {
            try mlib(["ls", "-f", "$rating $title", "--sort", "-rating,title"]).out.split(separator: "\n").map(String.init)
        }

        let info = try CLI.run(["info", "--json", folder.music.appendingPathComponent("rating-popm.mp3").path])
        let shown = try #require(try JSONSerialization.jsonObject(with: info.stdout) as? [[String: Any]])
        let item = try #require(shown.first?["item"] as? [String: Any])
        #expect(item["tagRating"] as? Int == 4 && item["rating"] as? Int == 4, "\(item)")

        #expect(try folder.scan().status == 0)
        #expect(try ratings() == ["4 Rated POPM", "4 Rated RATING", "3 Rated FMPS_RATING", " Explicit"])
        #expect(try mlib(["ls", "--count", "rating:4"]).out == "2\n")

        #expect(try mlib(["rate", "title:popm", "1"]).status == 0)
        #expect(try ratings() == ["4 Rated RATING", "3 Rated FMPS_RATING", "1 Rated POPM", " Explicit"])
        let listed = try mlib(["ls", "--json", "title:popm"])
        let stored = try #require(try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]])
        #expect(stored.first?["rating"] as? Int == 1 && stored.first?["tagRating"] as? Int == 4, "\(stored)")

        // A rescan of the unchanged file keeps the user's rating.
        #expect(try folder.scan().status == 0)
        #expect(try mlib(["ls", "--count", "rating:1"]).out == "1\n")

        #expect(try mlib(["rate", "title:popm", "--clear"]).status == 0)
        #expect(try ratings() == ["4 Rated POPM", "4 Rated RATING", "3 Rated FMPS_RATING", " Explicit"])
    }
}
