import MediaModel
import Testing
@testable import Playback

@Suite("State machine: queue editing")
struct StateMachineQueueTests {
    @Test func prependDuringPlaybackPlaysNext() {
        var m = PlayerStateMachine.with(["a", "b", "c"])
        m.play()
        m.skipToNextItem()                       // b
        m.prepend([testItem("x"), testItem("y")])
        #expect(titles(m.queue) == ["a", "b", "x", "y", "c"])
        #expect(m.nowTitle == "b")
        #expect(m.drainEvents().last == .queueDidChange)
        #expect(m.titlesPlayed(for: 40) == ["b", "x", "y", "c"])
    }

    @Test func prependWithNothingCurrentGoesToTheFront() {
        var m = PlayerStateMachine.with(["a", "b"])
        m.prepend([testItem("x")])
        m.play()
        #expect(m.nowTitle == "x")
        #expect(titles(m.queue) == ["x", "a", "b"])
    }

    @Test func prependUnderShufflePlaysNextToo() {
        var m = PlayerStateMachine.with(["a", "b", "c", "d", "e"], seed: 7)
        m.setShuffleMode(.songs)
        m.play()
        let current = m.nowTitle!
        m.prepend([testItem("x")])
        #expect(m.nowTitle == current)
        m.skipToNextItem()
        #expect(m.nowTitle == "x")
        #expect(Set(m.playOrder) == Set(m.queue.indices))
    }

    @Test func appendDuringPlaybackPlaysLast() {
        var m = PlayerStateMachine.with(["a", "b"])
        m.play()
        m.append([testItem("z")])
        #expect(m.titlesPlayed(for: 30) == ["a", "b", "z"])
        #expect(m.playbackState == .stopped)
    }

    @Test func emptyInsertsChangeNothing() {
        var m = PlayerStateMachine.with(["a"])
        m.prepend([]); m.append([])
        #expect(m.drainEvents().isEmpty)
    }

    @Test func removingThePlayingItemPlaysTheNextOne() {
        var m = PlayerStateMachine.with(["a", "b", "c"])
        m.play()
        m.advanceClock(to: 12)                   // b at 2 s
        _ = m.drainEvents()
        m.remove(at: 1)
        #expect(titles(m.queue) == ["a", "c"])
        #expect(m.nowTitle == "c")
        #expect(m.currentPlaybackTime == 0)
        #expect(m.playbackState == .playing)
        let events = m.drainEvents()
        #expect(events.first == .itemDidEnd(ItemEnd(item: testItem("b"), reason: .removed, position: 2, duration: 10)))
        #expect(events.contains(.nowPlayingItemDidChange(testItem("c"))))
        #expect(events.last == .queueDidChange)
    }

    @Test func removingThePlayingLastItemStopsOrWrapsUnderRepeatAll() {
        var m = PlayerStateMachine.with(["a", "b"])
        m.play(); m.skipToNextItem()
        m.remove(at: 1)
        #expect(m.playbackState == .stopped)
        #expect(m.nowPlayingItem == nil)

        var r = PlayerStateMachine.with(["a", "b"])
        r.repeatMode = .all
        r.play(); r.skipToNextItem()
        r.remove(at: 1)
        #expect(r.nowTitle == "a")
        #expect(r.playbackState == .playing)
    }

    @Test func removingTheOnlyItemStops() {
        var m = PlayerStateMachine.with(["a"])
        m.repeatMode = .all
        m.play()
        m.remove(at: 0)
        #expect(m.queue.isEmpty)
        #expect(m.playbackState == .stopped)
        m.play()
        #expect(m.playbackState == .stopped)
    }

    @Test func removingAnEarlierItemKeepsTheCurrentOne() {
        var m = PlayerStateMachine.with(["a", "b", "c"])
        m.play(); m.skipToNextItem(); m.skipToNextItem()    // c
        m.advanceClock(to: 3)
        m.remove(at: 0)
        #expect(m.nowTitle == "c")
        #expect(m.indexOfNowPlayingItem == 1)
        #expect(m.currentPlaybackTime == 3)
        m.remove(at: 7)                                     // out of range: ignored
        #expect(m.queue.count == 2)
    }

    @Test func removingALaterItemUnderShuffleKeepsAPermutation() {
        var m = PlayerStateMachine.with(["a", "b", "c", "d", "e", "f"], seed: 3)
        m.setShuffleMode(.songs)
        m.play()
        let current = m.nowTitle!
        let victim = m.queue.firstIndex { $0.title != current }!
        m.remove(at: victim)
        #expect(m.nowTitle == current)
        #expect(m.playOrder.sorted() == Array(m.queue.indices))
    }

    @Test func movingAnItemWithShuffleOffMovesItInThePlayOrder() {
        var m = PlayerStateMachine.with(["a", "b", "c", "d"])
        m.play(); m.skipToNextItem()                        // b
        m.move(from: 3, to: 0)                              // d a b c
        #expect(titles(m.queue) == ["d", "a", "b", "c"])
        #expect(m.nowTitle == "b")
        #expect(m.indexOfNowPlayingItem == 2)
        #expect(m.orderTitles == ["d", "a", "b", "c"])
        m.move(from: 2, to: 3)                              // the playing item itself
        #expect(titles(m.queue) == ["d", "a", "c", "b"])
        #expect(m.nowTitle == "b")
        #expect(m.titlesPlayed(for: 10) == ["b"])
        #expect(m.playbackState == .stopped)                // b is now last
    }

    @Test func movingAnItemUnderShuffleKeepsThePlayOrder() {
        var m = PlayerStateMachine.with(["a", "b", "c", "d", "e"], seed: 11)
        m.setShuffleMode(.songs)
        m.play()
        let before = m.orderTitles
        m.move(from: 0, to: 4)
        #expect(m.orderTitles == before)
        #expect(m.nowTitle == before[0])
    }

    @Test func moveOutOfRangeIsIgnored() {
        var m = PlayerStateMachine.with(["a", "b"])
        m.move(from: 0, to: 5); m.move(from: 1, to: 1)
        #expect(titles(m.queue) == ["a", "b"])
        #expect(m.drainEvents().isEmpty)
    }

    @Test func replacingTheQueueWhilePlayingPlaysTheNewOne() {
        var m = PlayerStateMachine.with(["a", "b"])
        m.play()
        m.advanceClock(to: 1)
        _ = m.drainEvents()
        m.setQueue([testItem("x"), testItem("y")])
        #expect(m.nowTitle == "x")
        #expect(m.playbackState == .playing)
        let events = m.drainEvents()
        #expect(events.first == .itemDidEnd(ItemEnd(item: testItem("a"), reason: .removed, position: 1, duration: 10)))
        #expect(events.last == .queueDidChange)
    }

    @Test func replacingTheQueueWithNothingStops() {
        var m = PlayerStateMachine.with(["a"])
        m.play()
        m.setQueue([])
        #expect(m.playbackState == .stopped)
        #expect(m.nowPlayingItem == nil)
    }
}

@Suite("State machine: engine reports")
struct StateMachineEngineTests {
    @Test func engineReportsSetTheTimeAndTheDuration() {
        var m = PlayerStateMachine.with(["a"], duration: 0)
        m.simulatesItemEnds = false
        m.play()
        m.engineDidPlay(token: m.nowPlayingToken, seekGeneration: m.seekGeneration, position: 2.5, duration: 61)
        #expect(m.currentPlaybackTime == 2.5)
        #expect(m.nowPlayingDuration == 61)
        m.advanceClock(to: 100)                 // the engine, not the clock, ends items
        #expect(m.nowTitle == "a")
    }

    @Test func staleReportsAreIgnored() {
        var m = PlayerStateMachine.with(["a", "b"])
        m.simulatesItemEnds = false
        m.play()
        let oldToken = m.nowPlayingToken
        let oldSeek = m.seekGeneration
        m.seek(to: 5)
        m.engineDidPlay(token: oldToken, seekGeneration: oldSeek, position: 0.1, duration: nil)
        #expect(m.currentPlaybackTime == 5)     // the seek wins over a report from before it
        m.skipToNextItem()
        m.itemDidFinish(token: oldToken)
        #expect(m.nowTitle == "b")
        m.itemDidFail(token: oldToken, message: "late")
        #expect(m.nowTitle == "b")
    }

    @Test func aFinishedReportMovesOn() {
        var m = PlayerStateMachine.with(["a", "b"])
        m.simulatesItemEnds = false
        m.play()
        m.itemDidFinish(token: m.nowPlayingToken)
        #expect(m.nowTitle == "b")
        m.itemDidFinish(token: m.nowPlayingToken)
        #expect(m.playbackState == .stopped)
    }

    @Test func aFailedItemIsReportedAndSkipped() {
        var m = PlayerStateMachine.with(["a", "b", "c"])
        m.play()
        _ = m.drainEvents()
        m.itemDidFail(token: m.nowPlayingToken, message: "a.flac: Invalid data")
        #expect(m.nowTitle == "b")
        #expect(m.playbackState == .playing)
        let events = m.drainEvents()
        #expect(events.first == .itemDidFail(testItem("a"), message: "a.flac: Invalid data"))
        #expect(events.contains(.itemDidEnd(ItemEnd(item: testItem("a"), reason: .failed, position: 0, duration: 10))))
    }

    @Test func aFailedItemIsNotRepeatedUnderRepeatOne() {
        var m = PlayerStateMachine.with(["a", "b"])
        m.repeatMode = .one
        m.play()
        m.itemDidFail(token: m.nowPlayingToken, message: "bad")
        #expect(m.nowTitle == "b")
    }

    @Test func whenEveryItemFailsPlaybackEndsEvenUnderRepeatAll() {
        var m = PlayerStateMachine.with(["a", "b", "c"])
        m.repeatMode = .all
        m.play()
        for _ in 0..<3 { m.itemDidFail(token: m.nowPlayingToken, message: "bad") }
        #expect(m.playbackState == .stopped)
        #expect(m.nowPlayingItem == nil)
    }

    @Test func aFailedLastItemEndsPlayback() {
        var m = PlayerStateMachine.with(["a", "b"])
        m.play(); m.skipToNextItem()
        m.itemDidFail(token: m.nowPlayingToken, message: "bad")
        #expect(m.playbackState == .stopped)
    }
}
