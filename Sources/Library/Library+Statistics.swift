import Foundation
import MediaIndex
import MediaModel

extension Library {
    /// Writes what one play means, by `PlayStatisticsRule` (the one rule: a play is the item finished, or
    /// half of it or 240 s heard; a skip is leaving it before 20 s): a row of the listening history (item,
    /// `user`, when, seconds heard, `front`) and, in the same transaction, the item's play count and last
    /// played, or its skip count. Items not in the library (id 0: a file played by path) are not counted.
    /// Returns the verdict written. Every front that plays (`mlib play`, `mlib serve`) records through here.
    @discardableResult
    public func record(_ end: ItemEnd, at date: Date = Date(), front: Listen.Front = .library, user: String? = nil) throws -> PlayStatisticsRule.Verdict {
        guard end.itemID != 0 else { return .none }
        let verdict = end.verdict
        let kind: Listen.Kind
        switch verdict {
        case .played: kind = .play
        case .skipped: kind = .skip
        case .none: return verdict
        }
        try store.recordListen(Listen(itemID: end.itemID, kind: kind, date: date, heard: end.heard, front: front, user: user))
        return verdict
    }

    /// One play of item `id` that a front reports as such (a Subsonic `scrobble`: the client applied its
    /// own rule): a history row and play count + 1, last played `date`. `heard`: seconds heard, when known.
    public func recordPlay(id: Int64, at date: Date = Date(), heard: Double? = nil, front: Listen.Front = .library, user: String? = nil) throws {
        try store.recordListen(Listen(itemID: id, kind: .play, date: date, heard: heard, front: front, user: user))
    }

    /// One skip of item `id`: a history row and skip count + 1.
    public func recordSkip(id: Int64, at date: Date = Date(), heard: Double? = nil, front: Listen.Front = .library, user: String? = nil) throws {
        try store.recordListen(Listen(itemID: id, kind: .skip, date: date, heard: heard, front: front, user: user))
    }

    /// The listening history, newest first (`ListeningHistoryStore.history`).
    public func history(_ query: HistoryQuery) throws -> [HistoryEntry] {
        try store.history(query)
    }
}

// Per-user values (issue 40): the owner's are the items' own, every other user's kept apart by the store
// (`UserItemDataStore`). A user is named by account name; nil is the owner.
extension Library {
    /// The library's users: accounts with sealed passwords (`Users`). `keyFile` nil: beside the library.
    public func users(keyFile: String? = nil, createKey: Bool = false) throws -> Users {
        try Users(library: self, keyFile: keyFile, createKey: createKey)
    }

    /// Whose values `user` reads and writes: nil for the owner (nil, or the owner account's name), else the
    /// account's name. Throws `UsersError.unknownUser` for a name that is no account.
    public func dataUser(_ user: String?) throws -> String? {
        guard let user else { return nil }
        guard let account = try store.user(named: user) else { throw UsersError.unknownUser(user) }
        return account.isOwner ? nil : account.name
    }

    /// Sets item `id`'s rating (1–5; nil or 0 clears it) for `user` (nil: the owner).
    public func setRating(id: Int64, _ rating: Int?, user: String? = nil) throws {
        try setUserData(.rating, to: rating.map(Int64.init), ids: [id], user: user)
    }

    /// Sets one of `UserDataEdits.editable` of the items `ids` for `user` (nil: the owner) in one
    /// transaction; returns how many items there were.
    @discardableResult
    public func setUserData(_ property: MediaProperty, to value: Int64?, ids: [Int64], user: String? = nil) throws -> Int {
        guard let own = try dataUser(user) else { return try store.setUserData(property, to: value, ids: ids) }
        return try store.setUserData(property, to: value, ids: ids, user: own)
    }

    /// `user`'s values of the items `ids` (nil: the owner, whose values are the items' own), by item id:
    /// every id that is an item is there (an item without values of the user's has the defaults).
    public func userValues(of user: String?, ids: [Int64]) throws -> [Int64: UserItemValues] {
        if let own = try dataUser(user) {
            let stored = try store.userValues(of: own, ids: ids)
            let present = try store.items(ids: ids)
            return Dictionary(present.map { ($0.id, stored[$0.id] ?? UserItemValues()) }, uniquingKeysWith: { a, _ in a })
        }
        return Dictionary(try store.items(ids: ids).map { item in
            (item.id, UserItemValues(rating: item[.rating]?.integer.map(Int.init), playCount: item.playCount,
                                     skipCount: Int(item[.skipCount]?.integer ?? 0),
                                     lastPlayed: item[.lastPlayedDate]?.real.map(Date.init(timeIntervalSince1970:))))
        }, uniquingKeysWith: { a, _ in a })
    }
}
