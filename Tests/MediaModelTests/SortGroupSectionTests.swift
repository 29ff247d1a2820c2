import Testing
@testable import MediaModel

@Suite struct SortGroupSectionTests {
    let items: [MediaItem] = [
        makeItem(1, [.title: "b", .artist: "The Beatles", .albumTitle: "Abbey Road", .discNumber: 1, .albumTrackNumber: 2, .year: 1969]),
        makeItem(2, [.title: "a", .artist: "the beatles", .albumTitle: "Abbey Road", .discNumber: 1, .albumTrackNumber: 1, .year: 1969]),
        makeItem(3, [.title: "c", .artist: "Björk", .albumTitle: "Post", .albumTrackNumber: 10, .year: 1995]),
        makeItem(4, [.title: "d", .artist: "Björk", .albumTitle: "Post", .albumTrackNumber: 9, .year: 1995]),
        makeItem(5, [.title: "e", .artist: "ABBA", .albumTitle: "Gold", .albumArtist: "ABBA", .year: 1992]),
        makeItem(6, [.title: "f", .albumTitle: "Abbey Road", .albumArtist: "Various", .discNumber: 2, .albumTrackNumber: 1]),
        makeItem(7, [.title: "10 Songs", .artist: "bjork"]),
    ]

    func order(_ sort: String, articles: Bool = false) throws -> [Int64] {
        try MediaQuery(sort: try SortDescriptor.parseList(sort, ignoreArticles: articles)).apply(to: items).map(\.persistentID)
    }

    @Test func sortKeys() throws {
        #expect(try order("year") == [1, 2, 5, 3, 4, 6, 7])          // numbers; missing last
        #expect(try order("-year") == [3, 4, 5, 1, 2, 6, 7])         // missing last in both directions
        #expect(try order("artist,title") == [5, 7, 3, 4, 2, 1, 6])  // folded: Björk = bjork
        #expect(try order("artist", articles: true) == [5, 1, 2, 3, 4, 7, 6])   // "The Beatles" as "Beatles"
        #expect(try order("album") == [2, 1, 6, 5, 4, 3, 7])         // album order: disc, then track
        #expect(try order("album,-title") == [2, 1, 6, 5, 4, 3, 7])  // disc/track come right after album
        #expect(try order("-album") == [4, 3, 5, 2, 1, 6, 7])
        #expect(try order("path") == [1, 2, 3, 4, 5, 6, 7])
    }

    @Test func sortListErrors() {
        #expect(throws: QueryError.self) { try SortDescriptor.parseList("artist,yaer") }
        do { _ = try SortDescriptor.parseList("artist,-yaer") } catch let e as QueryError {
            #expect(e.position == 7)
            #expect(e.message.contains("did you mean 'year'"))
        } catch { Issue.record("\(error)") }
        #expect(SortDescriptor.listDescription(try! SortDescriptor.parseList("artist,-year")) == "artist,-year")
    }

    @Test func collectionsGroupFoldedWithCounts() throws {
        let artists = try MediaQuery(grouping: .artist).collections(from: items)
        #expect(artists.map(\.name) == ["ABBA", "Björk", "the beatles", nil])
        #expect(artists.map(\.count) == [1, 3, 2, 1])
        #expect(artists[1].items.map(\.persistentID) == [4, 3, 7])   // by album (then disc/track), then title
        #expect(artists[1].representativeItem?.persistentID == 4)

        let albums = try MediaQuery(grouping: .album).collections(from: items)
        // An album is title + album artist (else artist): "Abbey Road" by The Beatles and by Various differ.
        #expect(albums.map(\.name) == ["Abbey Road", "Abbey Road", "Gold", "Post", nil])
        #expect(albums.map { $0.items.map(\.persistentID) } == [[2, 1], [6], [5], [4, 3], [7]])

        let paged = try MediaQuery(grouping: .album, limit: 2, offset: 1).collections(from: items)
        #expect(paged.map(\.count) == [1, 1])

        let summaries = try MediaQuery(grouping: .albumArtist).collectionSummaries(from: items)
        #expect(summaries.map(\.name) == ["ABBA", "Björk", "The Beatles", "Various"])
        #expect(summaries.map(\.count) == [1, 3, 2, 1])
        #expect(summaries.map(\.representativeItem.persistentID) == [5, 3, 1, 6])
    }

    @Test func sections() throws {
        let q = MediaQuery(sort: [SortDescriptor(.artist, ignoreArticles: true)])
        let sorted = try q.apply(to: items)
        let s = q.itemSections(sorted)
        #expect(s.map(\.title) == ["A", "B", "#"])
        #expect(s.map(\.range) == [0..<1, 1..<6, 6..<7])

        let byTitle = MediaQuery(sort: [SortDescriptor(.title)])
        #expect(byTitle.itemSections(try byTitle.apply(to: items)).map(\.title) == ["#", "A", "B", "C", "D", "E", "F"])

        let g = MediaQuery(grouping: .artist)
        let cs = g.collectionSections(try g.collections(from: items))
        #expect(cs == [MediaQuerySection(title: "A", range: 0..<1), MediaQuerySection(title: "B", range: 1..<2),
                       MediaQuerySection(title: "T", range: 2..<3), MediaQuerySection(title: "#", range: 3..<4)])
        #expect(MediaQuerySection.title(for: "Ölfus") == "O")
        #expect(MediaQuerySection.title(for: "The Who", ignoreArticles: true) == "W")
    }

    @Test func convenienceQueries() throws {
        var mixed = items
        mixed[0].mediaType = .music
        mixed[1].mediaType = .podcast
        mixed[2].mediaType = [.music, .musicVideo]
        mixed[3].mediaType = .movie
        #expect(try MediaQuery.songs().apply(to: mixed).map(\.persistentID) == [1, 3])
        #expect(try MediaQuery.podcasts().apply(to: mixed).map(\.persistentID) == [2])
        #expect(try MediaQuery.videos().apply(to: mixed).map(\.persistentID).sorted() == [3, 4])
        #expect(MediaQuery.albums().grouping == .album)
        #expect(MediaQuery.compilations().grouping == .album)
        #expect(MediaQuery.playlists().grouping == .playlist)
    }

    @Test func literals() {
        #expect(QueryLiterals.duration("5:00") == 300)
        #expect(QueryLiterals.duration("1:02:03") == 3723)
        #expect(QueryLiterals.duration("1:60") == nil)
        #expect(QueryLiterals.duration("x") == nil)
        #expect(QueryLiterals.formatDuration(3723) == "1:02:03")
        #expect(QueryLiterals.formatDuration(65.9) == "1:05")
        #expect(QueryLiterals.Period("2003-12")?.next.isoText == "2004-01")
        #expect(QueryLiterals.Period("2003-02-28")?.next.isoText == "2003-03-01")
        #expect(QueryLiterals.Period("2003-02-28T23:59")?.next.isoText == "2003-03-01T00:00")
        #expect(QueryLiterals.Period("2003-13") == nil)
        #expect(QueryLiterals.Period("03") == nil)
        let now = QueryLiterals.relativeTimestamp("-0d")!
        #expect(abs(now - QueryLiterals.relativeTimestamp("-1d")! - 86400) < 1)
    }
}
