import Foundation
import MediaModel

/// One user's own values of one item: what `rating`, `playCount`, `skipCount` and `lastPlayedDate` are for
/// a user who is not the library's owner (the owner's are the item's own properties).
public struct UserItemValues: Sendable, Hashable {
    public var rating: Int?
    public var playCount: Int
    public var skipCount: Int
    public var lastPlayed: Date?

    public init(rating: Int? = nil, playCount: Int = 0, skipCount: Int = 0, lastPlayed: Date? = nil) {
        self.rating = rating
        self.playCount = playCount
        self.skipCount = skipCount
        self.lastPlayed = lastPlayed
    }

    /// The value of one of `UserDataEdits.editable` (nil for any other property), as the item's own would read.
    public subscript(property: MediaProperty) -> MediaValue? {
        switch property {
        case .rating: rating.map { .integer(Int64($0)) }
        case .playCount: .integer(Int64(playCount))
        case .skipCount: .integer(Int64(skipCount))
        case .lastPlayedDate: lastPlayed.map { .real($0.timeIntervalSince1970) }
        default: nil
        }
    }
}

/// Per-user ratings, plays, skips and last played (schema "v18" / "pg v15"). The library's owner's values
/// are the items' own columns (an upgraded library keeps every value as the owner's; the scan never
/// touches them); every other account's are rows by (user, item id), so they follow the item id through
/// every move and identity rule, and go with the item or the user. A user is named by account name; nil
/// names the owner. Every requirement keeps the store contract (`LibraryStore`).
public protocol UserItemDataStore: Sendable {
    /// Whose values `user` reads and writes: nil for the owner (nil, or the owner account's name), else the
    /// account's name.
    ///
    /// - Throws: `IndexError.invalidArgument` ("no user named …") when `user` is no account.
    func dataUser(_ user: String?) throws -> String?

    /// `user`'s own values of the items `ids` (nil: every item they have values of), by item id; an item
    /// without any has none here (its values are the defaults: `UserItemValues()`). `user` is not the owner.
    func userValues(of user: String, ids: [Int64]?) throws -> [Int64: UserItemValues]

    /// Sets one of `UserDataEdits.editable` of the items `ids` for `user` (nil: the owner, the items' own),
    /// in one transaction; returns how many items there were.
    ///
    /// - Throws: `IndexError.invalidArgument` for a property or value outside `UserDataEdits`' rules, or a
    ///   user who is no account.
    @discardableResult
    func setUserData(_ property: MediaProperty, to value: Int64?, ids: [Int64], user: String?) throws -> Int
}
