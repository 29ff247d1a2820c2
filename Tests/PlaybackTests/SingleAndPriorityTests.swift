import MediaModel
import Testing
@testable import Playback

/// Issue 13: MPD's `single` was a stop issued by the server's observer after the player had already
/// moved on (the next item became current for a moment and ended as "stopped"); `prio` was recorded but
/// did not order random mode. Both are now the state machine's, with mpd 0.23.12's behaviour.
@Suite("State machine: single and priorities")
struct SingleAndPriorityTests {
    @Test func singlePausesAtTheStartOfTheNextItem() {
        var m = PlayerStateMachine.with(["a", "b", "c"])
        m.pausesBetweenItems = true
        m.play()
        _ = m.drainEvents()
        m.advanceClock(to: 10.5)
        #expect(m.nowTitle == "b")
        #expect(m.playbackState == .paused)
        #expect(m.currentPlaybackTime == 0)
        let ends = m.drainEvents().compactMap { e -> ItemEndReason? in if case .itemDidEnd(let end) = e { end.reason } else { nil } }
        #expect(ends == [.finished], "only a's end, no stop of b")
        m.advanceClock(to: 30)
        #expect(m.nowTitle == "b" && m.playbackState == .paused)
        m.play()
        m.advanceClock(to: 40.5)
        #expect(m.nowTitle == "c" && m.playbackState == .paused)
    }

    @Test func singleEndsPlaybackAfterTheLastItemAndRepeatOneStillRepeats() {
        var m = PlayerStateMachine.with(["a", "b"])
        m.pausesBetweenItems = true
        m.setNowPlaying(index: 1)
        m.play()
        m.advanceClock(to: 10.5)
        #expect(m.nowPlayingItem == nil && m.playbackState == .stopped)

        var r = PlayerStateMachine.with(["a", "b"])
        r.pausesBetweenItems = true
        r.repeatMode = .one
        r.play()
        r.advanceClock(to: 10.5)
        #expect(r.nowTitle == "a" && r.playbackState == .playing)
    }

    @Test func higherPrioritiesPlayFirstWhenShuffledBySongs() {
        var m = PlayerStateMachine.with((0..<10).map { "t\($0)" }, seed: 5)
        m.setShuffleMode(.songs)
        m.play()
        let first = m.indexOfNowPlayingItem!
        let (high, low) = first == 7 ? (3, 8) : first == 2 ? (7, 3) : (7, 2)
        m.setPriority(5, at: low)
        m.setPriority(200, at: high)
        m.setPriority(0, at: first)   // the playing entry is not moved
        #expect(m.playOrder[0] == first)
        #expect(Array(m.playOrder.prefix(3)) == [first, high, low])
        #expect(m.playOrder.sorted() == Array(0..<10))
        m.skipToNextItem()
        #expect(m.indexOfNowPlayingItem == high)
        m.skipToNextItem()
        #expect(m.indexOfNowPlayingItem == low)
    }

    @Test func anAlreadyPlayedEntryComesBackOnlyAboveTheCurrentPriority() {
        var m = PlayerStateMachine.with((0..<6).map { "t\($0)" }, seed: 9)
        m.setShuffleMode(.songs)
        m.play()
        let played = m.indexOfNowPlayingItem!
        m.skipToNextItem()
        m.skipToNextItem()
        let current = m.indexOfNowPlayingItem!
        m.setPriority(3, at: current)
        m.setPriority(3, at: played)        // not above the current entry's 3: stays behind
        #expect(m.playOrder.firstIndex(of: played)! < m.orderPosition!)
        m.setPriority(4, at: played)        // now above it: plays next
        #expect(m.playOrder[m.orderPosition! + 1] == played)
        #expect(m.indexOfNowPlayingItem == current)
    }

    /// `play N` shuffled by songs (mpd's PlayPosition): the chosen entry swaps places with the current one
    /// in the play order (with the first when stopped). It used to be reached where it lay, so the
    /// entries shuffled before it counted as played and never played (`mlib serve` stopped early).
    @Test func choosingAnEntryWhenShuffledSkipsNone() {
        for seed in UInt64(1)...8 {
            var m = PlayerStateMachine.with((0..<7).map { "t\($0)" }, seed: seed)
            m.setShuffleMode(.songs)
            let chosen = m.playOrder[4]
            m.setNowPlaying(index: chosen)
            m.play()
            var played = [m.indexOfNowPlayingItem!]
            while played.count < 20 {
                m.skipToNextItem()   // past the last entry: back at the first, paused
                guard m.playbackState == .playing, let index = m.indexOfNowPlayingItem else { break }
                played.append(index)
            }
            #expect(played.first == chosen)
            #expect(played.sorted() == Array(0..<7), "seed \(seed): \(played)")
        }

        var m = PlayerStateMachine.with((0..<7).map { "t\($0)" }, seed: 2)
        m.setShuffleMode(.songs)
        m.play()
        m.skipToNextItem()
        let order = m.playOrder, slot = m.orderPosition!
        m.setNowPlaying(index: order[5])       // playing: it takes the current entry's slot, and that one its
        #expect(m.orderPosition == slot)
        var swapped = order
        swapped.swapAt(slot, 5)
        #expect(m.playOrder == swapped)
    }

    @Test func aNewShuffleOrdersByPriorityAndPrioritiesFollowQueueEdits() {
        var m = PlayerStateMachine.with((0..<8).map { "t\($0)" }, seed: 3)
        m.setPriority(9, at: 6)
        m.setPriority(4, at: 1)
        m.move(from: 6, to: 0)            // t6 is now index 0, t0 index 1, t1 index 2
        #expect(m.priorities == [9, 0, 4, 0, 0, 0, 0, 0])
        m.remove(at: 1)
        #expect(m.priorities == [9, 4, 0, 0, 0, 0, 0])
        m.prepareToPlay()
        m.setShuffleMode(.songs)          // stopped: begins afresh, highest first
        #expect(Array(m.playOrder.prefix(2)) == [0, 1])
        #expect(m.nowTitle == "t6")
    }
}
