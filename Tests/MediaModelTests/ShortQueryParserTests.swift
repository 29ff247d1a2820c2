import Testing
import TestSupport
@testable import MediaModel

@Suite struct ShortQueryParserTests {
    func short(_ terms: String...) throws -> Predicate { try ShortQueryParser.parse(terms: terms) }

    @Test func textFieldsAreFoldedSubstrings() throws {
        #expect(try short("artist:Björk") == cmp(.artist, .contains, "Björk", .cd))
        #expect(try short("title:love song") == cmp(.title, .contains, "love song", .cd))
        #expect(try short("artist:=Björk") == cmp(.artist, .equal, "Björk"))
        #expect(try short("artist:=~bjork") == cmp(.artist, .equal, "bjork", .cd))
        #expect(try short("title::^lo+ve") == cmp(.title, .matches, "(?s).*(?:^lo+ve).*", .caseInsensitive))
    }

    @Test func numbersRangesAndAlternatives() throws {
        #expect(try short("year:1999") == cmp(.year, .equal, 1999))
        #expect(try short("year:1990..1999") == .and([cmp(.year, .greaterOrEqual, 1990), cmp(.year, .lessOrEqual, 1999)]))
        #expect(try short("year:1990..") == cmp(.year, .greaterOrEqual, 1990))
        // A range that runs backwards is an error that points at it, not a query that matches nothing.
        #expect(throws: QueryError.self) { try short("year:2000..1990") }
        do { _ = try short("year:2000..1990") } catch let e as QueryError {
            #expect(e.position == 5 && e.description.contains("runs backwards"), "\(e)")
        }
        #expect(throws: QueryError.self) { try short("length:5:00..3:00") }
        #expect(throws: QueryError.self) { try short("added:2024-05..2023") }
        #expect(try short("year:1990..1990") == .and([cmp(.year, .greaterOrEqual, 1990), cmp(.year, .lessOrEqual, 1990)]))
        #expect(try short("year:..1999") == cmp(.year, .lessOrEqual, 1999))
        #expect(try short("length:3:00..5:00") == .and([cmp(.playbackDuration, .greaterOrEqual, 180.0),
                                                         cmp(.playbackDuration, .lessOrEqual, 300.0)]))
        #expect(try short("genre:rock,pop") == .or([cmp(.genre, .contains, "rock", .cd), cmp(.genre, .contains, "pop", .cd)]))
        #expect(try short("artist:Crosby\\, Stills") == cmp(.artist, .contains, "Crosby, Stills", .cd))
        #expect(try short("comp:yes") == cmp(.isCompilation, .equal, true))
        #expect(try short("type:music") == cmp(.mediaType, .equal, MediaType.music.rawValue))
    }

    @Test func datesArePeriods() throws {
        #expect(try short("date:2001") == .and([cmp(.releaseDate, .greaterOrEqual, "2001"), cmp(.releaseDate, .less, "2002")]))
        #expect(try short("date:2001..2003-12") == .and([cmp(.releaseDate, .greaterOrEqual, "2001"), cmp(.releaseDate, .less, "2004-01")]))
        #expect(try short("date:..2003-05-31") == cmp(.releaseDate, .less, "2003-06-01"))
        let start = QueryLiterals.Period("2024-05")!.timestamp, end = QueryLiterals.Period("2024-06")!.timestamp
        #expect(try short("added:2024-05") == .and([cmp(.dateAdded, .greaterOrEqual, start), cmp(.dateAdded, .less, end)]))
    }

    @Test func negationSearchMissingAndPaths() throws {
        #expect(try short("^comments:live") == .not(cmp(.comments, .contains, "live", .cd)))
        #expect(try short("homogenic") == .search("homogenic"))
        #expect(try short("^live") == .not(.search("live")))
        #expect(try short("title:") == .comparison(Comparison(.title, .equal, .null)))
        #expect(try short("^title:") == .not(.comparison(Comparison(.title, .equal, .null))))
        #expect(try short("path:/music/a") == cmp(.path, .beginsWith, "/music/a"))
        #expect(try short("path:live") == cmp(.path, .contains, "live", .cd))
        #expect(try short("artist:Björk", "year:1997") == .and([cmp(.artist, .contains, "Björk", .cd), cmp(.year, .equal, 1997)]))
    }

    @Test func lineSplittingHonoursQuotes() throws {
        #expect(try ShortQueryParser.split("artist:Björk \"title:love song\" 'a b'  c") == ["artist:Björk", "title:love song", "a b", "c"])
        #expect(try ShortQueryParser.parse("\"title:love song\" ^live") == .and([cmp(.title, .contains, "love song", .cd), .not(.search("live"))]))
        #expect(throws: QueryError.self) { try ShortQueryParser.split("a \"b") }
    }

    @Test(arguments: [
        ("artst:x", "unknown field 'artst' (did you mean 'artist'?)", 0),
        ("^artst:x", "unknown field", 1),
        ("year:abc", "year expects a number", 5),
        ("year:1990..abc", "year expects a number", 5),
        ("type:banana", "unknown media type", 5),
        ("title::(", "invalid regular expression", 7),
    ])
    func errorsPointIntoTheTerm(_ term: String, _ fragment: String, _ position: Int) {
        do { _ = try ShortQueryParser.parse(terms: [term]); Issue.record("no error for \(term)") } catch let e as QueryError {
            #expect(e.message.contains(fragment), "\(term): \(e.message)")
            #expect(e.position == position, "\(term): at \(e.position ?? -1)")
        } catch { Issue.record("\(error)") }
    }
}

@Suite struct QueryArgumentsTests {
    /// `mlib ls 'artist:x)'` searched for artists containing "x)", printed nothing and exited 0: a word
    /// ending in ')' while no '(' is open is an unbalanced ')', an error at that ')' (as an unclosed '(' is).
    @Test func aClosingParenthesisWithNoneOpenIsAnErrorAtIt() throws {
        for (argument, at) in [("artist:x)", 8), ("(artist:x))", 9), ("x)", 1)] {
            do {
                let p = try QueryArguments.predicate([argument])
                Issue.record("\(argument) parsed as \(p)")
            } catch let e as QueryError {
                #expect(e.message.contains("unbalanced ')'"), "\(argument): \(e)")
                #expect(e.query == argument && e.position == at, "\(argument): \(e), position \(String(describing: e.position))")
                #expect(e.caretDiagram != nil)
            }
        }
        // Still terms: a value's own balanced parentheses, an escaped ')', a group.
        #expect(try QueryArguments.predicate(["title:(live)"]) == cmp(.title, .contains, "(live)", .cd))
        #expect(try QueryArguments.predicate(["artist:x\\)"]) == cmp(.artist, .contains, "x)", .cd))
        #expect(try QueryArguments.predicate(["(artist:x)"]) == cmp(.artist, .contains, "x", .cd))
    }

    /// Issue 24, case 11: 60,000 unbalanced `(` in one argument took 28.8 s (each peeled parenthesis
    /// recounted the rest of the word); refused as too deep in well under a second of CPU.
    @Test func sixtyThousandOpeningParenthesesAreRefusedQuickly() throws {
        for argument in [String(repeating: "(", count: 60_000) + "a", String(repeating: "(", count: 60_000),
                         "a" + String(repeating: ")", count: 60_000)] {
            let started = threadCPUSeconds()
            _ = try? QueryArguments.parse([argument])
            let elapsed = threadCPUSeconds() - started
            #expect(elapsed < 1, "\(argument.prefix(3))…: \(elapsed) s of CPU")
        }
    }

    @Test func eachArgumentIsAFormatStringOrAShortTerm() throws {
        let p = try QueryArguments.predicate(["artist:Björk", "year > 1995", "homogenic"])
        #expect(p == .and([cmp(.artist, .contains, "Björk", .cd), cmp(.year, .greater, 1995), .search("homogenic")]))
        #expect(try QueryArguments.predicate([]) == .all)
        #expect(try QueryArguments.predicate(["title:a<b"]) == cmp(.title, .contains, "a<b", .cd))
        // A format string split by the shell into words is read whole.
        #expect(try QueryArguments.predicate(["year", ">", "1995"]) == cmp(.year, .greater, 1995))
        #expect(throws: QueryError.self) { try QueryArguments.predicate(["artist == Beatles"]) }
    }

    @Test func templates() throws {
        let item = makeItem(1, [.title: "Hyperballad", .artist: "Björk", .playbackDuration: 321.0, .mediaType: MediaType.music])
        #expect(try ItemTemplate("$artist - $title").render(item) == "Björk - Hyperballad")
        #expect(try ItemTemplate("${title:6}|${artist:>7}|$duration|$type|$album|$$").render(item) == "Hyper…|  Björk|5:21|music||$")
        #expect(throws: QueryError.self) { try ItemTemplate("$name") }   // only with extraNames
        #expect(try ItemTemplate("$name\\t$count", extraNames: ["name", "count"]).render(item, extra: ["name": "n", "count": "2"]) == "n\t2")
        #expect(throws: QueryError.self) { try ItemTemplate("$artst") }
        #expect(throws: QueryError.self) { try ItemTemplate("${title") }
        #expect(throws: QueryError.self) { try ItemTemplate("${title:x}") }
        // Reals with at most six decimals, trailing zeros dropped (it printed all 17 digits a Double holds).
        let measured = makeItem(2, [.loudness: -15.123456789012345, .trackGain: -6.5, .trackPeak: 2.0, .albumPeak: 0.912345])
        #expect(try ItemTemplate("$loudness $trackGain $trackPeak $albumPeak").render(measured) == "-15.123457 -6.5 2 0.912345")
    }
}
