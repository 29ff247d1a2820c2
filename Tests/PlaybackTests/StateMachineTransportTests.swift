import MediaModel
import Testing
@testable import Playback

@Suite("State machine: transport")
struct StateMachineTransportTests {
    @Test func newQueueIsStoppedWithNothingPlaying() {
        var m = PlayerStateMachine(seed: 1)
        m.setQueue([testItem("a"), testItem("b")])
        #expect(m.playbackState == .stopped)
        #expect(m.nowPlayingItem == nil)
        #expect(m.drainEvents().contains(.queueDidChange))
    }

    @Test func playStartsTheFirstItemAndAnnouncesIt() {
        var m = PlayerStateMachine.with(["a", "b"])
        m.play()
        #expect(m.nowTitle == "a")
        #expect(m.indexOfNowPlayingItem == 0)
        #expect(m.playbackState == .playing)
        #expect(m.drainEvents() == [.nowPlayingItemDidChange(m.queue[0]), .playbackStateDidChange(.playing)])
    }

    @Test func playOnAnEmptyQueueDoesNothing() {
        var m = PlayerStateMachine(seed: 1)
        m.play()
        #expect(m.playbackState == .stopped)
        #expect(m.drainEvents().isEmpty)
    }

    @Test func prepareToPlayMakesTheFirstItemCurrentWithoutPlaying() {
        var m = PlayerStateMachine.with(["a", "b"])
        m.prepareToPlay()
        #expect(m.nowTitle == "a")
        #expect(m.playbackState == .stopped)
        m.advanceClock(to: 5)
        #expect(m.currentPlaybackTime == 0)
    }

    @Test func timeFollowsTheClockOnlyWhilePlaying() {
        var m = PlayerStateMachine.with(["a"], duration: 100)
        m.play()
        m.advanceClock(to: 3)
        #expect(m.currentPlaybackTime == 3)
        m.pause()
        #expect(m.playbackState == .paused)
        #expect(m.currentPlaybackRate == 0)
        m.advanceClock(to: 10)
        #expect(m.currentPlaybackTime == 3)
        m.play()
        m.advanceClock(to: 12)
        #expect(m.currentPlaybackTime == 5)
        #expect(m.currentPlaybackRate == 1)
    }

    @Test func clockNeverGoesBack() {
        var m = PlayerStateMachine.with(["a"], duration: 100)
        m.play()
        m.advanceClock(to: 5)
        m.advanceClock(to: 2)
        #expect(m.now == 5)
        #expect(m.currentPlaybackTime == 5)
    }

    @Test func itemsPlayBackToBackWithTheOvershootCarriedOver() {
        var m = PlayerStateMachine.with(["a", "b", "c"])
        m.play()
        _ = m.drainEvents()
        m.advanceClock(to: 10.5)
        #expect(m.nowTitle == "b")
        #expect(abs(m.currentPlaybackTime - 0.5) < 1e-9)
        let events = m.drainEvents()
        #expect(events.contains(.itemDidEnd(ItemEnd(item: m.queue[0], reason: .finished, position: 10, duration: 10))))
        #expect(events.contains(.nowPlayingItemDidChange(m.queue[1])))
        #expect(!events.contains { if case .playbackStateDidChange = $0 { true } else { false } })
    }

    @Test func aLongClockJumpCrossesSeveralItems() {
        var m = PlayerStateMachine.with(["a", "b", "c"])
        m.play()
        m.advanceClock(to: 25)
        #expect(m.nowTitle == "c")
        #expect(abs(m.currentPlaybackTime - 5) < 1e-9)
    }

    @Test func theEndOfTheQueueStopsWithNothingCurrent() {
        var m = PlayerStateMachine.with(["a", "b"])
        m.play()
        m.advanceClock(to: 19)
        _ = m.drainEvents()
        m.advanceClock(to: 21)
        #expect(m.playbackState == .stopped)
        #expect(m.nowPlayingItem == nil)
        #expect(m.drainEvents() == [
            .itemDidEnd(ItemEnd(item: m.queue[1], reason: .finished, position: 10, duration: 10)),
            .nowPlayingItemDidChange(nil), .playbackStateDidChange(.stopped),
        ])
    }

    @Test func stopThenPlayRestartsFromTheStartOfTheQueue() {
        var m = PlayerStateMachine.with(["a", "b", "c"])
        m.play()
        m.advanceClock(to: 15)
        #expect(m.nowTitle == "b")
        m.stop()
        #expect(m.playbackState == .stopped)
        #expect(m.nowPlayingItem == nil)
        #expect(m.currentPlaybackTime == 0)
        m.play()
        #expect(m.nowTitle == "a")
        #expect(m.currentPlaybackTime == 0)
    }

    @Test func stopReportsWhereTheItemGotTo() {
        var m = PlayerStateMachine.with(["a"])
        m.play()
        m.advanceClock(to: 4)
        _ = m.drainEvents()
        m.stop()
        #expect(m.drainEvents().first == .itemDidEnd(ItemEnd(item: m.queue[0], reason: .stopped, position: 4, duration: 10)))
    }

    @Test func afterTheQueueEndsPlayStartsItAgain() {
        var m = PlayerStateMachine.with(["a", "b"])
        m.play()
        m.advanceClock(to: 30)
        #expect(m.playbackState == .stopped)
        m.play()
        #expect(m.nowTitle == "a")
        #expect(m.playbackState == .playing)
    }

    @Test func skipToNextMovesOnAndKeepsPlaying() {
        var m = PlayerStateMachine.with(["a", "b", "c"])
        m.play()
        m.advanceClock(to: 3)
        _ = m.drainEvents()
        m.skipToNextItem()
        #expect(m.nowTitle == "b")
        #expect(m.currentPlaybackTime == 0)
        #expect(m.playbackState == .playing)
        #expect(m.drainEvents() == [
            .itemDidEnd(ItemEnd(item: m.queue[0], reason: .skipped, position: 3, duration: 10)),
            .nowPlayingItemDidChange(m.queue[1]),
        ])
    }

    @Test func skipToNextAtTheLastItemGoesToTheFirstItemPaused() {
        var m = PlayerStateMachine.with(["a", "b", "c"])
        m.play()
        m.skipToNextItem()
        m.skipToNextItem()
        #expect(m.nowTitle == "c")
        m.skipToNextItem()
        #expect(m.nowTitle == "a")
        #expect(m.playbackState == .paused)
        #expect(m.currentPlaybackTime == 0)
    }

    @Test func skipToNextWithNothingCurrentSelectsTheFirstItem() {
        var m = PlayerStateMachine.with(["a", "b"])
        m.skipToNextItem()
        #expect(m.nowTitle == "a")
        #expect(m.playbackState == .stopped)
    }

    @Test func skipToPreviousGoesBackOneItem() {
        var m = PlayerStateMachine.with(["a", "b", "c"])
        m.play()
        m.advanceClock(to: 15)
        m.skipToPreviousItem()
        #expect(m.nowTitle == "a")
        #expect(m.currentPlaybackTime == 0)
        #expect(m.playbackState == .playing)
    }

    @Test func skipToPreviousAtTheFirstItemEndsPlayback() {
        var m = PlayerStateMachine.with(["a", "b"])
        m.play()
        m.advanceClock(to: 2)
        _ = m.drainEvents()
        m.skipToPreviousItem()
        #expect(m.playbackState == .stopped)
        #expect(m.nowPlayingItem == nil)
        #expect(m.drainEvents() == [
            .itemDidEnd(ItemEnd(item: m.queue[0], reason: .skipped, position: 2, duration: 10)),
            .nowPlayingItemDidChange(nil), .playbackStateDidChange(.stopped),
        ])
        m.play()
        #expect(m.nowTitle == "a")
    }

    @Test func skipToPreviousWithNothingCurrentDoesNothing() {
        var m = PlayerStateMachine.with(["a"])
        m.skipToPreviousItem()
        #expect(m.nowPlayingItem == nil)
        #expect(m.drainEvents().isEmpty)
    }

    @Test func skipToBeginningRestartsTheItem() {
        var m = PlayerStateMachine.with(["a", "b"])
        m.play()
        m.advanceClock(to: 7)
        let generation = m.seekGeneration
        m.skipToBeginning()
        #expect(m.nowTitle == "a")
        #expect(m.currentPlaybackTime == 0)
        #expect(m.seekGeneration != generation)
        m.advanceClock(to: 8)
        #expect(m.currentPlaybackTime == 1)
    }

    @Test func seekSetsTheTimeClampsAtZeroAndNeedsACurrentItem() {
        var m = PlayerStateMachine.with(["a"], duration: 100)
        m.seek(to: 5)
        #expect(m.currentPlaybackTime == 0)   // nothing current: ignored
        m.play()
        m.seek(to: 42.5)
        #expect(m.currentPlaybackTime == 42.5)
        m.advanceClock(to: 1)
        #expect(m.currentPlaybackTime == 43.5)
        m.seek(to: -3)
        #expect(m.currentPlaybackTime == 0)
        m.seek(to: .nan)
        #expect(m.currentPlaybackTime == 0)
    }

    @Test func seekingPastTheEndFinishesTheItem() {
        var m = PlayerStateMachine.with(["a", "b"])
        m.play()
        m.seek(to: 11)
        m.advanceClock(to: 0.5)
        #expect(m.nowTitle == "b")
    }

    @Test func seekingStatesMoveAtFourTimesTheRate() {
        var m = PlayerStateMachine.with(["a"], duration: 100)
        m.play()
        m.advanceClock(to: 10)
        m.beginSeekingForward()
        #expect(m.playbackState == .seekingForward)
        #expect(m.currentPlaybackRate == 4)
        m.advanceClock(to: 12)
        #expect(m.currentPlaybackTime == 18)
        m.beginSeekingBackward()
        #expect(m.currentPlaybackRate == -4)
        m.advanceClock(to: 13)
        #expect(m.currentPlaybackTime == 14)
        m.advanceClock(to: 20)
        #expect(m.currentPlaybackTime == 0)    // not before the start
        m.endSeeking()
        #expect(m.playbackState == .playing)
        m.endSeeking()
        #expect(m.playbackState == .playing)
    }

    @Test func seekingNeedsACurrentItem() {
        var m = PlayerStateMachine.with(["a"])
        m.beginSeekingForward()
        #expect(m.playbackState == .stopped)
    }

    @Test func interruptionStopsTheClockUntilPlay() {
        var m = PlayerStateMachine.with(["a"], duration: 100)
        m.play()
        m.advanceClock(to: 5)
        m.interrupt()
        #expect(m.playbackState == .interrupted)
        m.advanceClock(to: 9)
        #expect(m.currentPlaybackTime == 5)
        m.play()
        #expect(m.playbackState == .playing)
        m.interrupt()
        m.pause()
        #expect(m.playbackState == .paused)
    }

    @Test func interruptWhenNotPlayingDoesNothing() {
        var m = PlayerStateMachine.with(["a"])
        m.interrupt()
        #expect(m.playbackState == .stopped)
        m.play(); m.pause()
        m.interrupt()
        #expect(m.playbackState == .paused)
    }

    @Test func pauseWhenStoppedStaysStopped() {
        var m = PlayerStateMachine.with(["a"])
        m.pause()
        #expect(m.playbackState == .stopped)
        #expect(m.drainEvents().isEmpty)
    }

    @Test func rateZeroPausesAndAPositiveRatePlaysAtThatSpeed() {
        var m = PlayerStateMachine.with(["a"], duration: 100)
        m.setRate(2)
        #expect(m.playbackState == .playing)
        m.advanceClock(to: 3)
        #expect(m.currentPlaybackTime == 6)
        m.setRate(0)
        #expect(m.playbackState == .paused)
        #expect(m.currentPlaybackRate == 0)
        m.setRate(1)
        m.advanceClock(to: 4)
        #expect(m.currentPlaybackTime == 7)
    }

    @Test func volumeIsClampedAndAnnouncedOnlyWhenItChanges() {
        var m = PlayerStateMachine.with(["a"])
        m.setVolume(0.5)
        m.setVolume(0.5)
        m.setVolume(3)
        m.setVolume(-1)
        m.setVolume(.nan)
        #expect(m.drainEvents() == [.volumeDidChange(0.5), .volumeDidChange(1), .volumeDidChange(0)])
        #expect(m.volume == 0)
    }

    @Test func stateChangesAreAnnouncedOnce() {
        var m = PlayerStateMachine.with(["a"])
        m.play(); m.play()
        m.pause(); m.pause()
        let states = m.drainEvents().compactMap { e -> PlaybackState? in
            if case .playbackStateDidChange(let s) = e { s } else { nil }
        }
        #expect(states == [.playing, .paused])
    }

    @Test func settingTheNowPlayingItemJumpsThereAndKeepsTheState() {
        var m = PlayerStateMachine.with(["a", "b", "c"])
        m.play()
        m.advanceClock(to: 4)
        m.setNowPlaying(index: 2)
        #expect(m.nowTitle == "c")
        #expect(m.currentPlaybackTime == 0)
        #expect(m.playbackState == .playing)
        m.pause()
        m.setNowPlaying(index: 0)
        #expect(m.nowTitle == "a")
        #expect(m.playbackState == .paused)
        m.setNowPlaying(index: 9)
        #expect(m.nowTitle == "a")
    }
}
