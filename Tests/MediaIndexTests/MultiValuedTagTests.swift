import Foundation
@testable import MediaIndex
import MediaModel
import PostgresTestServer
import Testing

/// Multi-valued properties (artist, albumArtist, genre, composer: two GENRE fields, ID3v2.4 null-separated
/// values…) are kept as lists, stored joined with "; ": a comparison matches any value, `!=` means none is
/// equal, a grouping by genre lists an item under each of its genres, and JSON gives an array for several.
/// The same on every store as in memory (the random cases are in `QueryAgreementTests`).
struct MultiValuedTagTests {
    static func item(_ path: String, title: String, genre: String?, artist: String = "Alice") -> MediaItem {
        var item = sampleItem(path, title: title, artist: artist)
        item.genre = genre
        return item
    }

    static let items = [item("/m/a.flac", title: "A", genre: "Rock; Jazz", artist: "Alice; Bob"),
                        item("/m/b.flac", title: "B", genre: "Jazz"),
                        item("/m/c.flac", title: "C", genre: "Rock"),
                        item("/m/d.flac", title: "D", genre: nil),
                        item("/m/e.flac", title: "E", genre: "Folk; jazz")]

    func titles(_ index: any LibraryStore, _ filter: MediaPredicate) throws -> [String] {
        try index.items(MediaQuery(filter: filter, sort: [MediaSortDescriptor(.title)])).map { $0.title ?? "" }
    }

    @Test func valuesAreTheJoinedTextSplit() {
        let a = Self.items[0], d = Self.items[3]
        #expect(a.values(of: .genre) == ["Rock", "Jazz"])
        #expect(a.genre == "Rock; Jazz")
        #expect(d.values(of: .genre) == [])
        var titled = a
        titled.title = "x; y"                     // not multi-valued: one value
        #expect(titled.values(of: .title) == ["x; y"])
    }

    @Test(arguments: Store.available) func comparisonsMatchAnyValue(_ store: Store) throws {
        let index = try store.emptyLibrary()
        _ = try add(Self.items, to: index)
        let cases: [(String, [String])] = [
            (#"genre == "Jazz""#, ["A", "B"]),
            (#"genre ==[c] "jazz""#, ["A", "B", "E"]),
            (#"genre !=[c] "jazz""#, ["C"]),
            (#"NOT genre ==[c] "jazz""#, ["C", "D"]),
            (#"genre == "Rock; Jazz""#, []),
            (#"genre BEGINSWITH "J""#, ["A", "B"]),
            (#"genre IN {"Folk", "Rock"}"#, ["A", "C", "E"]),
            (#"genre < "K""#, ["A", "B", "E"]),
            (#"artist == "Bob""#, ["A"]),
        ]
        for (text, want) in cases {
            let p = try PredicateParser.parse(text)
            #expect(try titles(index, p) == want, "\(store) \(text)")
            #expect(Self.items.filter(try PredicateEvaluator(p).matches).map { $0.title! } == want, "memory \(text)")
        }
        #expect(try titles(index, try ShortQueryParser.parse("genre:jazz")) == ["A", "B", "E"])
    }

    @Test(arguments: Store.available) func genresGroupByEachValue(_ store: Store) throws {
        let index = try store.emptyLibrary()
        _ = try add(Self.items, to: index)
        let query = MediaQuery(grouping: .genre)
        let collections = try index.collections(query)
        // "Jazz" and "jazz" fold alike: one group, named as its first item writes it.
        #expect(collections.map(\.name) == ["Folk", "Jazz", "Rock", nil])
        // Inside a group, the default order is artist, album, title: "Alice; Bob" sorts after "Alice".
        #expect(collections.map { $0.items.map { $0.title! } } == [["E"], ["B", "E", "A"], ["C", "A"], ["D"]])
        let summaries = try index.collectionSummaries(query)
        #expect(summaries.map(\.name) == ["Folk", "Jazz", "Rock", nil])
        #expect(summaries.map(\.count) == [1, 3, 2, 1])
        #expect(summaries.map(\.totalDuration) == [241.5, 3 * 241.5, 2 * 241.5, 241.5])
        let artists = try index.collections(MediaQuery(grouping: .artist)).map(\.name)
        #expect(artists == ["Alice", "Bob"])
    }

    @Test func jsonIsAStringForOneValueAndAnArrayForSeveral() throws {
        guard case .object(let members) = Self.items[0].json(includeTags: false),
              case .object(let single) = Self.items[1].json(includeTags: false) else { Issue.record("not objects"); return }
        #expect(members.first { $0.0 == "genre" }?.1 == .array([.string("Rock"), .string("Jazz")]))
        #expect(members.first { $0.0 == "artist" }?.1 == .array([.string("Alice"), .string("Bob")]))
        #expect(single.first { $0.0 == "genre" }?.1 == .string("Jazz"))
    }
}
