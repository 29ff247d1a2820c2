import Foundation
import MediaModel

// The store, split by what its users need (ARCHITECTURE.md, "stores behind protocols that their users
// actually use"). `SQLiteIndex` and `PostgresIndex` conform to all of them, and every front (the CLI, `mlib
// serve`, a Swift program) and the scanner work with it unchanged. Open a library from a locator with
// `LibraryLocator` rather than naming a store type. What every requirement promises is written once, on
// `LibraryStore` below ("The store contract"); each requirement says what it adds.

/// Reading items and collections: queries (predicate, sort, grouping) and look-ups.
///
/// Every requirement keeps the store contract (`LibraryStore`): synchronous, from any thread but never an
/// event loop's, not reentrant, one read per call, `IndexError`/`QueryError` only. Hidden items (vanished
/// files a partial scan keeps for a possible move) are never returned.
public protocol LibraryReader: Sendable {
    /// The items `query` selects, in `query.effectiveSort` (its sort, else its grouping's default item
    /// order), `offset` and `limit` applied: the whole answer in memory (use `forEachItem` for a large one).
    ///
    /// - Throws: `QueryError` for a query that cannot run (a predicate on a property that cannot be
    ///   filtered, more than 500 terms, a query the database refuses as too large); `IndexError.database`.
    func items(_ query: MediaQuery) throws -> [MediaItem]

    /// Streams what `items(query)` returns, in the same order, calling `body` once per item on the calling
    /// thread before the call returns.
    ///
    /// - Streaming: when the database can answer the query alone, the rows are read as `body` consumes them
    ///   (a cursor of 1,000 rows at a time on PostgreSQL, row by row on SQLite), so a million items take
    ///   bounded memory; when part of the query is evaluated in Swift (a predicate or order the SQL cannot
    ///   express), a superset is read first and the items are handed over after.
    /// - Transaction: the read stays open while `body` runs: other calls on this store wait for it, and on
    ///   SQLite the snapshot it reads holds back the WAL checkpoint. Keep `body` short; never call this
    ///   store from it (not reentrant: collect, then call).
    /// - Throws: what `items(_:)` throws; an error `body` throws ends the stream and is rethrown unchanged
    ///   (a closed pipe while printing is not a database error).
    func forEachItem(_ query: MediaQuery, _ body: (MediaItem) throws -> Void) throws

    /// `forEachItem(query)`, with each item holding only its id, its path and `properties` (the others
    /// absent, its tag map empty): a listing that prints a few fields reads only their columns rather than
    /// decoding every column of every row (issue 50: `mlib ls --paths` decoded ~100 columns per item).
    /// A query part evaluated in Swift may read any property: then whole items are read, as `forEachItem`.
    /// With `tags`, each item holds its raw tag map too (what a reader of raw tags needs, e.g. MPD's
    /// `Performer` or `Work` in the view, issue 44), else the map is empty.
    func forEachItem(_ query: MediaQuery, reading properties: [MediaProperty], tags: Bool, _ body: (MediaItem) throws -> Void) throws

    /// How many items `items(query)` would return (`limit` and `offset` applied), counted by the database
    /// when it can answer the query alone. Throws as `items(_:)`.
    func count(_ query: MediaQuery) throws -> Int

    /// The items grouped by `query.grouping`: collections in key order (folded text, missing keys last),
    /// items in each in `query.effectiveSort`; `limit` and `offset` count collections. `.playlist` grouping
    /// gives the library's playlists (by name), each filtered by the query. Throws as `items(_:)`.
    func collections(_ query: MediaQuery) throws -> [MediaCollection]

    /// The item with this id, or nil when there is none (never was, removed, or hidden). One statement.
    func item(id: Int64) throws -> MediaItem?

    /// The item at `path` (its bytes, as the disk names it), or nil. On a library shared by several hosts,
    /// this host's file comes before another host's at the same path. One statement.
    func item(path: MediaPath) throws -> MediaItem?

    /// The items with these ids, in the order given (an id given twice gives its item twice); ids that are
    /// not items are left out, without an error. One statement.
    func items(ids: [Int64]) throws -> [MediaItem]

    /// The ids `items(query)` returns, in the same order, without building items. Throws as `items(_:)`.
    func itemIDs(_ query: MediaQuery) throws -> [Int64]

    /// Collections without their items: name, count and a representative item, in key order, as
    /// `collections(query)` orders them. Throws as `items(_:)`.
    func collectionSummaries(_ query: MediaQuery) throws -> [MediaCollectionSummary]

    /// Streams `collectionSummaries(query)` in the same order; the read stays open while `body` runs (as
    /// `forEachItem`: keep it short, never call this store from it). Errors thrown by `body` are rethrown
    /// unchanged.
    func forEachCollectionSummary(_ query: MediaQuery, _ body: (MediaCollectionSummary) throws -> Void) throws
}

extension LibraryReader {
    /// Whole items: a store that cannot read fewer columns still answers.
    public func forEachItem(_ query: MediaQuery, reading properties: [MediaProperty], tags: Bool, _ body: (MediaItem) throws -> Void) throws {
        try forEachItem(query, body)
    }

    /// `forEachItem(query, reading: properties, tags: false, body)`: the tag map left empty.
    public func forEachItem(_ query: MediaQuery, reading properties: [MediaProperty], _ body: (MediaItem) throws -> Void) throws {
        try forEachItem(query, reading: properties, tags: false, body)
    }
}

/// What the user (or the player) records: plays, skips, ratings. A rescan never touches it; a move keeps it
/// (the item keeps its id). Every requirement is one write transaction and keeps the store contract
/// (`LibraryStore`).
public protocol UserDataStore: Sendable {
    /// One play of item `id`: play count + 1 and last played `date`, in one statement (two plays recorded
    /// at once from two processes both count).
    ///
    /// - Throws: `IndexError.itemNotFound` when `id` is not an item (removed meanwhile: the caller decides
    ///   whether that matters; `Library.record` reports it).
    func recordPlay(id: Int64, at date: Date) throws

    /// One skip of item `id`: skip count + 1, in one statement. Throws `IndexError.itemNotFound` as
    /// `recordPlay`.
    func recordSkip(id: Int64) throws

    /// Sets item `id`'s rating, 0–5 as MPMediaItem's, or clears it with nil.
    ///
    /// - Throws: `IndexError.invalidArgument` for a rating outside 0–5 (nothing written);
    ///   `IndexError.itemNotFound` when `id` is not an item.
    func setRating(id: Int64, _ rating: Int?) throws

    /// Sets one user-data property (`UserDataEdits.editable`) of the items `ids` in one transaction: all of
    /// them or none. Ids that are not items are skipped without an error; returns how many items changed.
    ///
    /// - Throws: `IndexError.invalidArgument` for a property or value `UserDataEdits.problem` refuses
    ///   (checked before anything is written).
    @discardableResult
    func setUserData(_ property: MediaProperty, to value: Int64?, ids: [Int64]) throws -> Int
}

/// The rules of user-data edits, the same for every store: rating 0–5 (nil clears it), play and skip
/// counts (nil is 0, never negative), and the last played date (seconds since 1970; nil clears it).
public enum UserDataEdits {
    public static let editable: [MediaProperty] = [.rating, .playCount, .skipCount, .lastPlayedDate]

    /// Why `value` cannot be set on `property`, or nil.
    public static func problem(_ property: MediaProperty, _ value: Int64?) -> String? {
        switch property {
        case .rating: value.map { (0...5).contains($0) } == false ? "rating must be 0–5, got \(value!)" : nil
        case .playCount, .skipCount: (value ?? 0) < 0 ? "\(property.rawValue) cannot be negative" : nil
        case .lastPlayedDate: value.map { StoredBounds.timestamps.contains(Double($0)) } == false ? "lastPlayedDate must lie within the years 1–9999" : nil
        default: "\(property.rawValue) is not user data (editable: rating, playCount, skipCount, lastPlayedDate)"
        }
    }

    /// What is stored for `value`: counts are never NULL (MPMediaItem's are 0).
    package static func stored(_ property: MediaProperty, _ value: Int64?) -> Int64? {
        property == .playCount || property == .skipCount ? (value ?? 0) : value
    }
}

/// Playlists: the user's own (static or smart) and the mirrors of playlist files under the roots.
///
/// Names are exact (case and Unicode form as given); a mirror (a playlist whose `source` is a playlist file)
/// is the scan's to write: the editing requirements refuse it. Every requirement keeps the store contract
/// (`LibraryStore`); each write is one transaction, so an edit either happens whole or not at all.
public protocol PlaylistStore: Sendable {
    /// What the library is called in messages: its file, or its server locator without a password. Never
    /// touches the database.
    var libraryName: String { get }

    /// Creates a playlist: static when `smart` is nil, else one whose items are its rule's answer at each
    /// read (`PlaylistContents`).
    ///
    /// - Throws: `IndexError.playlistExists` when the name is taken; `IndexError.invalidArgument` for an
    ///   empty or blank name.
    @discardableResult func createPlaylist(name: String, smart: SmartPlaylistRule?) throws -> StoredPlaylist

    /// `createPlaylist(name:smart:)` for `owner`, an API user (nil: the library's own, as that makes), seen
    /// by other users only when `isPublic` (`StoredPlaylist.isVisible(to:admin:)`). Names stay unique in the
    /// library whoever owns them: the CLI and MPD name playlists. Throws as `createPlaylist(name:smart:)`.
    @discardableResult func createPlaylist(name: String, smart: SmartPlaylistRule?, owner: String?, isPublic: Bool) throws -> StoredPlaylist

    /// Makes a playlist public or private. Throws `IndexError.playlistNotFound`.
    func setPlaylistPublic(name: String, _ isPublic: Bool) throws

    /// Every playlist (the user's and the mirrors), by name.
    func playlists() throws -> [StoredPlaylist]

    /// The playlist named exactly `name`, or nil.
    func playlist(named name: String) throws -> StoredPlaylist?

    /// Appends `itemIDs`, in that order, to a static playlist of the user's.
    ///
    /// - Throws: `IndexError.playlistNotFound`; `IndexError.invalidArgument` for a mirror;
    ///   `IndexError.itemNotFound` naming the first id that is not an item (then nothing is appended).
    func appendToPlaylist(name: String, itemIDs: [Int64]) throws

    /// Appends the items `query` selects, in its order, found inside the write transaction that adds them
    /// (a scan folding a move between the query and the append made "no item with id N"); the count added.
    /// Where part of the query is evaluated in Swift, the items are read first, in a transaction of their
    /// own, and a fold between the two is the `IndexError.itemNotFound` of `appendToPlaylist(name:itemIDs:)`.
    /// Throws as that does, and as `LibraryReader.items(_:)` for the query.
    func appendToPlaylist(name: String, matching query: MediaQuery) throws -> Int

    /// Removes the entries at these 0-based positions (as `playlistItems` lists them) and renumbers the
    /// rest; a position given twice removes one entry.
    ///
    /// - Throws: `IndexError.playlistNotFound`; `IndexError.invalidArgument` for a mirror or a position
    ///   outside the playlist (then nothing is removed).
    func removeFromPlaylist(name: String, positions: [Int]) throws

    /// Renames a playlist (a mirror too: its file keeps feeding it); renaming to its own name is allowed.
    ///
    /// - Throws: `IndexError.playlistNotFound`; `IndexError.playlistExists` when `newName` is another's.
    func renamePlaylist(_ name: String, to newName: String) throws

    /// Deletes a playlist and its entries (the items stay). A mirror whose file is still under a root comes
    /// back at the next scan. Throws `IndexError.playlistNotFound`.
    func deletePlaylist(name: String) throws

    /// A static playlist's items in entry order (an item listed twice appears twice; hidden items are left
    /// out). Smart playlists have no entries: `PlaylistContents` evaluates their rule. On PostgreSQL the
    /// look-up of the name and the read of the entries are two statements, each on its own snapshot.
    /// Throws `IndexError.playlistNotFound`.
    func playlistItems(name: String) throws -> [MediaItem]

    /// Replaces a static playlist's entries with `itemIDs`, in that order (importers, reordering).
    ///
    /// - Throws: `IndexError.playlistNotFound`; `IndexError.invalidArgument` for a mirror;
    ///   `IndexError.itemNotFound` for an id that is not an item (then nothing changes).
    func setPlaylistEntries(name: String, itemIDs: [Int64]) throws

    /// Keeps the playlist mirroring the playlist file at `source` equal to `itemIDs` (the scan's call): made
    /// on first sight, named `name` or `name (2)`… when the user has one of that name; entries rewritten
    /// only when they differ, so an unchanged rescan writes nothing. Returns the mirror's name, and whether
    /// this call created it or changed its entries.
    @discardableResult func syncPlaylist(mirroring source: MediaPath, name: String, itemIDs: [Int64]) throws -> (name: String, changed: Bool)

    /// Deletes the mirrors of playlist files under `directories` (completely walked) whose file is not in
    /// `found`; returns their names, in no particular order. The user's own playlists are never touched.
    @discardableResult func removeMirrors(under directories: [MediaPath], except found: Set<MediaPath>) throws -> [String]
}

extension PlaylistStore {
    /// A static playlist.
    @discardableResult
    public func createPlaylist(name: String) throws -> StoredPlaylist { try createPlaylist(name: name, smart: nil as SmartPlaylistRule?) }

    /// The tuple form of `createPlaylist(name:smart:)`.
    @discardableResult
    public func createPlaylist(name: String, smart: (predicate: String, sort: String?, limit: Int?)?) throws -> StoredPlaylist {
        try createPlaylist(name: name, smart: smart.map { SmartPlaylistRule(predicate: $0.predicate, sort: $0.sort, limit: $0.limit) })
    }
}

/// The library's roots and what is known about it as a whole. On a library shared by several hosts
/// (PostgreSQL), roots and their states are this host's; `statistics` and `failures` are every host's. Every
/// requirement keeps the store contract (`LibraryStore`).
public protocol RootStore: Sendable {
    /// This host's roots, in byte order of their paths.
    func roots() throws -> [MediaPath]

    /// Adds a root (nothing is scanned: `Library.scan` does that). Returns false, writing nothing, when it
    /// is already a root.
    @discardableResult func addRoot(_ root: MediaPath) throws -> Bool

    /// Forgets a root and everything indexed under it that no other root covers, in one write transaction:
    /// items (with their user data and playlist entries), failures, mounts. Forgetting a root nested in
    /// another removes no item, and a path that is not a root removes nothing another root covers. The other
    /// roots are read just before the write, in a transaction of their own.
    func removeRoot(_ root: MediaPath) throws

    /// Moves a root and everything under it to `new` (`/mnt/nas` → `/media/nas`) in one write transaction:
    /// ids, user data and playlist entries stay.
    ///
    /// - Throws: `IndexError.invalidArgument` when `RootRelocation.refusal` refuses the move (not a root,
    ///   `new` inside another root…), checked on a read just before the write: a root added by another
    ///   process between the two is not seen.
    func relocateRoot(_ old: MediaPath, to new: MediaPath) throws

    /// This host's roots with the generation of their last complete walk and their exclude lists, in byte
    /// order of their paths.
    func rootStates() throws -> [RootState]

    /// Replaces a root's stored exclude list (patterns as in a .mlibignore at the root); the next scan of
    /// the root applies it.
    func setExcludes(_ patterns: [String], of root: MediaPath) throws

    /// Totals over the whole library (every host's items, hidden ones left out), read in one transaction.
    func statistics() throws -> LibraryStatistics

    /// The files the scans could not read (every host's, on a shared library), by path then message.
    func failures() throws -> [ScanFailure]

    /// "ok" when the library's own checks pass (the database's integrity check, the full-text index's
    /// structure, what mlib derives from rows), else one line per problem. Reads the whole database: for
    /// tests (after a killed scan, a migration), not for a hot path.
    func integrityCheck() throws -> String

    /// Runs now the checks the store makes before its first write, once a process (SQLite: `PRAGMA
    /// quick_check` and each index's entries against its table: every page read, ~3 s at 1,000,000 items),
    /// so that a server's first client write (a rating) does not wait for them; throws what that first
    /// write would throw, and the write still refuses a damaged library. PostgreSQL: nothing to check.
    func prepareForWrites() throws
}

/// What the rest of mlib needs from a library for queries, user data and playlists.
/// (Named `MediaStore`, not `MediaIndex`, so that it does not shadow the module's own name.)
public typealias MediaStore = LibraryReader & UserDataStore & PlaylistStore & ListeningHistoryStore & UserAccountStore & UserItemDataStore
    & UserDataImportStore
    & LyricsStore & BookmarkStore & RadioStationStore & ShareLinkStore

/// Everything a library offers: what `LibraryLocator.open` returns.
///
/// ## The store contract
///
/// Every requirement of the store protocols (`LibraryReader`, `UserDataStore`, `PlaylistStore`,
/// `RootStore`, `ScanStore`, `ItemChangeLog`, `AnalysisStore`, `UserAccountStore`) keeps these rules, on
/// both stores (the shared store tests run each against SQLite and a real PostgreSQL server); a
/// requirement's own documentation says only what it adds or where it differs.
///
/// - **Threading.** Synchronous: a call blocks its thread until the database has answered (SQLite: the
///   disk; PostgreSQL: one round trip or more). Any thread may call, several at once: the calls on one store
///   take turns on its one connection (GRDB's queue, the PostgreSQL session's lock); a second store opened
///   on the same library (`LibraryLocator.open` again, `ScanStore.readingConnection`) works beside it.
/// - **Never on an event loop.** A swift-nio event-loop thread (the MPD server's, Hummingbird's) must hop
///   off first (`offLoop`, `NIOThreadPool`): a blocked loop stops every connection it serves, and
///   postgres-nio answers on a loop of its own. Debug builds stop at such a call (`EventLoopCheck`).
/// - **Not reentrant.** A closure a requirement calls (`forEachItem`'s `body`) must not call the same store:
///   SQLite stops the process (GRDB: "Database methods are not reentrant"), PostgreSQL waits for itself
///   forever. Collect what you need, then call.
/// - **Transactions.** Each call is one transaction unless its documentation says otherwise. A write commits
///   when the call returns and is rolled back entirely when it throws. A read sees one snapshot on SQLite;
///   on PostgreSQL each statement sees its own (READ COMMITTED, no transaction around a read), which
///   matters only for the reads of several statements, and those say so. Two calls are two transactions:
///   another process (a scan, `mlib tag`) may commit between them, so read-then-write across calls is not
///   atomic; the requirements that need it atomic do both in one call (`appendToPlaylist(name:matching:)`).
/// - **Ordering.** A requirement that returns a list says its order; "in no order" where it has none.
/// - **Errors.** `IndexError` (naming the library) for what the library refuses or cannot do —
///   `.database` for what the database reported or a lost server — and `QueryError` for a query that cannot
///   run; never a GRDB or postgres-nio error. An error thrown by the caller's closure leaves unchanged.
/// - **Hidden items.** Items a partial scan has hidden (a vanished file it keeps for a possible move) are
///   not returned by any reading requirement until a scan shows them again or removes them.
public typealias LibraryStore = MediaStore & RootStore & ScanStore & ItemChangeLog & AnalysisStore
