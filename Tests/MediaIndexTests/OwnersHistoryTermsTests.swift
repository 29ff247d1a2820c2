import Foundation
@testable import MediaIndex
import MediaModel
import PostgresTestServer
import Testing

/// Issue 40: "queries read the current user's values", history terms too. A term with no listener is the
/// owner's query (`mlib ls` without --user, a smart playlist the MPD or API server evaluates for the
/// owner): it counts the owner's listens only — the rows with no user (the CLI's, the MPD player's) and the
/// owner account's — not another user's, as the owner's `playCount` counts only the owner's plays. A term
/// scoped to a listener (`Library.predicate(_:for:)`) counts that user's. Both stores.
struct OwnersHistoryTermsTests {
    static func ids(_ index: any LibraryStore, _ query: String, listener: String? = nil) throws -> Set<Int64> {
        var predicate = try PredicateParser.parse(query)
        if let listener, case .history(var term) = predicate {
            term.listener = listener
            predicate = .history(term)
        }
        return Set(try index.itemIDs(MediaQuery(filter: predicate)))
    }

    @Test(arguments: Store.available) func theOwnersTermsCountTheOwnersListensOnly(_ store: Store) throws {
        let index = try store.emptyLibrary()
        let ids = try add([sampleItem("/m/a.mp3", title: "A"), sampleItem("/m/b.mp3", title: "B"),
                           sampleItem("/m/c.mp3", title: "C"), sampleItem("/m/d.mp3", title: "D")], to: index)
        let (a, b, c, d) = (ids[0], ids[1], ids[2], ids[3])
        try index.addUser(UserAccount(name: "alice", password: "", apiKey: nil, isAdmin: true, created: Date()))
        try index.addUser(UserAccount(name: "bob", password: "", apiKey: nil, isAdmin: false, created: Date()))
        #expect(try index.users().first { $0.isOwner }?.name == "alice")
        let now = Date()
        func listen(_ id: Int64, _ kind: Listen.Kind = .play, by user: String?) throws {
            try index.recordListen(Listen(itemID: id, kind: kind, date: now.addingTimeInterval(-3600), front: .play, user: user))
        }
        // a: the owner without a name (mlib play, the MPD player) and bob; b: the owner's account;
        // c: bob alone, skipped twice and played once; d: nobody.
        try listen(a, by: nil)
        try listen(a, by: "bob")
        try listen(b, by: "alice")
        try listen(c, by: "bob")
        try listen(c, .skip, by: "bob")
        try listen(c, .skip, by: "bob")

        #expect(try Self.ids(index, "plays() >= 1") == [a, b], "the owner's: no name or alice, never bob's")
        #expect(try Self.ids(index, "plays(30) == 0") == [c, d])
        #expect(try Self.ids(index, "plays() >= 2").isEmpty, "a's play by bob is not the owner's")
        #expect(try Self.ids(index, "skips() > plays()").isEmpty, "c's skips are bob's")
        // The owner's history agrees with the owner's counter.
        for id in ids {
            let counter = try #require(try index.item(id: id)).playCount
            #expect(try Self.ids(index, "plays() == \(counter)").contains(id), "item \(id): playCount \(counter)")
        }
        // Bob's own.
        #expect(try Self.ids(index, "plays() >= 1", listener: "bob") == [a, c])
        #expect(try Self.ids(index, "skips() > plays()", listener: "bob") == [c])
    }
}
