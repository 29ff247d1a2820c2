import Foundation
@testable import MediaIndex
import MediaModel
import PostgresTestServer
import Testing

/// Shares in the store (schema "v23" / "pg v20"), on both stores: a share's items follow the item id through
/// a fold (a moved file's new row folded into the item it was), leave with a removed item, and go with
/// their owner's account.
struct ShareLinksStoreTests {
    @Test(arguments: Store.available) func aFoldGivesTheItemTheRowsShareEntries(_ store: Store) throws {
        let index = try store.emptyLibrary()
        let ids = try add([sampleItem("/m/old.mp3", title: "A"), sampleItem("/m/new.mp3", title: "A"), sampleItem("/m/b.mp3", title: "B")],
                          to: index)
        let (item, row, other) = (ids[0], ids[1], ids[2])
        try index.addUser(UserAccount(name: "bob", password: "", apiKey: nil, isAdmin: false, created: Date(timeIntervalSince1970: 0)))
        let share = ShareLink(id: "abcdefgh01234567", owner: "bob", description: nil, created: Date(timeIntervalSince1970: 1_800_000_000),
                              expires: nil, lastVisited: nil, visitCount: 0, itemIDs: [row, other])
        try index.addShareLink(share)
        #expect(throws: IndexError.self) { try index.addShareLink(share) }
        #expect(throws: IndexError.self) {
            try index.addShareLink(ShareLink(id: "zzzzzzzzzzzzzzzz", owner: "bob", description: nil, created: Date(), expires: nil,
                                             lastVisited: nil, visitCount: 0, itemIDs: [999]))
        }
        #expect(try index.shareLink(id: "zzzzzzzzzzzzzzzz") == nil, "a refused share leaves nothing")

        try index.fold([(item: item, row: row)])
        #expect(try index.shareLink(id: share.id)?.itemIDs == [item, other], "carried over, in its place")
        try index.removeItems([other])
        #expect(try index.shareLink(id: share.id)?.itemIDs == [item], "gone with the item")
        try index.recordShareVisit(id: share.id, at: Date(timeIntervalSince1970: 1_800_000_100))
        #expect(try index.shareLink(id: share.id)?.visitCount == 1)
        #expect(try index.shareLink(id: share.id)?.lastVisited == Date(timeIntervalSince1970: 1_800_000_100))
        #expect(try index.removeUser(named: "bob"))
        #expect(try index.shareLink(id: share.id) == nil && index.shareLinks(owner: nil).isEmpty, "gone with the account")
    }
}
