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
        let stored = try store.playlists().sorted { TextMatching.compare(TextFolding.folded($0.name), TextFolding.folded($1.name)) < 0 }
        let evaluator = try PredicateEvaluator(query.filter)
        return try stored.dropFirst(max(0, query.offset)).prefix(query.limit ?? .max).map { playlist in
            // Filtered after evaluation: a smart playlist's limit picks its items before the query narrows them.
            MediaCollection(name: playlist.name, items: try items(of: playlist).filter(evaluator.matches))
        }
    }

    /// The query's collections as summaries (name, count, first item, total duration), playlists by
    /// `playlistCollections` and every other grouping by the store. Playlists with no matching item are left out.
    public func forEachCollectionSummary(_ query: MediaQuery, _ body: (MediaCollectionSummary) throws -> Void) throws {
        guard query.grouping == .playlist else { return try store.forEachCollectionSummary(query, body) }
        for collection in try playlistCollections(query) {
            guard let first = collection.items.first else { continue }
            try body(MediaCollectionSummary(name: collection.name, count: collection.count, representativeItem: first,
                                            totalDuration: collection.items.reduce(0) { $0 + $1.playbackDuration }))
        }
    }

    /// `forEachCollectionSummary`, collected.
    public func collectionSummaries(_ query: MediaQuery) throws -> [MediaCollectionSummary] {
        var result: [MediaCollectionSummary] = []
        try forEachCollectionSummary(query) { result.append($0) }
        return result
    }
}
