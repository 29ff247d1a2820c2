import MediaModel
import Testing
@testable import Playback

@Suite("State machine: repeat and shuffle")
struct StateMachineModeTests {
    @Test func repeatOnePlaysTheSameItemAgainAsANewPlay() {
        var m = PlayerStateMachine.with(["a", "b"])
        m.repeatMode = .one
        m.play()
        let token = m.nowPlayingToken
        _ = m.drainEvents()
        m.advanceClock(to: 10.5)
        #expect(m.nowTitle == "a")
        #expect(m.nowPlayingToken != token)
        #expect(abs(m.currentPlaybackTime - 0.5) < 1e-9)
        let events = m.drainEvents()
        #expect(events.contains(.itemDidEnd(ItemEnd(item: testItem("a"), reason: .finished, position: 10, duration: 10))))
        #expect(events.contains(.nowPlayingItemDidChange(testItem("a"))))
    }

    @Test func repeatOneDoesNotHoldBackASkip() {
        var m = PlayerStateMachine.with(["a", "b"])
        m.repeatMode = .one
        m.play()
        m.skipToNextItem()
        #expect(m.nowTitle == "b")
    }

    @Test func repeatAllWrapsAndKeepsPlaying() {
        var m = PlayerStateMachine.with(["a", "b"])
        m.repeatMode = .all
        m.play()
        #expect(m.titlesPlayed(for: 45) == ["a", "b", "a", "b", "a"])
        #expect(m.playbackState == .playing)
    }

    @Test func repeatAllSkipsWrapAroundBothWays() {
        var m = PlayerStateMachine.with(["a", "b", "c"])
        m.repeatMode = .all
        m.play()
        m.skipToPreviousItem()
        #expect(m.nowTitle == "c")
        #expect(m.playbackState == .playing)
        m.skipToNextItem()
        #expect(m.nowTitle == "a")
        #expect(m.playbackState == .playing)
    }

    @Test func shuffleSongsIsARealPermutationReproducibleFromTheSeed() {
        let names = (0..<20).map { "t\($0)" }
        var m1 = PlayerStateMachine.with(names, seed: 99)
        var m2 = PlayerStateMachine.with(names, seed: 99)
        var m3 = PlayerStateMachine.with(names, seed: 100)
        m1.setShuffleMode(.songs); m2.setShuffleMode(.songs); m3.setShuffleMode(.songs)
        #expect(m1.playOrder.sorted() == Array(0..<20))
        #expect(m1.playOrder == m2.playOrder)
        #expect(m1.playOrder != m3.playOrder)
        #expect(m1.playOrder != Array(0..<20))
    }

    @Test func shufflingDuringPlaybackKeepsTheCurrentItemFirst() {
        var m = PlayerStateMachine.with((0..<10).map { "t\($0)" }, seed: 5)
        m.play(); m.skipToNextItem(); m.skipToNextItem()     // t2
        m.advanceClock(to: 3)
        m.setShuffleMode(.songs)
        #expect(m.nowTitle == "t2")
        #expect(m.orderPosition == 0)
        #expect(m.playOrder[0] == 2)
        #expect(m.currentPlaybackTime == 3)
        #expect(m.drainEvents().last == .queueDidChange)
    }

    @Test func shuffleOffRestoresQueueOrderAndKeepsTheCurrentItem() {
        var m = PlayerStateMachine.with((0..<8).map { "t\($0)" }, seed: 8)
        m.setShuffleMode(.songs)
        m.play(); m.skipToNextItem()
        let current = m.nowTitle!
        m.setShuffleMode(.off)
        #expect(m.playOrder == Array(0..<8))
        #expect(m.nowTitle == current)
        #expect(m.orderPosition == m.indexOfNowPlayingItem)
    }

    @Test func reshuffleGivesANewPermutationWithTheCurrentItemFirst() {
        var m = PlayerStateMachine.with((0..<12).map { "t\($0)" }, seed: 2)
        m.setShuffleMode(.songs)
        m.play()
        let first = m.playOrder
        m.reshuffle()
        #expect(m.playOrder != first)
        #expect(m.playOrder[0] == first[0])
        #expect(m.playOrder.sorted() == Array(0..<12))
    }

    static let albumQueue: [MediaItem] = [
        testItem("x2", album: "X", track: 2), testItem("y1", album: "Y", track: 1), testItem("x1", album: "X", track: 1),
        testItem("z1", album: "Z", track: 1), testItem("y2", album: "Y", track: 2), testItem("x3", album: "X", track: 3),
        testItem("loose"), testItem("z2", album: "Z", track: 2),
    ]

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func shuffleAlbumsKeepsEachAlbumTogetherInTrackOrder(seed: UInt64) {
        var m = PlayerStateMachine(seed: seed)
        m.setQueue(Self.albumQueue)
        m.setShuffleMode(.albums)
        let order = m.orderTitles
        #expect(order.sorted() == titles(Self.albumQueue).sorted())
        // Runs of one album, in track order.
        var runs: [String] = []
        for t in order where t != "loose" {
            let album = String(t.prefix(1))
            if runs.last != album { runs.append(album) }
        }
        #expect(runs.count == 3, "albums split: \(order)")
        for album in ["x", "y", "z"] {
            let tracks = order.filter { $0.hasPrefix(album) }
            #expect(tracks == tracks.sorted())
        }
    }

    @Test func shuffleAlbumsVariesTheAlbumOrderWithTheSeed() {
        let orders = Set((1...8).map { seed -> [String] in
            var m = PlayerStateMachine(seed: UInt64(seed))
            m.setQueue(Self.albumQueue)
            m.setShuffleMode(.albums)
            return m.orderTitles
        })
        #expect(orders.count > 1)
    }

    @Test func shuffleAlbumsDuringPlaybackStartsWithTheCurrentAlbum() {
        var m = PlayerStateMachine(seed: 9)
        m.setQueue(Self.albumQueue)
        m.play()
        m.setNowPlaying(index: 4)                        // y2
        m.setShuffleMode(.albums)
        #expect(m.nowTitle == "y2")
        #expect(Array(m.orderTitles.prefix(2)) == ["y1", "y2"])
        #expect(m.orderPosition == 1)
    }

    /// Every repeat mode with every shuffle mode: what plays over twice the length of the queue.
    @Test(arguments: RepeatMode.allCases, ShuffleMode.allCases)
    func repeatAndShuffleCombinations(repeatMode: RepeatMode, shuffleMode: ShuffleMode) {
        var m = PlayerStateMachine(seed: 1234)
        m.setQueue(Self.albumQueue)
        m.repeatMode = repeatMode
        m.setShuffleMode(shuffleMode)
        m.play()
        let order = m.orderTitles
        let played = m.titlesPlayed(for: 10 * Double(order.count) * 2 - 5)
        switch repeatMode {
        case .none:
            #expect(played == order)
            #expect(m.playbackState == .stopped)
        case .one:
            #expect(played == Array(repeating: order[0], count: order.count * 2))
        case .all:
            #expect(Array(played.prefix(order.count)) == order)
            #expect(Set(played.prefix(order.count)).count == order.count)   // nothing repeats within a cycle
            #expect(Set(played.suffix(order.count)).count == order.count)
            // Shuffled, each cycle is a new order (see repeatAllShuffleReshufflesEachCycle); else the same.
            if shuffleMode == .off { #expect(played == order + order) }
        }
        if shuffleMode == .off { #expect(order == titles(Self.albumQueue)) }
    }

    /// Issue 13: `--repeat all --shuffle songs` played the same order every cycle.
    @Test(arguments: [ShuffleMode.songs, .albums])
    func repeatAllShuffleReshufflesEachCycle(mode: ShuffleMode) {
        var m = PlayerStateMachine(seed: 77)
        m.setQueue(Self.albumQueue + (1...6).map { testItem("s\($0)") })
        m.repeatMode = .all
        m.setShuffleMode(mode)
        m.play()
        let n = m.queue.count
        let played = m.titlesPlayed(for: 10 * Double(n) * 3 - 5)
        let cycles = [Array(played[0..<n]), Array(played[n..<2 * n]), Array(played[2 * n..<3 * n])]
        for cycle in cycles { #expect(cycle.sorted() == titles(m.queue).sorted()) }   // each a permutation
        #expect(Set(cycles).count > 1, "the same order every cycle: \(cycles[0])")
    }

    /// Issue 13: a shuffled queue that had not started began with the query's first item, because the
    /// first item was made current (prepareToPlay) before shuffle was switched on and was kept first.
    @Test func aShuffledQueueThatHasNotStartedBeginsAtARandomItem() {
        let firsts = Set((1...12).map { seed -> String in
            var m = PlayerStateMachine.with((0..<10).map { "t\($0)" }, seed: UInt64(seed))
            m.prepareToPlay()
            m.setShuffleMode(.songs)
            m.play()
            #expect(m.orderPosition == 0)
            return m.nowTitle!
        })
        #expect(firsts.count > 3, "always began with \(firsts)")
    }

    @Test func aShuffledAlbumQueueThatHasNotStartedBeginsAtARandomAlbum() {
        let firsts = Set((1...12).map { seed -> String in
            var m = PlayerStateMachine(seed: UInt64(seed))
            m.setQueue(Self.albumQueue)
            m.prepareToPlay()
            m.setShuffleMode(.albums)
            m.play()
            return String(m.nowTitle!.prefix(1))
        })
        #expect(firsts.count > 1, "always began with album \(firsts)")
    }

    /// `mlib play --start 6 --shuffle songs`: the chosen item stays first.
    @Test func aChosenStartItemStaysFirstWhenShuffled() {
        var m = PlayerStateMachine.with((0..<10).map { "t\($0)" }, seed: 3)
        m.setNowPlaying(index: 5)
        m.setShuffleMode(.songs)
        #expect(m.nowTitle == "t5")
        #expect(m.orderPosition == 0)
    }
}
