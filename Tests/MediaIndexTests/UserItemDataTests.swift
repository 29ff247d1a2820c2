import Foundation
@testable import MediaIndex
import MediaModel
import PostgresTestServer
import Testing

/// Per-user values in the store (schema "v18" / "pg v15"): a row folded into the item it was (a move the
/// scan found after adding the new path) carries every user's values over, summed as the item's own are.
struct UserItemDataTests {
    static func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

    @Test(arguments: Store.available) func aFoldedRowCarriesEveryUsersValues(_ store: Store) throws {
        let index = try store.emptyLibrary()
        let ids = try add([sampleItem("/m/old.mp3", title: "A"), sampleItem("/m/new.mp3", title: "A")], to: index)
        let (item, row) = (ids[0], ids[1])
        for name in ["me", "bob", "carol"] {
            try index.addUser(UserAccount(name: name, password: "", apiKey: nil, isAdmin: false, created: Self.at(0)))
        }
        #expect(try index.dataUser("me") == nil && index.dataUser("bob") == "bob")
        #expect(throws: IndexError.self) { try index.dataUser("dave") }
        try index.recordListen(Listen(itemID: item, kind: .play, date: Self.at(100), front: .subsonic, user: "bob"))
        try index.setUserData(.rating, to: 4, ids: [item], user: "bob")
        try index.recordListen(Listen(itemID: row, kind: .play, date: Self.at(200), front: .subsonic, user: "bob"))
        try index.recordListen(Listen(itemID: row, kind: .skip, date: Self.at(210), front: .subsonic, user: "bob"))
        try index.setUserData(.rating, to: 2, ids: [row], user: "bob")
        try index.setUserData(.rating, to: 5, ids: [row], user: "carol")
        try index.recordListen(Listen(itemID: row, kind: .play, date: Self.at(300), front: .play, user: "me"))

        try index.fold([(item: item, row: row)])
        #expect(try index.item(id: row) == nil)
        #expect(try index.item(id: item)?.playCount == 1, "the owner's play, on the item")
        #expect(try index.userValues(of: "bob", ids: nil)
                == [item: UserItemValues(rating: 4, playCount: 2, skipCount: 1, lastPlayed: Self.at(200))], "summed; the item's rating first")
        #expect(try index.userValues(of: "carol", ids: nil) == [item: UserItemValues(rating: 5)])
    }
}
