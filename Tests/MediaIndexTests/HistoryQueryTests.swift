import Foundation
@testable import MediaIndex
import MediaModel
import PostgresTestServer
import Testing

/// History in the query language (issue 40): `plays(WINDOW) OP N` and `skips(WINDOW) OP N` count the
/// item's rows of the listening history, on both stores; the in-memory evaluator refuses them.
struct HistoryQueryTests {
    static let day = 86400.0

    /// a: 3 plays in the last 30 days and one 60 days ago; b: one play 60 days ago, two skips this week;
    /// c: never played.
    static func library(_ store: Store) throws -> (any LibraryStore, a: Int64, b: Int64, c: Int64) {
        let index = try store.emptyLibrary()
        let ids = try add([sampleItem("/m/a.mp3", title: "A"), sampleItem("/m/b.mp3", title: "B"), sampleItem("/m/c.mp3", title: "C")], to: index)
        let now = Date()
        for days in [1.0, 5, 20, 60] {
            try index.recordListen(Listen(itemID: ids[0], kind: .play, date: now.addingTimeInterval(-days * day), front: .play))
        }
        try index.recordListen(Listen(itemID: ids[1], kind: .play, date: now.addingTimeInterval(-60 * day), front: .mpd))
        for days in [1.0, 2] {
            try index.recordListen(Listen(itemID: ids[1], kind: .skip, date: now.addingTimeInterval(-days * day), heard: 3, front: .mpd))
        }
        return (index, ids[0], ids[1], ids[2])
    }

    static func ids(_ index: any LibraryStore, _ query: String) throws -> Set<Int64> {
        Set(try index.itemIDs(MediaQuery(filter: try PredicateParser.parse(query))))
    }

    @Test(arguments: Store.available) func historyTermsCountTheItemsListens(_ store: Store) throws {
        let (index, a, b, c) = try Self.library(store)
        #expect(try Self.ids(index, "plays(30) >= 3") == [a])
        #expect(try Self.ids(index, "plays() >= 4") == [a])
        #expect(try Self.ids(index, "plays() == 0") == [c], "never played")
        #expect(try Self.ids(index, #"skips("1w") > 0"#) == [b])
        #expect(try Self.ids(index, #"skips("1w") > 0 AND plays(30) == 0"#) == [b])
        #expect(try Self.ids(index, "NOT plays(30) >= 1") == [b, c])
        #expect(try Self.ids(index, "plays(30) >= 1 OR title == \"C\"") == [a, c])
        #expect(try Self.ids(index, "plays(0.5) > 0").isEmpty, "half a day: nothing that recent")
    }

    @Test func historyTermsRenderAsWrittenAndParseBack() throws {
        for text in ["plays(30) >= 3", #"skips("1w") > 0"#, "plays() == 0", #"plays(7) != 1 AND skips("12h") < 2"#] {
            let p = try PredicateParser.parse(text)
            #expect(p.description == text)
            #expect(try PredicateParser.parse(p.description) == p)
        }
    }

    @Test func badHistoryTermsAreQueryErrors() throws {
        for text in ["plays(30) CONTAINS 3", #"plays("soon") > 1"#, "plays(30) > 1.5", "plays(30 > 1", "skips() >= -1"] {
            #expect(throws: QueryError.self, "\(text)") { try PredicateParser.parse(text) }
        }
        #expect(throws: QueryError.self) { try PredicateEvaluator(try PredicateParser.parse("plays() > 0")) }
    }
}
