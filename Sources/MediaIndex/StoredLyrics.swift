import MediaModel

/// One set of lyrics as the index keeps it (schema "v20" / "pg v17", table `lyrics`): what the scan read from
/// a file's tags or from a sidecar beside it. The store knows only its summary and its `body`, MediaProbe's
/// `Lyrics` as JSON (the reading side turns it back: MediaIndex does not depend on MediaProbe).
public struct StoredLyrics: Sendable, Hashable {
    /// "uslt", "sylt", "tag", "lrc", "elrc", "txt" (`Lyrics.Source`).
    public var source: String
    /// The tag key or the sidecar's file name.
    public var origin: String?
    /// ISO 639-2, lower case, when known.
    public var language: String?
    public var isSynced: Bool
    /// The plain text (a synced set's lines joined).
    public var text: String
    /// The whole set as `Lyrics` JSON.
    public var body: String
    /// For a sidecar: its file name (in the audio file's folder) and its stamp when read, which the next scan
    /// compares with the folder's listing.
    public var sidecar: SidecarStamp?

    public init(source: String, origin: String?, language: String?, isSynced: Bool, text: String, body: String,
                sidecar: SidecarStamp? = nil) {
        self.source = source
        self.origin = origin
        self.language = language
        self.isSynced = isSynced
        self.text = text
        self.body = body
        self.sidecar = sidecar
    }
}

/// A lyrics sidecar as a scan saw it: its name in the audio file's folder (a moved folder keeps it) and its
/// size, mtime and inode.
public struct SidecarStamp: Sendable, Hashable {
    public var name: [UInt8]
    public var stamp: FileStamp
    public init(name: [UInt8], stamp: FileStamp) {
        self.name = name
        self.stamp = stamp
    }
}

/// A saved position in an item (Subsonic's bookmark; `mlib play`'s resume), one per user and item.
public struct Bookmark: Sendable, Hashable {
    public var itemID: Int64
    /// nil: the library's owner (the CLI's user, or the owner account).
    public var user: String?
    public var positionMs: Int64
    public var comment: String?
    public var created: Double
    public var changed: Double
    public init(itemID: Int64, user: String?, positionMs: Int64, comment: String?, created: Double, changed: Double) {
        self.itemID = itemID
        self.user = user
        self.positionMs = positionMs
        self.comment = comment
        self.created = created
        self.changed = changed
    }
}

/// Lyrics and bookmarks in the library (both stores: SQLStore+Lyrics.swift, SQLStore+Bookmarks.swift). Every
/// requirement keeps the store contract (`LibraryStore`).
public protocol LyricsStore: Sendable {
    /// The lyrics the last scan read for item `id`, in the reader's order (tags, then sidecars).
    func lyrics(ofItem id: Int64) throws -> [StoredLyrics]
    /// The sidecar stamps recorded for this host's items under `root`, by item id (a scan compares them with
    /// the folder listings it walks: one read per scan, not one per folder).
    func lyricsSidecars(under root: MediaPath) throws -> [Int64: [SidecarStamp]]
}

public protocol BookmarkStore: Sendable {
    /// `user`'s bookmarks (nil: the owner's), the latest changed first.
    func bookmarks(user: String?) throws -> [Bookmark]
    /// `user`'s bookmark in item `id`, if any.
    func bookmark(ofItem id: Int64, user: String?) throws -> Bookmark?
    /// Creates or moves `user`'s bookmark in item `id` (its `created` kept when moved).
    ///
    /// - Throws: `IndexError.invalidArgument` for a negative position, an item that is not there, or a user
    ///   who is no account.
    func setBookmark(ofItem id: Int64, user: String?, positionMs: Int64, comment: String?) throws
    /// Removes `user`'s bookmark in item `id`; false when there was none.
    @discardableResult func deleteBookmark(ofItem id: Int64, user: String?) throws -> Bool
}
