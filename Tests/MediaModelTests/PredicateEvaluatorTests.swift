import Testing
@testable import MediaModel

@Suite struct PredicateEvaluatorTests {
    let items: [MediaItem] = [
        makeItem(1, [.title: "Hyperballad", .artist: "Björk", .albumTitle: "Post", .year: 1995, .genre: "Electronic",
                     .playbackDuration: 321.0, .mediaType: MediaType.music, .isCompilation: false]),
        makeItem(2, [.title: "Crazy in Love", .artist: "Beyoncé", .year: 2003, .playbackDuration: 236.0,
                     .mediaType: MediaType.music, .comments: "100% live_take *edit*"]),
        makeItem(3, [.title: "BEYONCE interview", .artist: "BEYONCE", .mediaType: MediaType.podcast, .year: 2013]),
        makeItem(4, [.artist: "The Beatles", .mediaType: MediaType.musicVideo, .releaseDate: "1969-09-26"]),
        makeItem(5, [.title: "e\u{301}t\u{E9}", .releaseDate: "2001", .mediaType: MediaType.audioBook]),
    ]

    @Test func exactComparisonIsBinary() throws {
        #expect(try ids("artist == \"Beyoncé\"", in: items) == [2])
        #expect(try ids("artist == \"beyonce\"", in: items) == [])
        #expect(try ids("artist ==[c] \"beyoncé\"", in: items) == [2])
        #expect(try ids("artist ==[d] \"Beyonce\"", in: items) == [2])
        #expect(try ids("artist ==[cd] \"beyonce\"", in: items) == [2, 3])
        // Canonically equivalent but different code points: exact says no, [d] says yes.
        #expect(try ids("title == \"\u{E9}t\u{E9}\"", in: items) == [])
        #expect(try ids("title ==[d] \"ete\"", in: items) == [5])
    }

    @Test func stringOperators() throws {
        #expect(try ids("title CONTAINS \"Love\"", in: items) == [2])
        #expect(try ids("title CONTAINS[c] \"love\"", in: items) == [2])
        #expect(try ids("artist BEGINSWITH \"B\"", in: items) == [1, 2, 3])
        #expect(try ids("artist ENDSWITH[cd] \"ONCE\"", in: items) == [2, 3])
        #expect(try ids("title LIKE \"*ball*\"", in: items) == [1])
        #expect(try ids("title LIKE \"Hyper?allad\"", in: items) == [1])
        #expect(try ids("title LIKE \"hyper*\"", in: items) == [])
        #expect(try ids("title LIKE[c] \"hyper*\"", in: items) == [1])
        #expect(try ids("title MATCHES \"Hyper.*\"", in: items) == [1])
        #expect(try ids("title MATCHES \"yper.*\"", in: items) == [])         // whole string
        #expect(try ids("title MATCHES[c] \"crazy.*love\"", in: items) == [2])
        #expect(try ids("artist MATCHES[cd] \"beyonce\"", in: items) == [2, 3])
        #expect(try ids("artist < \"Bz\"", in: items) == [1, 2, 3])
        #expect(try ids("artist BETWEEN {\"B\", \"Bj\"}", in: items) == [2, 3])
        #expect(try ids("artist IN {\"Björk\", \"BEYONCE\"}", in: items) == [1, 3])
        #expect(try ids("artist IN[cd] {\"bjork\"}", in: items) == [1])
    }

    @Test func wildcardsAndSpecialCharactersAreLiteral() throws {
        #expect(try ids("comments CONTAINS \"100%\"", in: items) == [2])
        #expect(try ids("comments CONTAINS \"e_t\"", in: items) == [2])
        #expect(try ids("comments CONTAINS \"l_ve\"", in: items) == [])
        #expect(try ids("comments LIKE \"100% *\"", in: items) == [2])
        #expect(try ids("comments LIKE \"*\\\\*edit\\\\*\"", in: items) == [2])   // \* is a literal star
        #expect(try ids("comments LIKE \"*\\\\*edit\"", in: items) == [])
        #expect(try ids("comments ENDSWITH \"*edit*\"", in: items) == [2])
        #expect(try ids("comments BEGINSWITH \"1?0\"", in: items) == [])
    }

    @Test func missingValuesCompareFalseAndNotNegates() throws {
        #expect(try ids("title == nil", in: items) == [4])
        #expect(try ids("title != nil", in: items) == [1, 2, 3, 5])
        #expect(try ids("year != 1995", in: items) == [2, 3])                 // 4 and 5 have no year
        #expect(try ids("NOT year == 1995", in: items) == [2, 3, 4, 5])
        #expect(try ids("NOT (year > 2000 OR genre == \"Electronic\")", in: items) == [4, 5])
        #expect(try ids("comments CONTAINS \"\"", in: items) == [2])          // empty string: any present value
    }

    @Test func mediaTypeIsABitmask() throws {
        #expect(try ids("mediaType == music", in: items) == [1, 2])
        #expect(try ids("mediaType == anyAudio", in: items) == [1, 2, 3, 5])
        #expect(try ids("mediaType == anyVideo", in: items) == [4])
        #expect(try ids("mediaType != anyAudio", in: items) == [4])
        #expect(try ids("mediaType IN {podcast, audioBook}", in: items) == [3, 5])
        let apple = MediaPropertyPredicate(value: MediaType.anyAudio, forProperty: .mediaType).predicate
        #expect(items.filter { apple.evaluate($0) }.map(\.persistentID) == [1, 2, 3, 5])
    }

    @Test func numbersDurationsDatesBooleans() throws {
        #expect(try ids("playbackDuration > 5:00", in: items) == [1])
        #expect(try ids("duration BETWEEN {3:00, 5:00}", in: items) == [2])
        #expect(try ids("year BETWEEN {1990, 2003}", in: items) == [1, 2])
        #expect(try ids("year IN {1995, 2013}", in: items) == [1, 3])
        #expect(try ids("year >= 2003.5", in: items) == [3])
        #expect(try ids("releaseDate > \"1970\"", in: items) == [5])
        #expect(try ids("releaseDate BEGINSWITH \"1969\"", in: items) == [4])
        #expect(try ids("isCompilation == false", in: items) == [1])
        #expect(try ids("path ENDSWITH \"/3.mp3\"", in: items) == [3])
    }

    @Test func fullTextSearchMatchesWordPrefixes() throws {
        let e = { (q: String) in items.filter { Predicate.search(q).evaluate($0) }.map(\.persistentID) }
        #expect(e("bjo") == [1])
        #expect(e("beyon") == [2, 3])
        #expect(e("beyonce interv") == [3])
        #expect(e("love crazy") == [2])
        #expect(e("ove") == [])               // prefixes of words, not substrings
        #expect(e("beatles") == [4])
        #expect(e("!!") == [1, 2, 3, 4, 5])   // no words: everything
    }

    @Test func mediaPropertyPredicatesAndBuilder() throws {
        var q = MediaQuery()
        q.addFilterPredicate(MediaPropertyPredicate(value: "beyon", forProperty: .artist, comparisonType: .contains))
        q.addFilterPredicate(MediaPropertyPredicate(value: MediaType.music, forProperty: "mediaType")!)
        #expect(try q.apply(to: items).map(\.persistentID) == [2])
        q.removeFilterPredicate(MediaPropertyPredicate(value: MediaType.music, forProperty: .mediaType))
        #expect(try q.apply(to: items).map(\.persistentID).sorted() == [2, 3])
        #expect(MediaPropertyPredicate(value: 1, forProperty: "nonsense") == nil)

        let built: Predicate = MediaProperty.artist.contains("b", .cd) && (MediaProperty.year >= 2000 || !MediaProperty.title.isPresent)
        let e = try PredicateEvaluator(built)
        #expect(items.filter(e.matches).map(\.persistentID) == [2, 3, 4])
        #expect(built == (try parse("artist CONTAINS[cd] \"b\" AND (year >= 2000 OR NOT title != nil)")))
    }

    @Test func invalidBuiltPredicatesMatchNothingAndThrowWhenCompiled() {
        let bad = MediaProperty.year.contains("9")
        #expect(!bad.evaluate(items[0]))
        #expect(throws: QueryError.self) { try PredicateEvaluator(bad) }
    }
}
