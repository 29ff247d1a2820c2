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

/// Why an item stopped being the now-playing item.
public enum ItemEndReason: String, Sendable, Hashable {
    /// Decoded to its end.
    case finished
    /// The user moved away: next, previous, or another item chosen.
    case skipped
    /// `stop()`, or playback ended by `skipToPreviousItem` at the first item.
    case stopped
    /// Removed from the queue, or the queue was replaced.
    case removed
    /// Could not be opened or decoded.
    case failed
}

/// One play of one item, reported when it ends: enough for the caller to write play statistics.
public struct ItemEnd: Sendable, Hashable {
    public var item: MediaItem
    public var itemID: Int64 { item.persistentID }
    public var reason: ItemEndReason
    /// Where playback was when the item ended (seconds into the item).
    public var position: Double
    /// The item's duration as known (decoded length, else the index's), or 0 if unknown.
    public var duration: Double
    /// Seconds of it actually played at normal speed (not paused, not jumped over by a seek); what play
    /// statistics count. Defaults to `position` (a play from the start without seeks).
    public var heard: Double

    public init(item: MediaItem, reason: ItemEndReason, position: Double, duration: Double, heard: Double? = nil) {
        self.item = item
        self.reason = reason
        self.position = position
        self.duration = duration
        self.heard = heard ?? position
    }

    /// What this play means for play statistics (see `PlayStatisticsRule`).
    public var verdict: PlayStatisticsRule.Verdict { PlayStatisticsRule.verdict(for: self) }
}

/// Notifications, as MPMusicPlayerController's (plus the item-level events a library needs).
public enum PlayerEvent: Sendable, Hashable {
    case playbackStateDidChange(PlaybackState)
    /// A new play of an item begins (also on each repetition under `RepeatMode.one`); nil when playback ended.
    case nowPlayingItemDidChange(MediaItem?)
    case queueDidChange
    case volumeDidChange(Float)
    /// The now-playing item ended for `reason`; use `ItemEnd.verdict` to update play statistics.
    case itemDidEnd(ItemEnd)
    /// The item could not be decoded; the player skips it and goes on.
    case itemDidFail(MediaItem, message: String)
    /// The sink failed (device gone, broken pipe): the player is `interrupted`.
    case outputDidFail(String)
}
