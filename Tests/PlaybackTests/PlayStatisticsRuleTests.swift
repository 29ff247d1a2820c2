import Testing
@testable import Playback

@Suite("Play statistics rule")
struct PlayStatisticsRuleTests {
    func end(_ reason: ItemEndReason, at position: Double, of duration: Double) -> PlayStatisticsRule.Verdict {
        ItemEnd(item: testItem("a"), reason: reason, position: position, duration: duration).verdict
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
}
