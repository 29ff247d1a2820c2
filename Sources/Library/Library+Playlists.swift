import MediaIndex
import MediaModel

extension Library {
    /// The items of the playlist named `name` now, in order (a smart one's rule evaluated by
    /// `PlaylistContents`); nil when there is no such playlist.
    public func items(ofPlaylist name: String) throws -> [MediaItem]? {
        guard let playlist = try store.playlist(named: name) else { return nil }
        return try items(of: playlist)
    }

    /// The items of `playlist` now, in order.
    public func items(of playlist: StoredPlaylist) throws -> [MediaItem] {
        try PlaylistContents.items(of: playlist, in: store)
    }

    /// Streams the items of `playlist` in order.
    public func forEachItem(of playlist: StoredPlaylist, _ body: (MediaItem) throws -> Void) throws {
        try PlaylistContents.forEachItem(of: playlist, in: store, body)
    }

    /// Each playlist as a collection named after it, by name (`mlib ls --group playlists`): its items as
    /// `items(of:)` lists them, those matching `query.filter`; `query.limit`/`offset` count playlists.
    /// Empty results are kept (a playlist exists even when nothing in it matches).
    public func playlistCollections(_ query: MediaQuery) throws -> [MediaCollection] {
        var playlists = query
        playlists.grouping = .playlist
        return try store.collections(playlists)       // SQLStore: the one evaluator, limit before filter
    }

    /// The query's collections as summaries (name, count, first item, total duration), playlists included.
    /// Playlists with no matching item are left out.
    public func forEachCollectionSummary(_ query: MediaQuery, _ body: (MediaCollectionSummary) throws -> Void) throws {
        try store.forEachCollectionSummary(query, body)
    }

    /// `forEachCollectionSummary`, collected.
    public func collectionSummaries(_ query: MediaQuery) throws -> [MediaCollectionSummary] {
        var result: [MediaCollectionSummary] = []
        try forEachCollectionSummary(query) { result.append($0) }
        return result
    }
}
