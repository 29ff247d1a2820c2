import Foundation
import Testing

/// mlib-query(7), "Multi-valued properties": two GENRE/ARTIST fields (FLAC), ID3v2.4 null-separated values
/// (MP3) and several MP4 values (made with mutagen, Fixtures/make-odd-fixtures.sh section 19) are lists:
/// `genre:jazz` matches any value, `--group genres` lists a file under each, text joins them with "; ",
/// JSON gives an array.
struct MultiValuedTagCLITests {
    @Test func listsAreMatchedGroupedAndPrintedByValue() throws {
        let folder = try FixtureFolder("multivalued", copying: ["multi-values.flac", "multi-values-v24.mp3", "multi-values.m4a",
                                                                  "rating-percent.flac"].map { "odd/" + $0 })
        defer { folder.remove() }
        let mlib = folder.mlib

        #expect(try folder.scan().status == 0)
        #expect(try mlib(["ls", "--count", "genre:jazz"]).out == "3\n")
        #expect(try mlib(["ls", "--count", #"genre == "Rock""#]).out == "3\n")
        #expect(try mlib(["ls", "--count", "artist:bob"]).out == "3\n")
        #expect(try mlib(["ls", "--count", #"genre == "Rock; Jazz""#]).out == "0\n")
        let genres = try mlib(["ls", "--group", "genres"]).out.split(separator: "\n").map(String.init)
        #expect(genres == ["Jazz (3)", "Rock (3)", "(none) (1)"], "\(genres)")
        let lines = try mlib(["ls", "-f", "$artist | $genre", "genre:rock"]).out.split(separator: "\n").map(String.init)
        #expect(lines == Array(repeating: "Alice; Bob | Rock; Jazz", count: 3), "\(lines)")
        let listed = try mlib(["ls", "--json", "genre:jazz"])
        let items = try #require(try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]])
        #expect(items.count == 3)
        for item in items {
            #expect(item["genre"] as? [String] == ["Rock", "Jazz"], "\(item)")
            #expect(item["artist"] as? [String] == ["Alice", "Bob"], "\(item)")
        }
    }
}
