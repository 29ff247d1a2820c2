import Foundation
import MediaIndex
import MediaModel

extension Library {
    /// `predicate` as `user` means it (nil: the owner, whose values are the items' own: unchanged, and whose
    /// history terms the store counts over the owner's listens). History terms (`plays(30) >= 3`) count the
    /// user's own listens (`HistoryTerm.listener`). Each
    /// comparison of a user value (`rating`, `playCount`, `skipCount`, `lastPlayedDate`) is answered from
    /// the user's own values (`UserItemDataStore`) by the one in-memory evaluator and becomes a test of item
    /// ids: the items where the user has values that match, or — when an item without any of the user's
    /// values matches (`playCount == 0`, `rating == nil`) — every item but those where the user's values do
    /// not. So both stores' SQL and the in-memory views answer it alike, and the work is the user's rows,
    /// not the library's. A user's rating is their own only (the file's tag rating is the owner's fallback).
    ///
    /// - Throws: `UsersError.unknownUser` for a name that is no account.
    public func predicate(_ predicate: MediaModel.Predicate, for user: String?) throws -> MediaModel.Predicate {
        guard let own = try dataUser(user) else { return predicate }
        // History terms count the user's own listens.
        let predicate = predicate.scopingHistory(to: own)
        guard predicate.readsUserValues else { return predicate }
        let values = try store.userValues(of: own, ids: nil)
        return predicate.replacingUserComparisons { comparison in
            let test = MediaModel.Predicate.comparison(comparison)
            func matches(_ values: UserItemValues) -> Bool {
                var item = MediaItem(path: MediaPath("/"))
                for property in UserDataEdits.editable { item[property] = values[property] }
                return test.evaluate(item)
            }
            if matches(UserItemValues()) {
                let not = values.filter { !matches($0.value) }.keys.sorted()
                return not.isEmpty ? .all : .not(.comparison(Comparison(.persistentID, .in, .list(not.map { .integer($0) }))))
            }
            let yes = values.filter { matches($0.value) }.keys.sorted()
            return yes.isEmpty ? .none : .comparison(Comparison(.persistentID, .in, .list(yes.map { .integer($0) })))
        }
    }
}

extension MediaModel.Predicate {
    /// Whether a comparison reads a user value (`UserDataEdits.editable`).
    var readsUserValues: Bool {
        switch self {
        case .comparison(let c): UserDataEdits.editable.contains(c.property)
        case .and(let ps), .or(let ps): ps.contains { $0.readsUserValues }
        case .not(let p): p.readsUserValues
        default: false
        }
    }

    /// This predicate with each history term reading `user`'s listens only.
    func scopingHistory(to user: String) -> MediaModel.Predicate {
        switch self {
        case .history(var term): term.listener = user; return .history(term)
        case .and(let ps): return .and(ps.map { $0.scopingHistory(to: user) })
        case .or(let ps): return .or(ps.map { $0.scopingHistory(to: user) })
        case .not(let p): return .not(p.scopingHistory(to: user))
        default: return self
        }
    }

    /// This predicate with each comparison of a user value replaced by `replace`'s answer.
    func replacingUserComparisons(_ replace: (Comparison) -> MediaModel.Predicate) -> MediaModel.Predicate {
        switch self {
        case .comparison(let c) where UserDataEdits.editable.contains(c.property): replace(c)
        case .and(let ps): .and(ps.map { $0.replacingUserComparisons(replace) })
        case .or(let ps): .or(ps.map { $0.replacingUserComparisons(replace) })
        case .not(let p): .not(p.replacingUserComparisons(replace))
        default: self
        }
    }
}

extension Library {
    /// The items of `playlist` now, as `user` sees them (nil: the owner): a smart playlist's rule reads the
    /// user's values (`predicate(_:for:)`); a static one's entries are everyone's.
    public func items(of playlist: StoredPlaylist, for user: String?) throws -> [MediaItem] {
        guard let rule = playlist.smart, try dataUser(user) != nil else { return try items(of: playlist) }
        var query = try PlaylistContents.query(rule)
        query.filter = try predicate(query.filter, for: user)
        return try items(query)
    }
}
