import MediaModel
import Testing

/// `mlib ls --group albums --sort …`: groups order by their first item's properties, their size or their
/// total duration, like beets' `ls -a`.
struct CollectionOrderingTests {
    let summaries = [
        MediaCollectionSummary(name: "A", count: 2, representativeItem: makeItem(1, [.albumTitle: "A", .artist: "Zed", .year: 1999]), totalDuration: 600),
        MediaCollectionSummary(name: "B", count: 9, representativeItem: makeItem(2, [.albumTitle: "B", .artist: "The Beta", .year: 2005]), totalDuration: 100),
        MediaCollectionSummary(name: "C", count: 5, representativeItem: makeItem(3, [.albumTitle: "C", .artist: "x", .albumArtist: "Alpha", .year: 1999]), totalDuration: 300),
    ]

    func names(_ sort: String, ignoreArticles: Bool = false) throws -> [String] {
        try CollectionOrdering.parse(sort, ignoreArticles: ignoreArticles).sorted(summaries, grouping: .album).map { $0.name ?? "-" }
    }

    @Test func groupsSortByTheirItemsCountsAndDurations() throws {
        #expect(try names("artist") == ["C", "B", "A"], "an album's artist is its album artist")
        #expect(try names("artist", ignoreArticles: true) == ["C", "B", "A"])
        #expect(try names("-count") == ["B", "C", "A"])
        #expect(try names("duration") == ["B", "C", "A"], "total duration")
        #expect(try names("year,-count") == ["C", "A", "B"], "ties broken by the next key")
        #expect(try names("-year") == ["B", "A", "C"], "equal groups keep their order")
    }

    @Test func anUnknownKeyPointsAtItself() {
        #expect(throws: QueryError.self) { try CollectionOrdering.parse("count,bogus") }
        do { _ = try CollectionOrdering.parse("count,bogus") } catch let error as QueryError {
            #expect(error.position == 6)
        } catch {}
    }
}
