@testable import DLNAServer
import MediaModel
import Testing

/// UPnP ContentDirectory:1's search grammar (section 2.5.5): the spec's examples parse, and compile onto
/// the predicate AST (one query language underneath: the store answers these as it answers `mlib ls`).
@Suite struct SearchGrammarTests {
    /// The examples of ContentDirectory:1 section 2.5.5.1 (and the criteria control points send most).
    static let specExamples = [
        #"upnp:class = "object.item.imageItem.photo" and ( dc:date >= "2001-10-01" and dc:date <= "2001-10-31" )"#,
        #"upnp:class derivedfrom "object.container.person" and dc:title contains "Sin""#,
        #"upnp:class derivedfrom "object.item.audioItem" and (dc:title contains "Sin" or upnp:album contains "Sin")"#,
        #"( upnp:class derivedfrom "object.item.audioItem" ) and ( upnp:artist = "Sinead O\"Connor" )"#,
        #"upnp:class derivedfrom "object.item.audioItem" and @refID exists false"#,
        #"dc:creator = "Sting" or upnp:genre != "Rock""#,
        #"upnp:class = "object.container.album.musicAlbum" and dc:title doesNotContain "Live""#,
        "*",
    ]

    @Test func theSpecsExamplesParseAndCompile() throws {
        for text in Self.specExamples {
            let expression = try SearchGrammar.parse(text)
            _ = try SearchCompiler.compile(expression)
        }
    }

    @Test func andBindsTighterThanOr() throws {
        let e = try SearchGrammar.parse(#"dc:title = "a" or dc:title = "b" and upnp:album = "c""#)
        #expect(e == .or(.relation(property: "dc:title", op: .equal, value: "a"),
                         .and(.relation(property: "dc:title", op: .equal, value: "b"), .relation(property: "upnp:album", op: .equal, value: "c"))))
    }

    @Test func quotedValuesUnescape() throws {
        #expect(try SearchGrammar.parse(#"dc:title = "a \"b\" \\ c""#) == .relation(property: "dc:title", op: .equal, value: #"a "b" \ c"#))
    }

    @Test func compilesOntoThePredicateAST() throws {
        let compiled = try SearchCompiler.compile(SearchGrammar.parse(
            #"upnp:class derivedfrom "object.item.audioItem" and (dc:title contains "Sin" or upnp:artist = "Sting")"#))
        let audio = Predicate.comparison(Comparison(.mediaType, .equal, .value(.integer(MediaType.anyAudio.rawValue))))
        #expect(compiled.predicate == .and([audio, .or([.comparison(Comparison(.title, .contains, .value(.text("Sin")), options: .cd)),
                                                        .comparison(Comparison(.artist, .equal, .value(.text("Sting")), options: .cd))])]))
        #expect(!compiled.wantsContainers)
        // A class no item has matches no item; photos are not served.
        #expect(try SearchCompiler.compile(SearchGrammar.parse(#"upnp:class = "object.item.imageItem.photo""#)).predicate == .none)
        // dc:date compares years.
        #expect(try SearchCompiler.compile(SearchGrammar.parse(#"dc:date >= "2001-10-01""#)).predicate
                == .comparison(Comparison(.year, .greaterOrEqual, .value(.integer(2001)))))
        #expect(try SearchCompiler.compile(SearchGrammar.parse(#"upnp:class derivedfrom "object.container.album""#)).wantsContainers)
    }

    @Test func malformedCriteriaAreSyntaxErrors() {
        for text in [#"dc:title = "open"#, #"dc:title ~ "x""#, #"(dc:title = "x""#, #"dc:title exists maybe"#, "* and", #"dc:title = x"#, ""] {
            #expect(throws: SearchGrammar.SyntaxError.self, "\(text)") { try SearchGrammar.parse(text) }
        }
        // Nesting is bounded (30,000 parentheses overflowed the answering thread's stack: the fuzzer's find).
        let deep = String(repeating: "(", count: 30_000) + #"dc:title = "a""# + String(repeating: ")", count: 30_000)
        #expect(throws: SearchGrammar.SyntaxError.self) { try SearchGrammar.parse(deep) }
        let allowed = String(repeating: "(", count: SearchGrammar.maximumDepth) + #"dc:title = "a""# + String(repeating: ")", count: SearchGrammar.maximumDepth)
        #expect((try? SearchGrammar.parse(allowed)) != nil)
        // So is the number of conditions (2,500 reached the store, which refused them as its own failure: 501).
        let many = Array(repeating: #"dc:title = "a""#, count: 2_500).joined(separator: " and ")
        #expect(throws: SearchGrammar.SyntaxError.self) { try SearchGrammar.parse(many) }
        #expect((try? SearchGrammar.parse(Array(repeating: #"dc:title = "a""#, count: SearchGrammar.maximumConditions).joined(separator: " or "))) != nil)
    }

    @Test func unknownPropertiesAreRefusedWhenCompiled() throws {
        #expect(throws: SearchCompiler.Unsupported.self) { try SearchCompiler.compile(SearchGrammar.parse(#"upnp:rating = "5""#)) }
    }
}
