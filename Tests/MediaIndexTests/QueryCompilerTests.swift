import Foundation
import GRDB
@testable import MediaIndex
@testable import SQLiteStore
@testable import PostgresStore
import MediaModel
import PostgresTestServer
import Testing

/// A library in memory holding `items` (ids 1…n in order), with user data written as the player would,
/// and the items as read back (the reference the in-memory evaluator runs on).
func queryLibrary(_ items: [MediaItem]) throws -> (SQLiteIndex, [MediaItem]) {
    let (index, stored) = try queryLibrary(items, on: .sqlite)
    return (index as! SQLiteIndex, stored)
}

/// The same on either store.
func queryLibrary(_ items: [MediaItem], on store: Store) throws -> (any LibraryStore, [MediaItem]) {
    let index = try store.emptyLibrary()
    try index.apply(items.map { .add($0, FileStamp(size: 1, mtimeNanoseconds: 1, inode: 1), fingerprint: 1) }, generation: nil)
    for (n, item) in items.enumerated() {
        let values = [item[.playCount]?.real, item.userRating.map(Double.init), item[.lastPlayedDate]?.real, item[.dateAdded]?.real ?? 1_700_000_000]
        if let sqlite = index as? SQLiteIndex {
            try sqlite.write { db in
                try db.execute(sql: "UPDATE items SET playCount = ?, rating = ?, lastPlayedDate = ?, dateAdded = ? WHERE id = ?",
                               arguments: [item[.playCount].map(QueryCompiler.bind), item.userRating?.databaseValue,
                                           item[.lastPlayedDate].map(QueryCompiler.bind),
                                           item[.dateAdded].map(QueryCompiler.bind) ?? 1_700_000_000.databaseValue, n + 1])
            }
        } else if let postgres = index as? PostgresIndex {
            try postgres.testExecute("UPDATE items SET \"playCount\" = ?, rating = ?, \"lastPlayedDate\" = ?, \"dateAdded\" = ? WHERE id = ?",
                                     values + [Double(n + 1)])
        }
    }
    let stored = try index.items(MediaQuery(sort: [SortDescriptor(.persistentID)]))
    return (index, stored)
}

func queryItem(_ values: [MediaProperty: any MediaValueConvertible], path: String) -> MediaItem {
    var item = MediaItem(path: MediaPath(path))
    for (p, v) in values { item[p] = v.mediaValue }
    return item
}

@Suite struct QueryCompilerTests {
    static let items: [MediaItem] = [
        queryItem([.title: "Hyperballad", .artist: "Björk", .albumTitle: "Post", .year: 1995, .genre: "Electronic",
                   .playbackDuration: 321.0, .mediaType: MediaType.music, .isCompilation: false, .albumTrackNumber: 3], path: "/m/a/1.mp3"),
        queryItem([.title: "Crazy in Love", .artist: "Beyoncé", .year: 2003, .playbackDuration: 236.0,
                   .mediaType: MediaType.music, .comments: "100% live_take *edit*"], path: "/m/a/2.flac"),
        queryItem([.title: "BEYONCE interview", .artist: "BEYONCE", .mediaType: MediaType.podcast, .year: 2013,
                   .playCount: 5, .rating: 4], path: "/m/b/3.m4a"),
        queryItem([.artist: "The Beatles", .mediaType: MediaType.musicVideo, .releaseDate: "1969-09-26"], path: "/m/b/4.mkv"),
        queryItem([.title: "e\u{301}t\u{E9}", .releaseDate: "2001", .mediaType: MediaType.audioBook,
                   .dateAdded: 1_000_000_000.0], path: "/m/5.opus"),
    ]

    /// Format string → ids expected; SQL and the evaluator must both give exactly these.
    static let cases: [(String, [Int64])] = [
        ("artist == \"Beyoncé\"", [2]), ("artist == \"beyonce\"", []), ("artist ==[c] \"beyoncé\"", [2]),
        ("artist ==[d] \"Beyonce\"", [2]), ("artist ==[cd] \"beyonce\"", [2, 3]), ("title == \"\u{E9}t\u{E9}\"", []),
        ("title ==[d] \"ete\"", [5]), ("artist != \"Björk\"", [2, 3, 4]), ("title CONTAINS \"Love\"", [2]),
        ("title CONTAINS[c] \"love\"", [2]), ("artist BEGINSWITH \"B\"", [1, 2, 3]), ("artist ENDSWITH[cd] \"ONCE\"", [2, 3]),
        ("title LIKE \"*ball*\"", [1]), ("title LIKE \"Hyper?allad\"", [1]), ("title LIKE \"hyper*\"", []),
        ("title LIKE[c] \"hyper*\"", [1]), ("title MATCHES \"Hyper.*\"", [1]), ("title MATCHES \"yper.*\"", []),
        ("title MATCHES[c] \"crazy.*love\"", [2]), ("artist MATCHES[cd] \"beyonce\"", [2, 3]),
        ("artist < \"Bz\"", [1, 2, 3]), ("artist BETWEEN {\"B\", \"Bj\"}", [2, 3]),
        ("artist IN {\"Björk\", \"BEYONCE\"}", [1, 3]), ("artist IN[cd] {\"bjork\"}", [1]), ("year IN {}", []),
        ("comments CONTAINS \"100%\"", [2]), ("comments CONTAINS \"e_t\"", [2]), ("comments CONTAINS \"l_ve\"", []),
        ("comments LIKE \"100% *\"", [2]), ("comments LIKE \"*\\\\*edit\\\\*\"", [2]), ("comments LIKE \"*\\\\*edit\"", []),
        ("comments ENDSWITH \"*edit*\"", [2]), ("comments BEGINSWITH \"1?0\"", []), ("comments CONTAINS[cd] \"LIVE\"", [2]),
        ("title == nil", [4]), ("title != nil", [1, 2, 3, 5]), ("year != 1995", [2, 3]), ("NOT year == 1995", [2, 3, 4, 5]),
        ("NOT (year > 2000 OR genre == \"Electronic\")", [4, 5]), ("comments CONTAINS \"\"", [2]),
        ("mediaType == music", [1, 2]), ("mediaType == anyAudio", [1, 2, 3, 5]), ("mediaType == anyVideo", [4]),
        ("mediaType != anyAudio", [4]), ("mediaType IN {podcast, audioBook}", [3, 5]),
        ("playbackDuration > 5:00", [1]), ("duration BETWEEN {3:00, 5:00}", [2]), ("year BETWEEN {1990, 2003}", [1, 2]),
        ("year IN {1995, 2013}", [1, 3]), ("year >= 2003.5", [3]), ("releaseDate > \"1970\"", [5]),
        ("releaseDate BEGINSWITH \"1969\"", [4]), ("isCompilation == false", [1]), ("path ENDSWITH \"/3.m4a\"", [3]),
        ("path BEGINSWITH \"/m/b/\"", [3, 4]), ("path CONTAINS[c] \"FLAC\"", [2]), ("persistentID == 3", [3]),
        ("playCount > 1 AND rating == 4", [3]), ("dateAdded < \"2002-01-01\"", [5]),
        ("albumTrackNumber <= 3 OR year < 1996", [1]), ("SEARCH \"bjo\"", [1]), ("SEARCH \"beyon\"", [2, 3]),
        ("SEARCH \"beyonce interv\"", [3]), ("SEARCH \"ove\"", []), ("NOT SEARCH \"beyonce\"", [1, 4, 5]),
        ("TRUEPREDICATE", [1, 2, 3, 4, 5]), ("FALSEPREDICATE", []),
    ]

    @Test(arguments: Store.available) func everyOperatorInSQLAgreesWithTheEvaluator(_ store: Store) throws {
        let (index, stored) = try queryLibrary(Self.items, on: store)
        for (format, expected) in Self.cases {
            let p = try PredicateParser.parse(format)
            let sql = try index.items(MediaQuery(filter: p, sort: [SortDescriptor(.persistentID)])).map(\.persistentID)
            let memory = stored.filter(try PredicateEvaluator(p).matches).map(\.persistentID)
            #expect(sql == expected, "SQL: \(format)")
            #expect(memory == expected, "memory: \(format)")
            #expect(try index.count(MediaQuery(filter: p)) == expected.count, "count: \(format)")
        }
    }

    @Test func foldedComparisonsUseTheStoredFoldedColumn() throws {
        let p = try PredicateParser.parse("artist ==[cd] \"bjork\"")
        let (sql, _) = try QueryCompiler.itemsSQL(MediaQuery(filter: p))
        #expect(sql.contains("\"artist_folded\" = ?"))
        #expect(!sql.contains("mlib_fold"))
        let (index, _) = try queryLibrary(Self.items)
        // A single-valued folded property uses its index. So does a multi-valued one: rows holding one value
        // through the folded index, rows holding several through the partial index of those rows alone; no
        // full scan of the table.
        for format in ["title ==[cd] \"bjork\"", "artist ==[cd] \"bjork\"", "artist == \"Björk\"", "genre IN {\"Rock\", \"Jazz\"}",
                       "albumArtist BEGINSWITH[cd] \"bj\"", "composer ==[cd] \"x\""] {
            let (sql, arguments) = try QueryCompiler.itemsSQL(MediaQuery(filter: try PredicateParser.parse(format)))
            let plan = try index.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
            }
            let property = format.prefix { $0 != " " }
            #expect(plan.contains { $0.contains("items_\(property)_folded") }, "\(format): \(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN items") && !$0.contains("INDEX") }, "\(format): \(plan)")
            if property != "title" {
                #expect(plan.contains { $0.contains("items_\(property)_values") }, "\(format): \(plan)")
            }
        }
    }

    @Test func valuesAreBoundNeverSpliced() throws {
        let p = try PredicateParser.parse("title == \"x'); DROP TABLE items; --\" OR artist CONTAINS \"%\"")
        let (sql, arguments) = try QueryCompiler.itemsSQL(MediaQuery(filter: p))
        #expect(!sql.contains("DROP"))
        #expect(!sql.contains("%"))
        #expect(arguments.description.contains("DROP TABLE"))
    }

    static let nasty = ["it's", "say \"hi\"", "100%", "a_b", "a*b", "a?b", "[x]", "back\\slash", "x'); DROP TABLE items; --",
                        "%", "_", "*", "\\", "' OR '1'='1", "a%b_c*d?e[f]g\\h"]

    @Test func injectionProofValuesMatchLiterally() throws {
        var items = Self.nasty.enumerated().map { queryItem([.title: $1, .comments: $1], path: "/n/\($0)") }
        items.append(queryItem([.title: "plain", .comments: "plain"], path: "/n/plain"))
        let (index, stored) = try queryLibrary(items)
        for (n, value) in Self.nasty.enumerated() {
            let id = Int64(n + 1)
            for op in ["==", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "==[cd]", "CONTAINS[c]", "BEGINSWITH[d]"] {
                for property in ["title", "comments"] {
                    // LIKE treats * ? and \ as pattern characters; escape them to ask for the literal.
                    var literal = value
                    if op == "LIKE" {
                        literal = value.replacingOccurrences(of: "\\", with: "\\\\")
                            .replacingOccurrences(of: "*", with: "\\*").replacingOccurrences(of: "?", with: "\\?")
                    }
                    let p = try Predicate(format: "\(property) \(op) %@", literal)
                    let sql = try index.items(MediaQuery(filter: p, sort: [SortDescriptor(.persistentID)])).map(\.persistentID)
                    let memory = stored.filter(try PredicateEvaluator(p).matches).map(\.persistentID)
                    #expect(sql == memory, "\(property) \(op) \(value)")
                    #expect(sql.contains(id), "\(property) \(op) \(value) must find itself")
                    if op == "==" || op == "LIKE" { #expect(sql == [id], "\(property) \(op) \(value)") }
                    #expect(!sql.contains(Int64(items.count)), "\(property) \(op) \(value) must not match 'plain'")
                }
            }
            let inList = try Predicate(format: "title IN {%@, %@}", value, "nothing")
            #expect(try index.items(MediaQuery(filter: inList)).map(\.persistentID) == [id])
            let regex = try Predicate(format: "title MATCHES %@", NSRegularExpression.escapedPattern(for: value))
            #expect(try index.items(MediaQuery(filter: regex)).map(\.persistentID) == [id])
        }
        #expect(try index.count(MediaQuery()) == items.count)     // the table is still there
        // Short form too: `title:%` is a substring search for a literal percent sign.
        let short = try ShortQueryParser.parse(terms: ["title:%"])
        #expect(try index.items(MediaQuery(filter: short)).map(\.persistentID).sorted() == [3, 10, 15])
        // FTS syntax in search words is not interpreted.
        for words in ["\"", "a OR b", "NEAR(x y)", "title:*", "^x", "-x", "x*"] {
            #expect(throws: Never.self) { try index.items(MediaQuery(filter: .search(words))) }
        }
    }

    @Test func invalidPredicatesFailWithAQueryError() throws {
        let (index, _) = try queryLibrary(Self.items)
        #expect(throws: QueryError.self) { try index.items(MediaQuery(filter: MediaProperty.year.contains("9"))) }
        #expect(throws: QueryError.self) { try index.count(MediaQuery(filter: MediaProperty.title.matches("("))) }
    }

    @Test func sortingPagingAndAlbumOrder() throws {
        let (index, stored) = try queryLibrary(Self.items)
        for sortText in ["artist", "-year,title", "album", "path", "-playbackDuration", "releaseDate", "mediaType,-artist"] {
            for (limit, offset) in [(nil, 0), (2, 1), (10, 4)] as [(Int?, Int)] {
                let q = MediaQuery(sort: try SortDescriptor.parseList(sortText, ignoreArticles: sortText == "artist"),
                                   limit: limit, offset: offset)
                #expect(try index.items(q).map(\.persistentID) == (try q.apply(to: stored)).map(\.persistentID), "\(sortText)")
            }
        }
        let (sql, _) = try QueryCompiler.itemsSQL(MediaQuery(sort: [SortDescriptor(.albumTitle)]))
        #expect(sql.contains("\"discNumber\" ASC") && sql.contains("\"albumTrackNumber\" ASC"))
    }
}
