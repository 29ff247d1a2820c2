import Foundation
import MediaModel

// The store, split by what its users need (ARCHITECTURE.md, "stores behind protocols that their users
// actually use"). `SQLiteIndex` and `PostgresIndex` conform to all of them, and every front (the CLI, `mlib serve`, a Swift program) and the scanner work with it unchanged. Open a
// library from a locator with `LibraryLocator` rather than naming a store type.

/// Reading items and collections: queries (predicate, sort, grouping) and look-ups.
public protocol LibraryReader: Sendable {
    func items(_ query: MediaQuery) throws -> [MediaItem]
    func forEachItem(_ query: MediaQuery, _ body: (MediaItem) throws -> Void) throws
    func count(_ query: MediaQuery) throws -> Int
    func collections(_ query: MediaQuery) throws -> [MediaCollection]
    func item(id: Int64) throws -> MediaItem?
    func item(path: MediaPath) throws -> MediaItem?
    func items(ids: [Int64]) throws -> [MediaItem]
    /// The ids `items(query)` returns, in the same order, without building items.
    func itemIDs(_ query: MediaQuery) throws -> [Int64]
    /// Collections without their items: name, count and a representative item, in key order.
    func collectionSummaries(_ query: MediaQuery) throws -> [MediaCollectionSummary]
    /// Streams `collectionSummaries`. Errors thrown by `body` are rethrown unchanged.
    func forEachCollectionSummary(_ query: MediaQuery, _ body: (MediaCollectionSummary) throws -> Void) throws
}

/// What the user (or the player) records: plays, skips, ratings. A rescan never touches it.
public protocol UserDataStore: Sendable {
    func recordPlay(id: Int64, at date: Date) throws
    func recordSkip(id: Int64) throws
    func setRating(id: Int64, _ rating: Int?) throws
    /// Sets one user-data property (`UserDataEdits.editable`) of the items `ids` in one transaction;
    /// returns how many items changed.
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
public protocol PlaylistStore: Sendable {
    /// What the library is called in messages: its file, or its server locator without a password.
    var libraryName: String { get }
    @discardableResult func createPlaylist(name: String, smart: SmartPlaylistRule?) throws -> StoredPlaylist
    func playlists() throws -> [StoredPlaylist]
    func playlist(named name: String) throws -> StoredPlaylist?
    func appendToPlaylist(name: String, itemIDs: [Int64]) throws
    /// Appends the items `query` selects, in its order, found inside the write transaction that adds them
    /// (a scan folding a move between the query and the append made "no item with id N"); the count added.
    func appendToPlaylist(name: String, matching query: MediaQuery) throws -> Int
    func removeFromPlaylist(name: String, positions: [Int]) throws
    func renamePlaylist(_ name: String, to newName: String) throws
    func deletePlaylist(name: String) throws
    func playlistItems(name: String) throws -> [MediaItem]
    func setPlaylistEntries(name: String, itemIDs: [Int64]) throws
    /// The mirror's name, and whether this call created it or changed its entries.
    @discardableResult func syncPlaylist(mirroring source: MediaPath, name: String, itemIDs: [Int64]) throws -> (name: String, changed: Bool)
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

/// The library's roots and what is known about it as a whole.
public protocol RootStore: Sendable {
    func roots() throws -> [MediaPath]
    @discardableResult func addRoot(_ root: MediaPath) throws -> Bool
    func removeRoot(_ root: MediaPath) throws
    func relocateRoot(_ old: MediaPath, to new: MediaPath) throws
    func rootStates() throws -> [RootState]
    func setExcludes(_ patterns: [String], of root: MediaPath) throws
    func statistics() throws -> LibraryStatistics
    func failures() throws -> [ScanFailure]
    /// "ok" when the library's own checks pass, else what is wrong (tests, after a killed scan or a migration).
    func integrityCheck() throws -> String
}

/// What the rest of mlib needs from a library for queries, user data and playlists.
/// (Named `MediaStore`, not `MediaIndex`, so that it does not shadow the module's own name.)
public typealias MediaStore = LibraryReader & UserDataStore & PlaylistStore

/// Everything a library offers: what `LibraryLocator.open` returns.
public typealias LibraryStore = MediaStore & RootStore & ScanStore & ItemChangeLog & AnalysisStore
