import Foundation
import MediaIndex

/// What opening a share's link finds (`Library.openShareLink`).
public enum ShareLinkOpening: Sendable, Equatable {
    case open(ShareLink)
    /// It was there and expired (HTTP 410 Gone).
    case expired
    /// Never made, or deleted (HTTP 404).
    case missing
}

// Shares (issue 42): public links to some items. Any account may share (Subsonic's `shareRole`); a user sees,
// changes and deletes their own shares, an admin everyone's; another user's share is answered as one never
// made (`UsersError.notFound`), so that its existence is not told. The link itself needs no account: it
// opens its own items only, until it expires.
extension Library {
    /// The most items one share holds (a whole library shared by mistake is refused, not stored).
    public static let maximumSharedItems = 10_000

    /// The shares `account` manages: their own, or everyone's for an admin; newest first.
    public func shareLinks(visibleTo account: UserAccount) throws -> [ShareLink] {
        try store.shareLinks(owner: account.isAdmin ? nil : account.name)
    }

    /// Share `id` if `account` manages it; `UsersError.notFound` otherwise (also for another user's).
    public func shareLink(id: String, visibleTo account: UserAccount) throws -> ShareLink {
        guard let share = try store.shareLink(id: id), share.owner == account.name || account.isAdmin else {
            throw UsersError.notFound("Share \(id)")
        }
        return share
    }

    /// Makes a share of `itemIDs` (in this order, each once) owned by `account`, with a new random id.
    /// Throws `UsersError.generic` for no items or more than `maximumSharedItems`.
    public func createShareLink(itemIDs: [Int64], description: String?, expires: Date?, by account: UserAccount) throws -> ShareLink {
        var seen = Set<Int64>()
        let items = itemIDs.filter { seen.insert($0).inserted }
        guard !items.isEmpty else { throw UsersError.generic("a share needs at least one song") }
        guard items.count <= Self.maximumSharedItems else {
            throw UsersError.generic("a share holds at most \(Self.maximumSharedItems) songs (\(items.count) given)")
        }
        let share = ShareLink(id: Self.newShareID(), owner: account.name, description: description.flatMap { $0.isEmpty ? nil : $0 },
                              created: Date(), expires: expires, lastVisited: nil, visitCount: 0, itemIDs: items)
        try store.addShareLink(share)
        return try store.shareLink(id: share.id) ?? share
    }

    /// Changes share `id`'s description (nil: kept; empty: removed) and expiry (nil: kept; `.some(nil)`:
    /// never expires). Throws `UsersError.notFound` for a share `account` does not manage.
    public func updateShareLink(id: String, description: String?, expires: Date??, by account: UserAccount) throws {
        let share = try shareLink(id: id, visibleTo: account)
        let text = description.map { $0.isEmpty ? nil : $0 } ?? share.description
        let until = expires ?? share.expires
        guard try store.updateShareLink(id: id, description: text, expires: until) else { throw UsersError.notFound("Share \(id)") }
    }

    /// Deletes share `id` (its link stops at once). Throws `UsersError.notFound` for a share `account` does
    /// not manage.
    public func removeShareLink(id: String, by account: UserAccount) throws {
        _ = try shareLink(id: id, visibleTo: account)
        guard try store.removeShareLink(id: id) else { throw UsersError.notFound("Share \(id)") }
    }

    /// The share behind a public link, at `date`; with `visiting`, an open one counts a visit.
    public func openShareLink(id: String, at date: Date = Date(), visiting: Bool) throws -> ShareLinkOpening {
        guard Self.isShareID(id), let share = try store.shareLink(id: id) else { return .missing }
        if share.hasExpired(at: date) { return .expired }
        if visiting { try store.recordShareVisit(id: id, at: date) }
        return .open(share)
    }

    /// 16 characters of [a-z0-9] from the system's random generator (82 bits: the link is its own secret).
    static func newShareID() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<16).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }

    /// Whether `text` can be a share's id (a link with anything else is not looked up).
    public static func isShareID(_ text: String) -> Bool {
        text.count == 16 && text.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) }
    }
}
