import MediaModel
import Testing

/// The query forms users type (issue 14): short terms combined with AND/OR/NOT and parentheses, quoted
/// values, `SEARCH "words"` alone, `=~`, warnings for mistyped operators, invalid dates, depth limits.
struct QueryFormsUsersTypeTests {
    let items = [
        makeItem(1, [.artist: "Björk", .year: 1999, .albumTitle: "Bright Engine", .title: "Joga"]),
        makeItem(2, [.artist: "Zaz", .year: 2010, .albumTitle: "Recto Verso", .title: "On ira"]),
        makeItem(3, [.artist: "Björk", .year: 2004, .albumTitle: "Medúlla", .title: "Oceania"]),
        makeItem(4, [.artist: "Other", .year: 1999, .albumTitle: "bright", .title: "x"]),
    ]

    func matches(_ arguments: [String]) throws -> [Int64] {
        let e = try PredicateEvaluator(try QueryArguments.predicate(arguments))
        return items.filter(e.matches).map(\.persistentID)
    }

    @Test(arguments: [
        (["artist:Björk AND year:1999"], [Int64(1)]),
        (["artist:Björk", "AND", "year:1999"], [1]),
        (["artist:Björk OR artist:Zaz"], [1, 2, 3]),
        (["artist:Björk", "OR", "artist:Zaz"], [1, 2, 3]),
        (["NOT artist:Björk"], [2, 4]),
        (["( artist:Zaz OR year:2004 ) NOT title:oceania"], [2]),
        (["(artist:Zaz", "OR", "year:2004)", "NOT", "title:oceania"], [2]),
        (["year:1999 artist:Björk OR artist:Zaz"], [1, 2]),
        (["album:\"bright engine\""], [1]),
        (["album:'bright engine'"], [1]),
        (["album:bright", "title:(live)"], []),
        (["SEARCH \"ocean\""], [3]),
        (["title =~ \"JOGA\""], [1]),
        (["\"title:on ira\""], [2]),
        (["title:on ira"], [2]),
    ])
    func shortTermsCombine(_ arguments: [String], _ expected: [Int64]) throws {
        #expect(try matches(arguments) == expected, "\(arguments)")
    }

    @Test func mistypedOperatorsWarn() throws {
        #expect(try QueryArguments.parse(["artist:Björk", "or", "artist:Zaz"]).warnings.first?.contains("write OR") == true)
        #expect(try QueryArguments.parse(["artist:Björk or artist:Zaz"]).warnings.isEmpty == false)
        #expect(try QueryArguments.parse(["artist:Björk OR artist:Zaz"]).warnings.isEmpty)
    }

    @Test func unbalancedAndDanglingOperatorsAreErrors() {
        for arguments in [["(artist:x"], ["artist:x", ")"], ["artist:x OR"], ["AND artist:x"], ["NOT"]] {
            #expect(throws: QueryError.self, "\(arguments)") { try QueryArguments.predicate(arguments) }
        }
    }

    @Test func invalidDatesAreErrors() throws {
        for query in ["date:2003-02-31", "releaseDate == \"2003-02-30\"", "date:2003-13", "date:2003-02-29..", "added:2003-04-31"] {
            #expect(throws: QueryError.self, "\(query)") { try QueryArguments.predicate([query]) }
        }
        for query in ["date:2004-02-29", "date:2003", "date:2003-02", "added:-7d.."] {
            #expect(throws: Never.self, "\(query)") { try QueryArguments.predicate([query]) }
        }
    }

    @Test func nestingIsLimitedWithAClearError() {
        let deep = String(repeating: "(", count: 40_000) + "year == 1" + String(repeating: ")", count: 40_000)
        let bangs = String(repeating: "!", count: 60_000) + "year == 1"
        let shortDeep = Array(repeating: "(", count: 5_000) + ["year:1"] + Array(repeating: ")", count: 5_000)
        let nots = Array(repeating: "NOT", count: 60_000) + ["year:1"]
        for arguments in [[deep], [bangs], shortDeep, nots] {
            do { _ = try QueryArguments.predicate(arguments); Issue.record("accepted") } catch let e as QueryError {
                #expect(e.message.contains("nests too deeply"))
                #expect((e.caretDiagram ?? "").count < 300)
            } catch { Issue.record("\(error)") }
        }
        #expect(throws: Never.self) {
            try QueryArguments.predicate([String(repeating: "(", count: 50) + "year == 1" + String(repeating: ")", count: 50)])
        }
    }

    /// `-f` pads and cuts by terminal columns: CJK is two columns wide, combining marks none.
    @Test func templateWidthsCountColumns() throws {
        let item = makeItem(1, [.title: "日本語", .artist: "Cafe\u{301}", .albumTitle: "日本語のアルバム"])
        #expect(try ItemTemplate("[${title:8}][${artist:>6}][${album:7}]").render(item) == "[日本語  ][  Café][日本語…]")
        #expect(ItemTemplate.columns("日本語") == 6)
    }
}
