import Foundation
@testable import MediaIndex
import MediaModel
import PostgresTestServer
import Testing

/// `forEachItem(_:reading:_:)` (issue 50: a listing reads only the columns it prints): on both stores, the
/// same items in the same order as whole items, each holding exactly the asked properties' values.
struct ProjectedReadTests {
    @Test(arguments: Store.available) func aProjectionReadsTheAskedValuesInTheSameOrder(_ store: Store) throws {
        let index = try store.emptyLibrary()
        var items = (0..<30).map { sampleItem("/m/\($0 % 3)/\($0).mp3", title: "Song \($0)", artist: "Artist \($0 % 4)") }
        for i in items.indices where i % 5 == 0 { items[i][.tagRating] = .integer(3) }
        let ids = try add(items, to: index)
        try index.setRating(id: ids[10], 5)
        let queries = [MediaQuery(sort: [SortDescriptor(.artist), SortDescriptor(.title, ascending: false)]),
                       MediaQuery(filter: try ShortQueryParser.parse("artist:\"artist 1\""), limit: 4, offset: 1),
                       MediaQuery(filter: try ShortQueryParser.parse("title:song")), MediaQuery()]
        for query in queries {
            for properties in [[], [MediaProperty.title], [.artist, .albumTitle, .title], [.rating], [.playbackDuration, .genre]] {
                let whole = try index.items(query)
                var projected: [MediaItem] = []
                try index.forEachItem(query, reading: properties) { projected.append($0) }
                #expect(projected.map(\.persistentID) == whole.map(\.persistentID), "\(store) \(query) \(properties)")
                #expect(projected.map(\.path) == whole.map(\.path), "\(store) \(query) \(properties)")
                for (a, b) in zip(projected, whole) {
                    for property in properties { #expect(a[property] == b[property], "\(store) \(property) of \(b.path)") }
                }
            }
        }
        // The rating is the user's, else the file's (tagRating comes with it).
        var ratings: [Int64: MediaValue?] = [:]
        try index.forEachItem(MediaQuery(), reading: [.rating]) { ratings[$0.persistentID] = $0[.rating] }
        #expect(ratings[ids[10]] == .integer(5) && ratings[ids[5]] == .integer(3) && ratings[ids[1]] == .some(nil), "\(store)")
        // Nothing else is read: a projection of the title holds no artist.
        var artists: [String?] = []
        try index.forEachItem(MediaQuery(sort: [SortDescriptor(.title)]), reading: [.title]) { artists.append($0.artist) }
        #expect(artists.allSatisfy { $0 == nil } && artists.count == 30, "\(store)")
    }
}
