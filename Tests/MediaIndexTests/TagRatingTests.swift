import Foundation
@testable import MediaIndex
import MediaModel
import PostgresTestServer
import Testing

/// A rating read from a file's tags (`tagRating`) is what `rating` shows until the user rates the item in
/// mlib; the user's rating wins, survives rescans that change the tag, and clearing it falls back to the
/// tag's. Queries, sorts and counts see the same rating as the items read back, on every store.
struct TagRatingTests {
    static func rated(_ path: String, title: String, tag: Int64?) -> MediaItem {
        var item = sampleItem(path, title: title)
        item[.tagRating] = tag.map(MediaValue.integer)
        return item
    }

    func ratings(_ index: any LibraryStore, _ query: MediaQuery = MediaQuery()) throws -> [String: Int64?] {
        Dictionary(uniqueKeysWithValues: try index.items(query).map { ($0.title ?? "", $0[.rating]?.integer) })
    }

    func titles(_ index: any LibraryStore, _ text: String, sort: String? = nil) throws -> [String] {
        let query = MediaQuery(filter: try PredicateParser.parse(text),
                               sort: try sort.map { try MediaModel.SortDescriptor.parseList($0) } ?? [])
        return try index.items(query).map { $0.title ?? "" }
    }

    @Test(arguments: Store.available) func theUsersRatingWinsAndClearingFallsBackToTheTags(_ store: Store) throws {
        let index = try store.emptyLibrary()
        let ids = try add([Self.rated("/m/a.mp3", title: "A", tag: 4), Self.rated("/m/b.mp3", title: "B", tag: nil),
                           Self.rated("/m/c.mp3", title: "C", tag: 2)], to: index)
        #expect(try ratings(index) == ["A": 4, "B": nil, "C": 2])
        let a = try #require(try index.item(id: ids[0]))
        #expect(a[.tagRating] == .integer(4) && a.userRating == nil)

        try index.setRating(id: ids[0], 1)
        try index.setRating(id: ids[1], 5)
        #expect(try ratings(index) == ["A": 1, "B": 5, "C": 2])
        let rated = try #require(try index.item(id: ids[0]))
        #expect(rated.userRating == 1 && rated[.tagRating] == .integer(4))

        // A rescan that reads a new tag rating changes the tag's value only; the user's stays.
        try index.apply([.update(id: ids[0], Self.rated("/m/a.mp3", title: "A", tag: 5), stamp(1000, 2), fingerprint: 7),
                         .update(id: ids[2], Self.rated("/m/c.mp3", title: "C", tag: 3), stamp(1000, 2), fingerprint: 7)],
                        generation: nil)
        #expect(try ratings(index) == ["A": 1, "B": 5, "C": 3])

        // `mlib rate --clear` (and `mlib set rating=`) go through these: the tag's rating shows again.
        try index.setRating(id: ids[0], nil)
        #expect(try index.setUserData(.rating, to: nil, ids: [ids[1]]) == 1)
        #expect(try ratings(index) == ["A": 5, "B": nil, "C": 3])
    }

    @Test(arguments: Store.available) func queriesSortsAndCountsUseTheRatingShown(_ store: Store) throws {
        let index = try store.emptyLibrary()
        let ids = try add([Self.rated("/m/a.mp3", title: "A", tag: 4), Self.rated("/m/b.mp3", title: "B", tag: nil),
                           Self.rated("/m/c.mp3", title: "C", tag: 2), Self.rated("/m/d.mp3", title: "D", tag: 5)], to: index)
        try index.setRating(id: ids[1], 3)       // B: the user's 3, no tag
        try index.setRating(id: ids[3], 1)       // D: the user's 1 over the tag's 5
        #expect(try titles(index, "rating >= 3", sort: "title") == ["A", "B"])
        #expect(try titles(index, "rating == 5") == [])
        #expect(try titles(index, "tagRating == 5") == ["D"])
        #expect(try titles(index, "rating == nil") == [])
        #expect(try titles(index, "NOT rating BETWEEN {2, 3}", sort: "title") == ["A", "D"])
        #expect(try titles(index, "TRUEPREDICATE", sort: "-rating,title") == ["A", "B", "C", "D"])
        #expect(try titles(index, "TRUEPREDICATE", sort: "rating,title") == ["D", "C", "B", "A"])
        #expect(try index.count(MediaQuery(filter: try PredicateParser.parse("rating > 1"))) == 3)
        #expect(try index.itemIDs(MediaQuery(filter: try PredicateParser.parse("rating == 2"))) == [ids[2]])
        // The in-memory evaluator agrees on the items as read back.
        let all = try index.items(MediaQuery())
        for text in ["rating >= 3", "rating == 2", "rating == nil", "rating < 2", "tagRating != nil"] {
            let p = try PredicateParser.parse(text)
            let memory = Set(all.filter(try PredicateEvaluator(p).matches).map(\.persistentID))
            #expect(Set(try index.itemIDs(MediaQuery(filter: p))) == memory, "\(text)")
        }
    }
}
