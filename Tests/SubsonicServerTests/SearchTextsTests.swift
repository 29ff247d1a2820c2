@testable import SubsonicServer
import Testing

/// `SearchTexts` (issue 44: search over one buffer of bytes) finds exactly what `String.contains` over each
/// text finds, in the same order, before and after patches, with and without words.
struct SearchTextsTests {
    static let syllables = ["ka", "lo", "mi", "ne", "su", "to", "ra", "ve", "gu", "ðn", "ó", "love", "will", "tear", " ", " ", "\u{1F}"]

    static func text(_ random: inout some RandomNumberGenerator) -> String {
        (0..<Int.random(in: 0...12, using: &random)).map { _ in syllables.randomElement(using: &random)! }.joined()
    }

    static func expected(_ texts: [String], _ words: [String]) -> [Int] {
        texts.indices.filter { index in words.allSatisfy { texts[index].contains($0) } }
    }

    @Test func findsWhatEachTextContainsInOrderThroughPatches() {
        var random = SystemRandomNumberGenerator()
        var texts = (0..<2_000).map { _ in Self.text(&random) }
        var search = SearchTexts(texts)
        let queries = [[], ["ka"], ["love", "tear"], ["ðn"], ["ó"], ["kalo", "mi"], ["zzz"], ["a"], ["e t"]]
        // Enough rounds of patches to pass the rebuild threshold (max(256, count / 32)) at least once.
        for round in 0..<6 {
            #expect(search.count == texts.count)
            for query in queries {
                let found = Array(search.entries(containingAll: query.map(SearchTexts.Word.init)))
                #expect(found == Self.expected(texts, query), "round \(round), query \(query)")
                for skipping in [1, 7, 500, 5_000] {
                    let page = Array(search.entries(containingAll: query.map(SearchTexts.Word.init), skipping: skipping).prefix(20))
                    #expect(page == Array(Self.expected(texts, query).dropFirst(skipping).prefix(20)), "round \(round), query \(query), skipping \(skipping)")
                }
                let one = Int.random(in: 0..<texts.count, using: &random)
                #expect(search.entry(one, containsAll: query.map(SearchTexts.Word.init)) == query.allSatisfy { texts[one].contains($0) })
            }
            var changes: [Int: String] = [:]
            for _ in 0..<100 { changes[Int.random(in: 0..<texts.count, using: &random)] = Self.text(&random) }
            for (entry, text) in changes { texts[entry] = text }
            search = search.replacing(changes)
            #expect((0..<texts.count).allSatisfy { search[$0] == texts[$0] }, "round \(round)")
        }
        #expect(search == SearchTexts(texts))
    }

    @Test func aPageStopsEarlyAndAnEmptyLibraryFindsNothing() {
        let search = SearchTexts((0..<10).map { "song \($0)" })
        #expect(Array(search.entries(containingAll: [SearchTexts.Word("song")]).dropFirst(3).prefix(2)) == [3, 4])
        #expect(Array(SearchTexts([String]()).entries(containingAll: [SearchTexts.Word("x")])).isEmpty)
        #expect(Array(SearchTexts([String]()).entries(containingAll: [])).isEmpty)
        #expect(Array(SearchTexts(["", "a"]).entries(containingAll: [])) == [0, 1])
    }
}
