import Foundation
@testable import MediaIndex
@testable import PostgresStore
import MediaModel
import PostgresTestServer
import Testing

/// What the one store layer promises on both dialects alike (issue 22's numbered cases).
struct StoreLayerTests {
    /// One scan batch, one rule on both stores (`SQLStore.applyChanges`): a batch that adds a new file at
    /// the path an item moves away from keeps both, whatever their order in the batch. PostgreSQL wrote the
    /// new files staged before a move first: the newcomer's INSERT met the moving item's row at that path
    /// (ON CONFLICT … DO UPDATE) and took it over, and the move then carried the newcomer's data away.
    @Test(arguments: Store.available) func aBatchAddingAFileWhereAnItemMovedFromKeepsBoth(_ store: Store) throws {
        let index = try store.emptyLibrary()
        let id = try #require(try add([sampleItem("/m/a.mp3", title: "Moved")], to: index).first)
        let newcomer = sampleItem("/m/a.mp3", title: "New", size: 2000)
        try index.apply([.add(newcomer, stamp(2000), fingerprint: 9), .move(id: id, to: MediaPath("/m/b.mp3"))], generation: nil)
        let moved = try index.item(path: MediaPath("/m/b.mp3"))
        #expect(moved?.persistentID == id && moved?.title == "Moved", "\(store): \(String(describing: moved?.title))")
        let added = try index.item(path: MediaPath("/m/a.mp3"))
        #expect(added?.title == "New" && added?.persistentID != id, "\(store): \(String(describing: added?.title))")
    }

    /// 8: a value that starts with a combining mark after the separator ("A; \u{301}B") is split as the SQL
    /// of both stores splits it, at the separator's bytes (Swift's String compared it as characters, where
    /// the space and the mark are one, and kept one value).
    @Test(arguments: Store.available) func aValueStartingWithACombiningMarkSplitsAlikeInSwiftAndSQL(_ store: Store) throws {
        var item = sampleItem("/m/a.mp3", title: "A", artist: "Ann; \u{301}Bo")
        item.genre = "x"
        #expect(item.values(of: .artist) == ["Ann", "\u{301}Bo"])
        let index = try store.emptyLibrary()
        try add([item, sampleItem("/m/b.mp3", title: "B", artist: "Ann")], to: index)
        // Built in Swift: the format parser reads characters, and a quote followed by a mark is one.
        let comparisons = [Comparison(.artist, .equal, .value(.text("\u{301}Bo"))),
                           Comparison(.artist, .equal, .value(.text("\u{301}bo")), options: .cd),
                           Comparison(.artist, .beginsWith, .value(.text("\u{301}")))]
        for comparison in comparisons {
            let p = MediaModel.Predicate.comparison(comparison)
            let text = "\(comparison)"
            let memory = [item].filter(try PredicateEvaluator(p).matches).map(\.title)
            #expect(try index.items(MediaQuery(filter: p)).map(\.title) == memory, "\(store) \(text)")
            #expect(memory == ["A"], "\(text)")
        }
        let groups = try index.collectionSummaries(MediaQuery(grouping: .artist)).map(\.count)
        #expect(groups == [2, 1], "\(store)")
    }

    /// 10: one limit on the size of a query, with one message, on both stores (SQLite refused ~1,000 terms
    /// with "Expression tree is too large", PostgreSQL ran up to 65,535 parameters and then failed as a
    /// broken library).
    @Test(arguments: Store.available) func aQueryTooLargeIsTheSameQueryErrorOnBothStores(_ store: Store) throws {
        let index = try store.emptyLibrary()
        try add([sampleItem("/m/a.mp3", title: "A", artist: "7")], to: index)
        let most = (1...SQLStore.maximumQueryTerms).map(String.init).joined(separator: ",")
        #expect(try index.count(MediaQuery(filter: try ShortQueryParser.parse("artist:" + most))) == 1)
        let tooMany = (1...(SQLStore.maximumQueryTerms + 1)).map(String.init).joined(separator: ",")
        let error = try #require(throws: QueryError.self) { try index.count(MediaQuery(filter: try ShortQueryParser.parse("artist:" + tooMany))) }
        #expect(error.description.contains("\(SQLStore.maximumQueryTerms + 1) terms"), "\(error)")
        let huge = try ShortQueryParser.parse("artist:" + (1...20_000).map(String.init).joined(separator: ","))
        let start = Date()
        #expect(throws: QueryError.self) { try index.count(MediaQuery(filter: huge)) }
        #expect(Date().timeIntervalSince(start) < 5)
    }

    /// 12: `forEachItem` streams on PostgreSQL too: the first item reaches the caller before every row has
    /// crossed the socket (a cursor, fetched in batches), so `ls` of a million items stays in bounded memory.
    @Test(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
    func forEachItemStreamsOnPostgreSQL() throws {
        let index = try #require(try Store.postgres.emptyLibrary() as? PostgresIndex)
        try add((0..<3_000).map { sampleItem("/m/\($0).mp3", title: "t\($0)") }, to: index)
        let before = index.session.rowsReceived
        var receivedAtFirst: Int?
        var seen = 0
        try index.forEachItem(MediaQuery(sort: [MediaSortDescriptor(.path)])) { _ in
            if receivedAtFirst == nil { receivedAtFirst = index.session.rowsReceived - before }
            seen += 1
        }
        #expect(seen == 3_000)
        // At most the first page tried whole (`firstPageRows` + 1, set aside when more rows come) and one fetch.
        let bound = PostgresStoreConnection.Executor.firstPageRows + 1 + PostgresStoreConnection.Executor.rowsPerFetch
        #expect(try #require(receivedAtFirst) <= bound, "every row was read before the first item was handed out")
    }

    /// A small answer is one statement on PostgreSQL: a cursor costs four more (BEGIN, DECLARE, CLOSE, COMMIT
    /// around the FETCH; ~10 ms of a 48 ms `ls` at load 4), paid only when the answer is larger than a page.
    @Test(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
    func aSmallAnswerIsOneStatementOnPostgreSQL() throws {
        let index = try #require(try Store.postgres.emptyLibrary() as? PostgresIndex)
        try add((0..<30).map { sampleItem("/m/\($0).mp3", title: "t\($0)") }, to: index)
        var before = index.session.statementsSent
        var paths: [String] = []
        try index.forEachItem(MediaQuery(sort: [MediaSortDescriptor(.path)])) { paths.append($0.path.string) }
        #expect(paths == (0..<30).map { "/m/\($0).mp3" }.sorted())
        #expect(index.session.statementsSent - before == 1, "\(index.session.statementsSent - before) statements")
        // An answer of several pages streams through the cursor, in order, every row once.
        try add((30..<1_500).map { sampleItem("/m/\($0).mp3", title: "t\($0)") }, to: index)
        before = index.session.statementsSent
        paths = []
        try index.forEachItem(MediaQuery(sort: [MediaSortDescriptor(.path)])) { paths.append($0.path.string) }
        #expect(paths == (0..<1_500).map { "/m/\($0).mp3" }.sorted())
        #expect(index.session.statementsSent - before <= 7)
    }
}

extension StoreLayerTests {
    /// 7: a collection's representative item is a whole item on both stores (`ls --group albums -f '$name
    /// $size $track'` printed empty fields on SQLite, whose summaries decoded only the naming properties).
    @Test(arguments: Store.available) func summariesCarryWholeRepresentativeItems(_ store: Store) throws {
        var item = sampleItem("/m/a.flac", title: "A", size: 4_321)
        item.albumTitle = "Homogenic"
        item[.albumTrackNumber] = .integer(3)
        item[.sampleRate] = .integer(44_100)
        let index = try store.emptyLibrary()
        try add([item], to: index)
        let summary = try #require(try index.collectionSummaries(MediaQuery(grouping: .album)).first)
        #expect(summary.representativeItem.fileSize == 4_321, "\(store)")
        #expect(summary.representativeItem.albumTrackNumber == 3, "\(store)")
        #expect(summary.representativeItem == (try index.item(id: summary.representativeItem.persistentID)), "\(store)")
    }
}
