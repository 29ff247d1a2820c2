import Foundation

/// A public link to some of the library's items (Subsonic's `share`): anyone with its id may list and play
/// exactly these items, without an account, until it expires or its owner deletes it. The items are fixed
/// when the share is made (an album shared is its songs then); an item removed from the library leaves it.
public struct ShareLink: Sendable, Hashable {
    /// Random, unguessable (it is the only secret of the link).
    public var id: String
    /// The account that made it (a removed account's shares go with it).
    public var owner: String
    public var description: String?
    public var created: Date
    /// nil: never.
    public var expires: Date?
    public var lastVisited: Date?
    public var visitCount: Int
    /// The items, in the order shared.
    public var itemIDs: [Int64]

    public init(id: String, owner: String, description: String?, created: Date, expires: Date?, lastVisited: Date?,
                visitCount: Int, itemIDs: [Int64]) {
        self.id = id
        self.owner = owner
        self.description = description
        self.created = created
        self.expires = expires
        self.lastVisited = lastVisited
        self.visitCount = visitCount
        self.itemIDs = itemIDs
    }

    /// Whether the link no longer opens at `date`.
    public func hasExpired(at date: Date) -> Bool { expires.map { $0 <= date } ?? false }
}

/// The shares (both stores: SQLStore+ShareLinks.swift; schema "v23" / "pg v20"). Every requirement keeps the
/// store contract (`LibraryStore`). Rights are `Library`'s, not the store's.
public protocol ShareLinkStore: Sendable {
    /// `owner`'s shares (nil: everyone's), newest first; their items those still in the library (missing
    /// ones left out).
    func shareLinks(owner: String?) throws -> [ShareLink]
    /// Share `id`, or nil.
    func shareLink(id: String) throws -> ShareLink?
    /// Stores a new share with its items.
    ///
    /// - Throws: `IndexError.invalidArgument` for an id in use, an owner who is no account, or an item that is not there.
    func addShareLink(_ share: ShareLink) throws
    /// Replaces share `id`'s description and expiry; false when there is no such share.
    @discardableResult func updateShareLink(id: String, description: String?, expires: Date?) throws -> Bool
    /// Counts one visit of share `id` at `date`.
    func recordShareVisit(id: String, at date: Date) throws
    /// Removes share `id`; false when there was none.
    @discardableResult func removeShareLink(id: String) throws -> Bool
}
