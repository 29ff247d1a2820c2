import Foundation

/// An account of the library (`mlib user`; the API server's and the MPD server's logins). `password` is as
/// stored: encrypted by the library's key file (the store never sees a clear password).
public struct UserAccount: Sendable, Hashable {
    public var name: String
    public var password: String
    public var apiKey: String?
    public var isAdmin: Bool
    public var created: Date
    /// Whether this account is the library's owner, whose ratings, plays, skips and last played are the
    /// items' own values (every other user's are kept apart: `UserItemDataStore`). At most one account is;
    /// the first account added to a library that has no owner account becomes it (schema "v18").
    public var isOwner: Bool

    public init(name: String, password: String, apiKey: String?, isAdmin: Bool, created: Date, isOwner: Bool = false) {
        self.name = name
        self.password = password
        self.apiKey = apiKey
        self.isAdmin = isAdmin
        self.created = created
        self.isOwner = isOwner
    }
}

/// What one user starred: a song by its item id, an album or artist by the id the server derives from its
/// key (text, so that the store does not know how ids are made).
public struct UserStar: Sendable, Hashable {
    public enum Kind: String, Sendable, CaseIterable { case song, album, artist }
    public var kind: Kind
    public var key: String
    public var starred: Date

    public init(kind: Kind, key: String, starred: Date) {
        self.kind = kind
        self.key = key
        self.starred = starred
    }
}

/// A user's saved play queue (Subsonic's `savePlayQueue`): items by id, the current one and the position in it.
public struct SavedPlayQueue: Sendable, Hashable {
    public var itemIDs: [Int64]
    public var current: Int64?
    /// Which entry of `itemIDs` is `current` (OpenSubsonic's `indexBasedQueue`: a queue may hold one item
    /// twice); nil for a queue saved by id (or before schema "v23"): the first entry that is `current`.
    public var currentIndex: Int?
    /// Milliseconds into the current item.
    public var position: Int64
    public var changed: Date
    public var changedBy: String

    public init(itemIDs: [Int64], current: Int64?, currentIndex: Int? = nil, position: Int64, changed: Date, changedBy: String) {
        self.itemIDs = itemIDs
        self.current = current
        self.currentIndex = currentIndex
        self.position = position
        self.changed = changed
        self.changedBy = changedBy
    }

    /// The index of the current entry: `currentIndex` when it names `current`, else the first entry that is
    /// `current`; nil when there is none.
    public var resolvedCurrentIndex: Int? {
        if let currentIndex, itemIDs.indices.contains(currentIndex), itemIDs[currentIndex] == current { return currentIndex }
        return current.flatMap { itemIDs.firstIndex(of: $0) }
    }
}

/// Users, their stars and play queues, kept in the library (both stores: SQLStore+Users.swift). Every
/// requirement keeps the store contract (`LibraryStore`): the API server calls them off its event loop.
public protocol UserAccountStore: Sendable {
    /// Every account, by name.
    func users() throws -> [UserAccount]
    /// The account named exactly `name`, or nil.
    func user(named name: String) throws -> UserAccount?
    /// The account whose API key is `apiKey`, or nil.
    func user(apiKey: String) throws -> UserAccount?
    /// Throws `IndexError.invalidArgument` when the name is taken or empty. The account becomes the owner
    /// (`UserAccount.isOwner`, whatever `user.isOwner` says) when no account is.
    func addUser(_ user: UserAccount) throws
    /// Returns whether there was such a user (their stars, play queue and own item values go with them; the
    /// owner's values are the items' and stay).
    @discardableResult func removeUser(named name: String) throws -> Bool
    /// Returns whether there was such a user.
    @discardableResult func setPassword(of name: String, to password: String) throws -> Bool
    @discardableResult func setAPIKey(of name: String, to apiKey: String?) throws -> Bool
    /// Makes `name` an admin or not; returns whether there was such a user.
    @discardableResult func setAdmin(of name: String, to admin: Bool) throws -> Bool

    /// What `user` starred, newest first (then by key).
    func stars(of user: String) throws -> [UserStar]
    /// Stars these for `user`, in one transaction (starring again keeps the first star and its date).
    func star(_ stars: [UserStar], for user: String) throws
    /// Removes these stars of `user`, in one transaction; ones that are not there are skipped.
    func unstar(_ stars: [(kind: UserStar.Kind, key: String)], for user: String) throws

    /// `user`'s saved play queue, or nil.
    func playQueue(of user: String) throws -> SavedPlayQueue?
    /// Replaces `user`'s saved play queue, in one transaction.
    func savePlayQueue(_ queue: SavedPlayQueue, for user: String) throws
}
