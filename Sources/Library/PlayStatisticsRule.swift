import MediaModel

/// When a play counts, following the scrobblers (Last.fm: half the track or four minutes) and iTunes
/// (a skip is leaving a track early): one documented rule every front that plays records by
/// (`Library.record(_:)`). Library policy, not the player's: the player reports how an item ended
/// (`ItemEnd`), the library decides what that means for its statistics.
///
/// - played: the item decoded to its end, or half its duration or 240 s of it were heard before it ended
///   in any other way (skip, stop, removal). → playCount += 1, lastPlayedDate = now.
/// - skipped: the user skipped away having heard less than 20 s. → skipCount += 1.
///
/// Time heard, not the position: seeking past half and leaving is not a play.
/// - nothing: anything else (stopped early, skipped between 20 s and the play threshold, failed).
public enum PlayStatisticsRule {
    public enum Verdict: String, Sendable, Hashable { case played, skipped, none }

    /// Playing this long (or half the item) counts as a play even if the item did not finish.
    public static let playThreshold: Double = 240
    /// Skipping away before this many seconds counts as a skip.
    public static let skipThreshold: Double = 20

    public static func verdict(for end: ItemEnd) -> Verdict {
        switch end.reason {
        case .failed: return .none
        case .finished: return .played
        case .skipped, .stopped, .removed:
            let half = end.duration > 0 ? end.duration / 2 : .infinity
            if end.heard >= min(half, playThreshold) { return .played }
            if end.reason == .skipped && end.heard < skipThreshold { return .skipped }
            return .none
        }
    }
}

extension ItemEnd {
    /// What this play means for play statistics (see `PlayStatisticsRule`).
    public var verdict: PlayStatisticsRule.Verdict { PlayStatisticsRule.verdict(for: self) }
}
