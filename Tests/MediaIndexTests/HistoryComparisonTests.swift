import Foundation
@testable import MediaIndex
import MediaModel
import PostgresTestServer
import Testing

/// `skips() > plays()` (issue 40: "skipped more than played"): a history count compared with another
/// count of the same item's history, on both stores, over HistoryQueryTests' library (a: 4 plays; b: 1 play,
/// 2 skips this week; c: nothing).
struct HistoryComparisonTests {
    @Test(arguments: Store.available) func aCountComparesWithAnotherCount(_ store: Store) throws {
        let (index, a, b, c) = try HistoryQueryTests.library(store)
        #expect(try HistoryQueryTests.ids(index, "skips() > plays()") == [b], "skipped more than played")
        #expect(try HistoryQueryTests.ids(index, #"skips("1w") > plays(30)"#) == [b])
        #expect(try HistoryQueryTests.ids(index, "plays(30) >= plays()") == [c], "a: 3 of 4 plays in 30 days; b: 0 of 1")
        #expect(try HistoryQueryTests.ids(index, "plays(30) < plays() OR skips() == plays()") == [a, b, c])
    }

    @Test func itRendersAsWrittenAndParsesBack() throws {
        for text in ["skips() > plays()", #"plays(30) >= plays("1y")"#, #"skips() > plays() AND plays(7) != skips("12h")"#] {
            let p = try PredicateParser.parse(text)
            #expect(p.description == text)
            #expect(try PredicateParser.parse(p.description) == p)
        }
        for text in ["skips() > plays(", "skips() > plays(30", #"skips() > plays("soon")"#, "skips() CONTAINS plays()"] {
            #expect(throws: QueryError.self, "\(text)") { try PredicateParser.parse(text) }
        }
    }
}
