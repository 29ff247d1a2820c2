import MediaIndex
import MediaModel

/// What a stored playlist holds now: the entries of a static one, the result of the rule of a smart one
/// (evaluated at each read, so it sees today's library). The one evaluator every front uses: `mlib
/// playlist show`, `mlib ls --group playlists`, `mlib play`, `mlib export` and `mlib serve` (through
/// `Library.items(of:)` and `Library.playlistCollections`).
public enum PlaylistContents {
    /// The order when a rule names none: the one `mlib ls` lists in (album order within an artist; files
    /// without tags by path, not in the order the scan found them). With `--limit` it decides which items
    /// a smart playlist holds, so it is the same everywhere (documented in mlib(1), "Smart playlists").
    public static let defaultSort = "artist,album,title,path"

    /// The query a smart playlist's stored rule stands for. The predicate is a format string
    /// (`rating >= 4`), or short-form words when it has no operator (`artist:björk year:1990..`), as
    /// `mlib ls` reads its arguments; an empty one matches everything. Throws `QueryError` for a rule that
    /// no longer parses (a property renamed since it was stored).
    public static func query(_ rule: SmartPlaylistRule) throws -> MediaQuery {
        let text = rule.predicate.trimmingCharacters(in: .whitespaces)
        let filter: Predicate = text.isEmpty ? .all
            : PredicateParser.looksLikeFormat(text) ? try PredicateParser.parse(text) : try ShortQueryParser.parse(text)
        return MediaQuery(filter: filter, sort: try SortDescriptor.parseList(rule.sort ?? defaultSort), limit: rule.limit)
    }

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
