import Library
import Playback

/// A `MusicPlayer` fills its queue from a library: `player.setQueue(with: query, from: library)`. Declared
/// here, in a module that knows both, because `Library` does not depend on `Playback` (ARCHITECTURE.md:
/// dependencies point one way) and `Playback` knows no store.
extension Library: MediaItemSource {}
