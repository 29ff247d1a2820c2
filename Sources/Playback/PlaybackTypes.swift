import MediaModel

/// The player's transport state, as `MPMusicPlaybackState`.
public enum PlaybackState: String, Sendable, Hashable, CaseIterable {
    case stopped, playing, paused, interrupted, seekingForward, seekingBackward

    /// States in which the playback time moves (and the engine produces sound).
    public var isAdvancing: Bool { self == .playing || self == .seekingForward || self == .seekingBackward }
}

/// As `MPMusicRepeatMode`.
public enum RepeatMode: String, Sendable, Hashable, CaseIterable {
    case none, one, all
}

/// As `MPMusicShuffleMode`: `albums` shuffles the order of albums and keeps each album's track order.
public enum ShuffleMode: String, Sendable, Hashable, CaseIterable {
    case off, songs, albums
}

/// Notifications, as MPMusicPlayerController's (plus the item-level events a library needs).
public enum PlayerEvent: Sendable, Hashable {
    case playbackStateDidChange(PlaybackState)
    /// A new play of an item begins (also on each repetition under `RepeatMode.one`); nil when playback ended.
    case nowPlayingItemDidChange(MediaItem?)
    case queueDidChange
    case volumeDidChange(Float)
    /// The now-playing item ended for `reason`; `Library.record(_:)` turns it into play statistics.
    case itemDidEnd(ItemEnd)
    /// The item could not be decoded; the player skips it and goes on.
    case itemDidFail(MediaItem, message: String)
    /// The sink failed (device gone, broken pipe): the player is `interrupted`.
    case outputDidFail(String)
}
