import Foundation
@testable import MediaIndex
@testable import PostgresStore
import MediaModel
import PostgresTestServer
import Testing

/// What the server does with the SQL the compiler writes: `ls artist:velvet` (CONTAINS[cd] on a multi-valued
/// property) must be answerable through the trigram index on `search_text`, not only by reading every row.
@Suite(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
struct PostgresQueryPlanTests {
    static func plan(_ index: PostgresIndex, _ short: String) throws -> String {
        let filter = try PostgresQueryCompiler().filter(try ShortQueryParser.parse(short).normalized())
        return try index.connection.read { x in
            // Seq scans priced out: the plan shows whether any index can find the rows at all.
            try x.execute("SET enable_seqscan = off")
            return try x.rows("EXPLAIN SELECT items.id FROM items WHERE items.missing_gen IS NULL AND (\(filter.condition))")
                .compactMap { $0.text(0) }.joined(separator: "\n")
        }
    }

    @Test func containsOnAMultiValuedArtistUsesTheTrigramIndex() throws {
        let index = try #require(try Store.postgres.emptyLibrary() as? PostgresIndex)
        try add((0..<40).map { sampleItem("/m/\($0).mp3", title: "t\($0)", artist: $0 % 2 == 0 ? "The Velvet Underground" : "Nico; John Cale") },
                to: index)
        let velvet = try Self.plan(index, "artist:velvet")
        #expect(velvet.contains("items_search_trgm"), "\(velvet)")
        // Same answers with the index as the in-memory evaluator (the agreement tests cover the rest).
        #expect(try index.count(MediaQuery(filter: try ShortQueryParser.parse("artist:velvet"))) == 20)
        #expect(try index.count(MediaQuery(filter: try ShortQueryParser.parse("artist:cale"))) == 20)
    }

    /// `artist:="John Cale"` on rows holding one artist or several ("Nico; John Cale"): rows with one value are
    /// found by the folded column's prefix index ("pg v5"), rows with several by the partial index of only
    /// them (as SQLite's "v10"), so no query reads every row.
    @Test func equalityOnAMultiValuedArtistUsesAnIndexForRowsWithOneValueAndWithSeveral() throws {
        let index = try #require(try Store.postgres.emptyLibrary() as? PostgresIndex)
        try add((0..<40).map { sampleItem("/m/\($0).mp3", title: "t\($0)", artist: $0 % 2 == 0 ? "John Cale" : "Nico; John Cale") },
                to: index)
        for query in [#"artist:="John Cale""#, #"artist:=~"john cale""#, #"artist:="Nico""#] {
            let plan = try Self.plan(index, query)
            #expect(plan.contains("items_artist_several") && plan.contains("items_artist_folded_prefix") && !plan.contains("Seq Scan"),
                    "\(query): \(plan)")
        }
        #expect(try index.count(MediaQuery(filter: try ShortQueryParser.parse(#"artist:="John Cale""#))) == 40)
        #expect(try index.count(MediaQuery(filter: try ShortQueryParser.parse(#"artist:=~"john cale""#))) == 40)
        #expect(try index.count(MediaQuery(filter: try ShortQueryParser.parse(#"artist:="Nico""#))) == 20)
        #expect(try index.count(MediaQuery(filter: try ShortQueryParser.parse(#"artist:="Nico; John Cale""#))) == 0)
    }
}
