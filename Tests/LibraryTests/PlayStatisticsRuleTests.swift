import Library
import MediaModel
import Testing

/// The rule is the library's (what a play means for its statistics); the player only reports `ItemEnd`s.
@Suite("Play statistics rule")
struct PlayStatisticsRuleTests {
    func end(_ reason: ItemEndReason, at position: Double, of duration: Double, heard: Double? = nil) -> PlayStatisticsRule.Verdict {
        ItemEnd(item: MediaItem(path: MediaPath("/m/a.flac")), reason: reason, position: position, duration: duration, heard: heard).verdict
    }

    @Test func finishingIsAPlay() {
        #expect(end(.finished, at: 180, of: 180) == .played)
    }

    @Test func halfTheItemOrFourMinutesIsAPlay() {
        #expect(end(.skipped, at: 90, of: 180) == .played)
        #expect(end(.stopped, at: 89, of: 180) == .none)
        #expect(end(.stopped, at: 240, of: 3600) == .played)
        #expect(end(.removed, at: 239, of: 3600) == .none)
    }

    @Test func skippingEarlyIsASkip() {
        #expect(end(.skipped, at: 0, of: 180) == .skipped)
        #expect(end(.skipped, at: 19.9, of: 180) == .skipped)
        #expect(end(.skipped, at: 20, of: 180) == .none)
        #expect(end(.stopped, at: 3, of: 180) == .none)     // stopping is not skipping
    }

    @Test func aShortItemSkippedPastHalfIsAPlay() {
        #expect(end(.skipped, at: 6, of: 10) == .played)
    }

    @Test func failuresCountForNothing() {
        #expect(end(.failed, at: 200, of: 300) == .none)
    }

    @Test func unknownDurationNeedsFourMinutes() {
        #expect(end(.stopped, at: 100, of: 0) == .none)
        #expect(end(.stopped, at: 240, of: 0) == .played)
    }

    /// Time heard decides, not the position (issue 13): PlaybackTests' HeardTimeTests check what the player
    /// reports as heard; these, what the library makes of it.
    @Test func timeHeardDecidesNotThePosition() {
        #expect(end(.skipped, at: 430, of: 600, heard: 40) == .none)      // sought past half, heard 40 s
        #expect(end(.stopped, at: 35, of: 100, heard: 55) == .played)     // paused and resumed: 55 s of 100
        #expect(end(.stopped, at: 30, of: 100, heard: 60) == .played)     // sought back and heard the start again
        #expect(end(.skipped, at: 1, of: 2, heard: 1) == .played)        // half of a 2 s item
        #expect(end(.skipped, at: 1, of: 180, heard: 1) == .skipped)
    }
}
