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
/// A value here, not in Playback, because two modules that do not know each other speak it: the player
/// (`PlayerEvent.itemDidEnd`) reports it and the library (`Library.record(_:)`, `PlayStatisticsRule`) judges it.
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
}
