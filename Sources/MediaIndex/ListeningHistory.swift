import Foundation
import MediaModel

/// One play or skip of an item, as the listening history keeps it (schema "v17" / "pg v14"): which item,
/// whose (nil: the library's owner, the one user of the CLI), when, how many seconds were heard (nil when
/// the front cannot know, as a Subsonic `scrobble`), and by which front (`Listen.Front`).
public struct Listen: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable { case play, skip }

    /// The fronts that record, by name (stored as text: a new front needs no schema step).
    public struct Front: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { rawValue = value }
        public var description: String { rawValue }

        /// `mlib play`.
        public static let play: Front = "play"
        /// The MPD server's player (`mlib serve`).
        public static let mpd: Front = "mpd"
        /// A Subsonic client's `scrobble`.
        public static let subsonic: Front = "subsonic"
        /// The Subsonic server's jukebox.
        public static let jukebox: Front = "jukebox"
        /// A Swift program calling `Library` without naming a front.
        public static let library: Front = "library"
        /// An import of another program's history.
        public static let `import`: Front = "import"
    }

    public var itemID: Int64
    public var kind: Kind
    public var date: Date
    public var heard: Double?
    public var front: Front
    public var user: String?

    public init(itemID: Int64, kind: Kind, date: Date, heard: Double? = nil, front: Front, user: String? = nil) {
        self.itemID = itemID
        self.kind = kind
        self.date = date
        self.heard = heard
        self.front = front
        self.user = user
    }
}

/// A listen with what the item is now (title, artist, album, path): nil for an item removed since (its
/// history stays, see `ListeningHistoryStore`).
public struct HistoryEntry: Sendable, Hashable {
    /// The history row's own id (increasing in the order listens were recorded).
    public var id: Int64
    public var listen: Listen
    public var title: String?
    public var artist: String?
    public var albumTitle: String?
    public var path: MediaPath?

    public init(id: Int64, listen: Listen, title: String? = nil, artist: String? = nil, albumTitle: String? = nil, path: MediaPath? = nil) {
        self.id = id
        self.listen = listen
        self.title = title
        self.artist = artist
        self.albumTitle = albumTitle
        self.path = path
    }
}

/// Which listens `history(_:)` reads: newest first, from `since` on, of one user (`user`; nil: everyone's),
/// of one kind (nil: plays and skips), at most `limit`.
public struct HistoryQuery: Sendable, Hashable {
    public var since: Date?
    public var user: UserFilter
    public var kind: Listen.Kind?
    public var limit: Int?

    /// Whose listens: everyone's, the owner's (rows without a user), the owner's when the owner has an
    /// account (rows without a user and rows of that account), or one named user's.
    public enum UserFilter: Sendable, Hashable { case everyone, owner, ownerAccount(String), named(String) }

    public init(since: Date? = nil, user: UserFilter = .everyone, kind: Listen.Kind? = nil, limit: Int? = nil) {
        self.since = since
        self.user = user
        self.kind = kind
        self.limit = limit
    }
}

/// The listening history: one row per play and per skip, written with the item's counters in one
/// transaction (`recordListen`), so `playCount`/`skipCount`/`lastPlayedDate` stay fast item properties that
/// agree with it. Rows follow the item id (a move or retag keeps the id, and so the history). An item
/// removed from the library keeps its rows, orphaned: the listening happened, ids are never reused (SQLite
/// AUTOINCREMENT, PostgreSQL identity), and an export still has the when and the front; `history` reads
/// such rows with no title or path.
public protocol ListeningHistoryStore: Sendable {
    /// Records `listen`: one history row and, in the same transaction, the item's counters (a play: play
    /// count + 1 and last played `listen.date`; a skip: skip count + 1).
    ///
    /// - Throws: `IndexError.itemNotFound` when `listen.itemID` is not an item (nothing written);
    ///   `IndexError.invalidArgument` for a date outside the years 1–9999 or a negative `heard`.
    func recordListen(_ listen: Listen) throws

    /// The listens `query` selects, newest first (by date, then by the order they were recorded). One
    /// statement, by the index on the date.
    func history(_ query: HistoryQuery) throws -> [HistoryEntry]

    /// Streams `history(query)` in the same order, in bounded memory (a cursor on PostgreSQL); the read
    /// stays open while `body` runs (keep it short, never call this store from it). Errors thrown by
    /// `body` are rethrown unchanged.
    func forEachHistoryEntry(_ query: HistoryQuery, _ body: (HistoryEntry) throws -> Void) throws

    /// How many rows the history holds (plays and skips, every user).
    func historyCount() throws -> Int

    /// The items played near the plays of `itemIDs` — within `window` seconds before or after, by the same
    /// listener: a listening session, as far as the history can tell — with how many of those plays each was
    /// near (`CoListening`): `user`'s plays apart from everyone else's. Only the newest 500 plays of the
    /// seeds are looked at, so the cost stays bounded however long the history grows (by the index on the
    /// item, then the one on the date). The seeds themselves are left out.
    func listenedAlongside(_ itemIDs: [Int64], user: HistoryQuery.UserFilter, window: TimeInterval) throws -> [Int64: CoListening]
}

/// How often an item was played in the same session as a seed (`listenedAlongside`): in the asking user's
/// sessions, and in everyone else's.
public struct CoListening: Sendable, Hashable {
    public var mine: Int
    public var others: Int

    public init(mine: Int, others: Int) {
        self.mine = mine
        self.others = others
    }
}
