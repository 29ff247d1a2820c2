import Testing
@testable import MediaModel

@Suite struct PredicateParserTests {
    @Test(arguments: [
        ("title == \"x\"", Comparison.Operator.equal), ("title = \"x\"", .equal), ("title != \"x\"", .notEqual),
        ("title <> \"x\"", .notEqual), ("year < 1", .less), ("year <= 1", .lessOrEqual), ("year =< 1", .lessOrEqual),
        ("year > 1", .greater), ("year >= 1", .greaterOrEqual), ("year => 1", .greaterOrEqual),
        ("title CONTAINS \"x\"", .contains), ("title contains \"x\"", .contains), ("title BEGINSWITH \"x\"", .beginsWith),
        ("title ENDSWITH \"x\"", .endsWith), ("title LIKE \"x*\"", .like), ("title MATCHES \"x.*\"", .matches),
        ("year IN {1, 2}", .in), ("year BETWEEN {1, 2}", .between),
    ])
    func everyOperator(_ format: String, _ op: Comparison.Operator) throws {
        guard case .comparison(let c) = try parse(format) else { Issue.record("not a comparison"); return }
        #expect(c.op == op)
    }

    @Test func modifiers() throws {
        let cases: [(String, Comparison.Options)] = [
            ("artist ==[c] \"x\"", .caseInsensitive), ("artist ==[d] \"x\"", .diacriticInsensitive),
            ("artist ==[cd] \"x\"", .cd), ("artist ==[dc] \"x\"", .cd), ("artist CONTAINS[CD] \"x\"", .cd),
            ("artist LIKE[c] \"x\"", .caseInsensitive), ("artist == \"x\"", []),
        ]
        for (format, options) in cases {
            guard case .comparison(let c) = try parse(format) else { Issue.record(); continue }
            #expect(c.options == options, "\(format)")
        }
    }

    @Test func literalsAreTypedByProperty() throws {
        #expect(try parse("year == 1999") == cmp(.year, .equal, 1999))
        #expect(try parse("year == \"1999\"") == cmp(.year, .equal, 1999))
        #expect(try parse("playbackDuration > 5:00") == cmp(.playbackDuration, .greater, 300.0))
        #expect(try parse("duration > \"1:02:03\"") == cmp(.playbackDuration, .greater, 3723.0))
        #expect(try parse("length < 90.5") == cmp(.playbackDuration, .less, 90.5))
        #expect(try parse("isCompilation == YES") == cmp(.isCompilation, .equal, true))
        #expect(try parse("comp == false") == cmp(.isCompilation, .equal, false))
        #expect(try parse("mediaType == music") == cmp(.mediaType, .equal, MediaType.music.rawValue))
        #expect(try parse("mediaType == \"podcast\"") == cmp(.mediaType, .equal, MediaType.podcast.rawValue))
        #expect(try parse("releaseDate > \"2001-01-01\"") == cmp(.releaseDate, .greater, "2001-01-01"))
        #expect(try parse("title == nil") == .comparison(Comparison(.title, .equal, .null)))
        #expect(try parse("title != NULL") == .comparison(Comparison(.title, .notEqual, .null)))
        #expect(try parse("title == 'single \\'quoted\\''") == cmp(.title, .equal, "single 'quoted'"))
        #expect(try parse("title == \"tab\\tnew\\nline \\\"q\\\" back\\\\slash\"") == cmp(.title, .equal, "tab\tnew\nline \"q\" back\\slash"))
        #expect(try parse("title LIKE \"a\\*b\"") == cmp(.title, .like, "a\\*b"))   // kept for LIKE
        #expect(try parse("rating >= -1") == cmp(.rating, .greaterOrEqual, -1))
        #expect(try parse("replayGainTrackGain < -6.5") == cmp(.replayGainTrackGain, .less, -6.5))
        let added = try parse("dateAdded > \"2024-01-01\"")
        #expect(added == cmp(.dateAdded, .greater, QueryLiterals.Period("2024-01-01")!.timestamp))
    }

    @Test func aliasesAndCaseOfNames() throws {
        #expect(try parse("album == \"x\"") == cmp(.albumTitle, .equal, "x"))
        #expect(try parse("ARTIST == \"x\"") == cmp(.artist, .equal, "x"))
        #expect(try parse("bpm > 120") == cmp(.beatsPerMinute, .greater, 120))
    }

    @Test func precedence() throws {
        let a = cmp(.title, .equal, "a"), b = cmp(.title, .equal, "b"), c = cmp(.title, .equal, "c")
        #expect(try parse("title == \"a\" OR title == \"b\" AND title == \"c\"") == .or([a, .and([b, c])]))
        #expect(try parse("title == \"a\" AND title == \"b\" OR title == \"c\"") == .or([.and([a, b]), c]))
        #expect(try parse("(title == \"a\" OR title == \"b\") AND title == \"c\"") == .and([.or([a, b]), c]))
        #expect(try parse("NOT title == \"a\" AND title == \"b\"") == .and([.not(a), b]))
        #expect(try parse("!(title == \"a\" || title == \"b\") && title == \"c\"") == .and([.not(.or([a, b])), c]))
        #expect(try parse("NOT NOT title == \"a\"") == .not(.not(a)))
        #expect(try parse("TRUEPREDICATE AND FALSEPREDICATE") == .and([.all, .none]))
        #expect(try parse("SEARCH \"björk\"") == .search("björk"))
    }

    @Test func listsAndRanges() throws {
        #expect(try parse("genre IN {\"Rock\", \"Pop\"}") == .comparison(Comparison(.genre, .in, .list([.text("Rock"), .text("Pop")]))))
        #expect(try parse("year BETWEEN {1990, 1999}") == .comparison(Comparison(.year, .between, .range(.integer(1990), .integer(1999)))))
        #expect(try parse("year IN {}") == .comparison(Comparison(.year, .in, .list([]))))
        #expect(try parse("duration BETWEEN {3:00, 4:30}") == .comparison(Comparison(.playbackDuration, .between, .range(.real(180), .real(270)))))
    }

    @Test func formatArgumentsAreNeverSpliced() throws {
        let p = try Predicate(format: "artist ==[cd] %@ AND year > %@", "x\" OR 1 == 1", 1995)
        #expect(p == .and([cmp(.artist, .equal, "x\" OR 1 == 1", .cd), cmp(.year, .greater, 1995)]))
        let n = try Predicate(format: "title == %@", nil)
        #expect(n == .comparison(Comparison(.title, .equal, .null)))
        #expect(throws: QueryError.self) { try Predicate(format: "title == %@") }
        #expect(throws: QueryError.self) { try Predicate(format: "title == \"x\"", "extra") }
    }

    @Test func descriptionRoundTrips() throws {
        let formats = [
            "artist ==[cd] \"Beyoncé\" AND (year BETWEEN {1990, 1999} OR NOT genre IN {\"Rock\", \"Pop\"})",
            "title == nil OR comments CONTAINS[c] \"a \\\"quoted\\\" \\\\ word\"",
            "playbackDuration > 300.5 AND mediaType == 1 AND isCompilation == true",
            "title LIKE \"a*?\" AND title MATCHES \"b.+\\\\d\" AND SEARCH \"x y\"",
            "TRUEPREDICATE", "NOT (title == \"a\" AND title == \"b\")",
        ]
        for f in formats {
            let p = try parse(f)
            #expect(try parse(p.description) == p, "\(f) → \(p.description)")
        }
    }

    /// Each bad query: the message fragment and the 0-based position it must point at.
    @Test(arguments: [
        ("artist == ", "expected a value", 10),
        ("artst == \"x\"", "unknown property 'artst' (did you mean 'artist'?)", 0),
        ("artist \"x\"", "expected an operator", 7),
        ("artist == \"x", "unterminated string", 10),
        ("(artist == \"x\"", "expected ')'", 14),
        ("artist == \"x\" title == \"y\"", "expected AND, OR", 14),
        ("year CONTAINS \"9\"", "CONTAINS needs a text property", 5),
        ("year == \"abc\"", "year expects a number", 8),
        ("duration > 5:75", "malformed duration", 11),
        ("title ==[x] \"a\"", "expected modifiers", 9),
        ("year BETWEEN {1}", "BETWEEN needs exactly two values", 13),
        ("year BETWEEN 1", "expected {low, high}", 13),
        ("title MATCHES \"(\"", "invalid regular expression", 14),
        ("title > nil", "only == and != compare with nil", 6),
        ("mediaType == banana", "expected a value; quote text", 13),
        ("mediaType == \"banana\"", "unknown media type", 13),
        ("mediaType > 1", "mediaType supports ==, != and IN", 10),
        ("title == Beatles", "expected a value; quote text as \"Beatles\"", 9),
        ("title == \"a\" AND", "expected a comparison", 16),
        ("title == \"a\" # x", "unexpected character '#'", 13),
        ("", "empty query", 0),
        ("title == 12abc", "malformed number", 9),
    ])
    func errorsNamePositionAndExpectation(_ format: String, _ fragment: String, _ position: Int) {
        do {
            _ = try parse(format)
            Issue.record("no error for \(format)")
        } catch let e as QueryError {
            #expect(e.message.contains(fragment), "\(format): \(e.message)")
            #expect(e.position == position, "\(format): \(e.message) at \(e.position ?? -1)")
            #expect(e.query == format)
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test func caretDiagramPointsAtTheError() throws {
        do { _ = try parse("artist == AND year > 1"); Issue.record("no error") } catch let e as QueryError {
            #expect(e.caretDiagram == "artist == AND year > 1\n          ^")
            #expect(e.description.hasSuffix("(at position 11)"))
        }
    }

    @Test func formatDetection() {
        #expect(PredicateParser.looksLikeFormat("artist == \"x\""))
        #expect(PredicateParser.looksLikeFormat("year BETWEEN {1, 2}"))
        #expect(PredicateParser.looksLikeFormat("title contains \"x\""))
        #expect(PredicateParser.looksLikeFormat("year>1"))
        #expect(!PredicateParser.looksLikeFormat("artist:Björk"))
        #expect(!PredicateParser.looksLikeFormat("year:1990..1999"))
        #expect(!PredicateParser.looksLikeFormat("love"))
        #expect(!PredicateParser.looksLikeFormat("title:love song"))
        #expect(!PredicateParser.looksLikeFormat("title:a<b"))
        #expect(!PredicateParser.looksLikeFormat("^comments:x == y"))
        #expect(PredicateParser.looksLikeFormat("playbackDuration > 5:00"))
    }
}
