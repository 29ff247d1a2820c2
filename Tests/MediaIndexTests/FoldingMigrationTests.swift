import Foundation
import GRDB
@testable import MediaIndex
@testable import SQLiteStore
import MediaModel
import Testing

/// Folding transliterates letters that do not decompose (ð, þ, æ, ø, ß, œ, ł…), in queries and in the
/// stored `*_folded` columns; migration v7 recomputes the columns of a library folded the old way.
struct FoldingMigrationTests {
    @Test func transliteratedLettersMatchInEveryQueryForm() throws {
        #expect(TextFolding.folded("Guðnadóttir") == "gudnadottir")
        #expect(TextFolding.folded("Ævintýri") == "aevintyri")
        #expect(TextFolding.folded("Straße Œuvre Łódź Þór Søren") == "strasse oeuvre lodz thor soren")
        let index = try SQLiteIndex(inMemory: ())
        try index.add([sampleItem("/m/1.flac", title: "Ævintýri", artist: "Hildur Guðnadóttir"),
                       sampleItem("/m/2.flac", title: "Other", artist: "Someone")])
        for query in ["artist:gudnadottir", "title:aevintyri", "gudnadottir", #"artist ==[cd] "hildur gudnadottir""#,
                      #"SEARCH "aevin""#, "artist:=~hildur gudnadottir"] {
            let predicate = try QueryArguments.predicate([query])
            #expect(try index.items(MediaQuery(filter: predicate)).map(\.path.string) == ["/m/1.flac"], "\(query)")
            let evaluator = try PredicateEvaluator(predicate)
            #expect(evaluator.matches(sampleItem("/m/1.flac", title: "Ævintýri", artist: "Hildur Guðnadóttir")), "\(query) in memory")
        }
    }

    @Test func migrationV7RecomputesFoldedColumnsAndTheFullTextIndex() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("lib.sqlite").path
        do {
            let index = try SQLiteIndex(path: path)
            try index.add([sampleItem("/m/1.flac", title: "Ævintýri", artist: "Guðnadóttir")])
        }
        // The library as v5 left it: folded the old way (ð and æ kept), v7 not applied.
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "UPDATE items SET artist_folded = 'guðnadottir', title_folded = 'ævintyri'")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v7:%'")
        }
        try queue.close()
        let index = try SQLiteIndex(path: path)
        #expect(try index.textRows("SELECT artist_folded, title_folded FROM items") == [["gudnadottir", "aevintyri"]])
        #expect(try index.items(MediaQuery(filter: try QueryArguments.predicate(["gudnadottir"]))).count == 1)
        #expect(try index.items(MediaQuery(filter: try QueryArguments.predicate(["aevintyri"]))).count == 1)
        #expect(try index.integrityCheck() == "ok")
    }
}
