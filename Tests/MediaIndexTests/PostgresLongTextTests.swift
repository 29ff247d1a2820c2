import Foundation
@testable import MediaIndex
@testable import PostgresStore
import MediaModel
import PostgresTestServer
import Testing

/// Text PostgreSQL cannot put in a btree entry (more than 2,704 bytes) or cannot store at all (a NUL): a
/// file with such a tag is indexed or recorded as a failure, never the end of its batch.
@Suite(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
struct PostgresLongTextTests {
    /// 3,000 letters that do not compress (the server compresses an index entry before measuring it).
    static let long: String = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return String((0..<3_000).map { _ -> Character in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Character(UnicodeScalar(UInt8(97 + (state >> 33) % 26)))
        })
    }()

    static func titles(_ index: PostgresIndex, _ query: String) throws -> [String] {
        try index.items(MediaQuery(filter: try QueryArguments.predicate([query]))).map { $0.title ?? "" }
    }

    @Test func aFileWithALongTitleAndArtistIsIndexedAndFound() throws {
        let index = try #require(try Store.postgres.emptyLibrary() as? PostgresIndex)
        var long = sampleItem("/m/long.mp3", title: Self.long, artist: "Ann; " + Self.long)
        long.albumTitle = Self.long.uppercased()
        let items = [sampleItem("/m/a.mp3", title: "A"), long, sampleItem("/m/b.mp3", title: "B")]
        try index.apply(items.map { .add($0, stamp($0.fileSize), fingerprint: 7) })
        #expect(try index.count(MediaQuery()) == 3)
        #expect(try index.failures().isEmpty)
        #expect(try Self.titles(index, "title == \"\(Self.long)\"") == [Self.long])
        #expect(try Self.titles(index, "albumTitle ==[cd] \"\(Self.long)\"") == [Self.long], "[cd] equality on the folded column")
        #expect(try Self.titles(index, "albumTitle IN[cd] {\"x\", \"\(Self.long)\"}") == [Self.long])
        #expect(try Self.titles(index, "artist == \"\(Self.long)\"") == [Self.long], "one value of a multi-valued artist")
        #expect(try Self.titles(index, "title == \"\(Self.long.dropLast())\"").isEmpty, "the same first 256 characters are not equal")
        #expect(try Self.titles(index, "title == \"A\"") == ["A"])
    }

    /// A value the server refuses (here a NUL, which PostgreSQL's text cannot hold): that file is a recorded
    /// failure, the rest of its batch is written, and the next batch goes on.
    @Test func aRowTheServerRefusesIsARecordedFailureNotALostBatch() throws {
        let index = try #require(try Store.postgres.emptyLibrary() as? PostgresIndex)
        let items = [sampleItem("/m/a.mp3", title: "A"), sampleItem("/m/nul.mp3", title: "x\u{0}y"), sampleItem("/m/b.mp3", title: "B")]
        try index.apply(items.map { .add($0, stamp($0.fileSize), fingerprint: 7) }, generation: try index.newGeneration())
        #expect(try index.count(MediaQuery()) == 2)
        let failures = try index.failures()
        #expect(failures.map(\.path) == [MediaPath("/m/nul.mp3")] && failures.first?.code == "database", "\(failures)")
        #expect(failures.first?.message.contains("0x00") == true, "\(failures)")
        // A file already indexed whose new read is refused keeps its row, flagged as failed.
        let id = try #require(try index.item(path: MediaPath("/m/a.mp3"))).persistentID
        try index.apply([.update(id: id, sampleItem("/m/a.mp3", title: "\u{0}"), stamp(1000, 2), fingerprint: 7),
                         .add(sampleItem("/m/c.mp3", title: "C"), stamp(1000), fingerprint: 7)], generation: try index.newGeneration())
        #expect(try index.item(path: MediaPath("/m/a.mp3"))?.title == "A")
        #expect(try index.count(MediaQuery()) == 3)
        #expect(try Set(index.failures().map(\.path)) == [MediaPath("/m/nul.mp3"), MediaPath("/m/a.mp3")])
    }

    /// The equality a query compiles to finds its rows by the prefix index "pg v5" made (seq scans off: with
    /// a handful of rows the planner would rightly read the table).
    @Test func equalityOnAFoldedColumnUsesItsPrefixIndex() throws {
        let index = try #require(try Store.postgres.emptyLibrary() as? PostgresIndex)
        try index.apply([.add(sampleItem("/m/a.mp3", title: "A"), stamp(1), fingerprint: 7)], generation: 1)
        for (query, indexName) in [("title == \"A\"", "items_title_folded_prefix"),
                                   ("albumTitle ==[cd] \"homogenic\"", "items_albumTitle_folded_prefix"),
                                   ("albumTitle IN[cd] {\"homogenic\", \"x\"}", "items_albumTitle_folded_prefix"),
                                   ("artist == \"Björk\"", "items_artist_folded_prefix"), ("artist == \"Björk\"", "items_artist_several")] {
            let filter = try PostgresQueryCompiler().filter(try QueryArguments.predicate([query]).normalized())
            #expect(filter.residual == nil)
            let explained = try index.connection.read { x in
                try x.execute("SET enable_seqscan = off")
                return try x.rows("EXPLAIN SELECT id FROM items WHERE \(filter.condition)").compactMap { $0.text(0) }.joined(separator: "\n")
            }
            #expect(explained.contains(indexName), "\(query):\n\(explained)")
        }
    }
}

/// Ranges and orders of folded text through the prefix indexes "pg v5" made (issue 22): `<`, `<=`, `>`, `>=`
/// and BETWEEN state the non-strict range on `left(f, 256)` beside the exact comparison, and a sort by a
/// searchable property orders by `left(f, 256) NULLS LAST, f NULLS LAST`, so the index can find and order
/// the rows. Long texts equal in their first 256 characters still compare in full.
@Suite(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
struct PostgresPrefixRangeTests {
    static func explain(_ index: PostgresIndex, _ sql: SQLStatement) throws -> String {
        try index.connection.read { x in
            // Seq scans and sorts priced out: the plan shows whether the index can do the work at all.
            try x.execute("SET enable_seqscan = off")
            try x.execute("SET enable_sort = off")
            return try x.rows("EXPLAIN " + sql).compactMap { $0.text(0) }.joined(separator: "\n")
        }
    }

    @Test func rangesAndOrdersOfFoldedTextUseThePrefixIndex() throws {
        let index = try #require(try Store.postgres.emptyLibrary() as? PostgresIndex)
        let long = PostgresLongTextTests.long
        let titles = ["a", "b", "c", long + "a", long + "b", long]
        let items = titles.enumerated().map { sampleItem("/m/\($0.offset).mp3", title: $0.element) } + [MediaItem(path: MediaPath("/m/none.mp3"))]
        try index.apply(items.map { .add($0, stamp($0.fileSize), fingerprint: 7) })
        let compiler = PostgresQueryCompiler()
        for query in ["title <[cd] \"b\"", "title >=[cd] \"b\"", "title >[cd] \"\(long)\"", "title <=[cd] \"\(long)a\"",
                      "title BETWEEN[cd] {\"b\", \"\(long)\"}"] {
            let predicate = try QueryArguments.predicate([query]).normalized()
            let filter = try compiler.filter(predicate)
            #expect(filter.residual == nil, "\(query)")
            let plan = try Self.explain(index, "SELECT items.id FROM items WHERE \(filter.condition)")
            #expect(plan.contains("items_title_folded_prefix"), "\(query):\n\(plan)")
            let stored = try index.items(MediaQuery(sort: [SortDescriptor(.persistentID)]))
            let expected = stored.filter { (try? PredicateEvaluator(predicate).matches($0)) == true }.map(\.persistentID)
            #expect(try index.items(MediaQuery(filter: predicate, sort: [SortDescriptor(.persistentID)])).map(\.persistentID) == expected, "\(query)")
        }
        for ascending in [true, false] {
            let query = MediaQuery(sort: [SortDescriptor(.title, ascending: ascending)], limit: 3)
            let order = try #require(compiler.orderBy(query.effectiveSort))
            #expect(order.contains("NULLS LAST"))
            let matching: SQLStatement = "FROM items WHERE items.missing_gen IS NULL AND (TRUE)"
            if ascending {
                let plan = try Self.explain(index, compiler.orderedSelect("items.id", matching, order: order, limit: 3, offset: 0))
                #expect(plan.contains("items_title_folded_prefix"), "ORDER BY \(order):\n\(plan)")
            }
            let stored = try index.items(MediaQuery())
            #expect(try index.items(query).map(\.persistentID) == (try query.apply(to: stored)).map(\.persistentID))
        }
    }
}
