import MediaModel
import Testing
@testable import Playback

/// Issue 13: seeking past half a track and leaving counted as a play. A play counts the time heard: these
/// check what the player reports as heard; LibraryTests' PlayStatisticsRuleTests, what the library's rule
/// makes of it.
@Suite("Play statistics: time heard")
struct HeardTimeTests {
    func lastEnd(_ m: inout PlayerStateMachine) -> ItemEnd? {
        m.drainEvents().compactMap { if case .itemDidEnd(let e) = $0 { e } else { nil } }.last
    }

    @Test func seekingPastHalfAndSkippingIsNotAPlay() throws {
        var m = PlayerStateMachine.with(["long", "next"], duration: 600)
        m.play()
        m.advanceClock(to: 10)
        m.seek(to: 400)
        m.advanceClock(to: 40)           // 30 s more heard, at 430 s
        m.skipToNextItem()
        let end = try #require(lastEnd(&m))
        #expect(abs(end.position - 430) < 1e-9)
        #expect(abs(end.heard - 40) < 1e-9)  // under half and under 240 s: not a play
    }

    @Test func pausedTimeIsNotHeard() throws {
        var m = PlayerStateMachine.with(["a", "b"], duration: 100)
        m.play()
        m.advanceClock(to: 20)
        m.pause()
        m.advanceClock(to: 500)
        m.play()
        m.advanceClock(to: 60)           // earlier reading: ignored by the clock
        m.advanceClock(to: 535)          // 35 s more
        m.stop()
        let end = try #require(lastEnd(&m))
        #expect(abs(end.heard - 55) < 1e-9)  // 55 s of a 100 s item is past half: a play
    }

    @Test func listeningPastHalfStillCounts() throws {
        var m = PlayerStateMachine.with(["a", "b"], duration: 100)
        m.play()
        m.advanceClock(to: 51)
        m.skipToNextItem()
        #expect(lastEnd(&m).map { abs($0.heard - 51) < 1e-9 } == true)
    }

    @Test func seekingBackAndHearingTheStartAgainIsAPlay() throws {
        var m = PlayerStateMachine.with(["a", "b"], duration: 100)
        m.play()
        m.advanceClock(to: 30)
        m.seek(to: 0)
        m.advanceClock(to: 60)           // position 30, heard 60
        m.stop()
        let end = try #require(lastEnd(&m))
        #expect(abs(end.position - 30) < 1e-9 && abs(end.heard - 60) < 1e-9)
    }
}
