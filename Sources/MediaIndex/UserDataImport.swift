import Foundation
import MediaModel

/// One item's values as another program kept them (`mlib import-userdata`): each nil is "the file says
/// nothing". A rating is already on mlib's scale (0–5; 0 is none).
public struct ImportedUserValues: Sendable, Hashable {
    public var itemID: Int64
    public var rating: Int?
    public var playCount: Int?
    public var skipCount: Int?
    public var lastPlayed: Date?
    /// Loved (iTunes) or starred (Navidrome): a song star of the user, at this date.
    public var starred: Date?

    public init(itemID: Int64, rating: Int? = nil, playCount: Int? = nil, skipCount: Int? = nil, lastPlayed: Date? = nil, starred: Date? = nil) {
        self.itemID = itemID
        self.rating = rating
        self.playCount = playCount
        self.skipCount = skipCount
        self.lastPlayed = lastPlayed
        self.starred = starred
    }
}

/// What one imported file brings for one user (`user`: an account name; nil: the library's owner): values
/// to merge and listens to add to the history. `importUserData` writes a file's batches in one transaction.
public struct UserDataImportBatch: Sendable {
    public var user: String?
    public var values: [ImportedUserValues]
    public var listens: [Listen]

    public init(user: String?, values: [ImportedUserValues] = [], listens: [Listen] = []) {
        self.user = user
        self.values = values
        self.listens = listens
    }
}

/// What `importUserData` changed: items whose values changed, listens added, listens already there
/// (skipped), stars added.
public struct UserDataImportOutcome: Sendable, Hashable {
    public var itemsChanged = 0
    public var listensAdded = 0
    public var listensAlreadyThere = 0
    public var starsAdded = 0
    public init() {}
}

/// Imports of other programs' user data, by the one merge rule that makes an import idempotent (the same
/// file imported twice changes nothing the second time) and loses nothing mlib has:
/// - counts: the larger of mlib's and the file's (`max`, not a sum: a sum would double on a second import,
///   and the file's count already holds every play it knows);
/// - last played: the later of the two;
/// - rating: the file's only where the user has none (a rating set in mlib is never overwritten);
/// - a star: added when missing (the first star and its date are kept);
/// - a listen (a history row): added unless the user already has one of the same item within a second of
///   the same time (whatever front wrote it: an export of mlib's own history imports as nothing), and then
///   it counts as a play (play count + 1, last played the later).
public protocol UserDataImportStore: Sendable {
    /// Writes `batches` (one per user the file names) in one transaction: all of them or, on any error,
    /// nothing.
    ///
    /// - Throws: `IndexError.invalidArgument` for a user who is no account, a rating outside 0–5, a
    ///   negative count or a date outside the years 1–9999; `IndexError.itemNotFound` for an id that is no
    ///   item. A song star needs an account: for an owner without one, `starred` is not written.
    func importUserData(_ batches: [UserDataImportBatch]) throws -> UserDataImportOutcome
}
