import MediaModel

extension Library {
    /// The items matching `query`, in its order (a `MusicPlayer` queue: `player.setQueue(with: try library.items(query))`).
    public func items(_ query: MediaQuery) throws -> [MediaItem] {
        try store.items(query)
    }
}
