import MediaModel
import Playback

/// A `MusicPlayer` fills its queue from a library: `player.setQueue(with: query, from: library)`.
extension Library: MediaItemSource {
    /// The items matching `query`, in its order.
    public func items(_ query: MediaQuery) throws -> [MediaItem] {
        try store.items(query)
    }
}
