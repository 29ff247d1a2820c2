import Foundation
import MediaModel

/// What the rest of mlib needs from a library store: queries, user data and playlists. `SQLiteIndex` is the
/// embedded default; a server-backed store (PostgreSQL) can conform later without touching its users.
/// (Named `MediaStore`, not `MediaIndex`, so that it does not shadow the module's own name.)
/// Writing items is the scanner's business and goes through `SQLiteIndex`'s batch API.
public protocol MediaStore: Sendable {
    func items(_ query: MediaQuery) throws -> [MediaItem]
    func forEachItem(_ query: MediaQuery, _ body: (MediaItem) throws -> Void) throws
    func count(_ query: MediaQuery) throws -> Int
    func collections(_ query: MediaQuery) throws -> [MediaCollection]
    func item(id: Int64) throws -> MediaItem?
    func item(path: MediaPath) throws -> MediaItem?

    func recordPlay(id: Int64, at date: Date) throws
    func recordSkip(id: Int64) throws
    func setRating(id: Int64, _ rating: Int?) throws

    func createPlaylist(name: String, smart: SmartPlaylistRule?) throws -> StoredPlaylist
    func playlists() throws -> [StoredPlaylist]
    func playlist(named name: String) throws -> StoredPlaylist?
    func appendToPlaylist(name: String, itemIDs: [Int64]) throws
    func removeFromPlaylist(name: String, positions: [Int]) throws
    func renamePlaylist(_ name: String, to newName: String) throws
    func deletePlaylist(name: String) throws
    func playlistItems(name: String) throws -> [MediaItem]
}
