import Foundation
@testable import MediaIndex
@testable import PostgresStore
import MediaModel
import PostgresTestServer
import Testing

/// Collection summaries on PostgreSQL are grouped by the server: one row per group crosses the socket, not
/// one per item, with the answers of the in-memory reference (QueryAgreementTests compare them at random).
@Suite(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
struct PostgresCollectionTests {
    @Test func summariesReadOneRowPerGroupWithTheReferenceAnswers() throws {
        let index = try #require(try Store.postgres.emptyLibrary() as? PostgresIndex)
        var items: [MediaItem] = []
        for i in 0..<60 {
            var item = sampleItem("/m/\(i).mp3", title: "t\(i)", artist: ["Björk", "BJORK", "Sigur Rós", "Múm"][i % 4])
            item.albumTitle = "Album \(i % 5)"
            if i % 3 == 0 { item.albumArtist = "Various" }
            items.append(item)
        }
        try add(items, to: index)
        let stored = try index.items(MediaQuery())
        for grouping in [MediaGrouping.artist, .album, .albumArtist] {
            for (limit, offset) in [(nil, 0), (2, 1)] as [(Int?, Int)] {
                let q = MediaQuery(filter: MediaProperty.title.contains("t"), grouping: grouping, limit: limit, offset: offset)
                let before = index.session.rowsReceived
                let summaries = try index.collectionSummaries(q)
                let received = index.session.rowsReceived - before
                let reference = try q.collectionSummaries(from: stored)
                #expect(summaries.map(\.name) == reference.map(\.name), "\(grouping)")
                #expect(summaries.map(\.count) == reference.map(\.count), "\(grouping)")
                #expect(summaries.map(\.representativeItem.persistentID) == reference.map(\.representativeItem.persistentID), "\(grouping)")
                #expect(zip(summaries, reference).allSatisfy { abs($0.totalDuration - $1.totalDuration) < 1e-6 })
                // A multi-valued key (artist, album artist) puts an item under each value: grouped in Swift.
                if grouping.keyParts.count > 1 {
                    #expect(received <= 2 * 20, "\(grouping): \(received) rows for \(summaries.count) groups of 60 items")
                }
            }
        }
    }
}
