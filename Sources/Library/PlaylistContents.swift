import MediaIndex
import MediaModel

/// What a stored playlist holds now: the entries of a static one, the result of the rule of a smart one
/// (evaluated at each read, so it sees today's library). The one evaluator every front uses: `mlib
/// playlist show`, `mlib ls --group playlists`, `mlib play`, `mlib export` and `mlib serve` (through
/// `Library.items(of:)` and `Library.playlistCollections`).
public enum PlaylistContents {
    /// The order when a rule names none (`SmartPlaylistRule.defaultSort`).
    public static let defaultSort = SmartPlaylistRule.defaultSort

    /// The query a smart playlist's stored rule stands for (`SmartPlaylistRule.query()`, the one evaluator).
    public static func query(_ rule: SmartPlaylistRule) throws -> MediaQuery { try rule.query() }

    /// The playlist's items, streamed in order.
    public static func forEachItem(of playlist: StoredPlaylist, in store: any LibraryStore,
                                   _ body: (MediaItem) throws -> Void) throws {
        if let rule = playlist.smart {
            try store.forEachItem(try query(rule), body)
        } else {
            for item in try store.playlistItems(name: playlist.name) { try body(item) }
        }
    }

    /// The playlist's items, in order.
    public static func items(of playlist: StoredPlaylist, in store: any LibraryStore) throws -> [MediaItem] {
        var items: [MediaItem] = []
        try forEachItem(of: playlist, in: store) { items.append($0) }
        return items
    }
}
