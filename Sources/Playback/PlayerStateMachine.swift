import MediaModel

/// The player model of `MPMusicPlayerController` without any audio: a value type whose methods are pure
/// state transitions. Time is the owner's clock, handed in with `advanceClock(to:)`, so tests drive it
/// exactly; `MusicPlayer` drives it with a monotonic clock and with the engine's reports.
///
/// The queue keeps the order it was given (`queue`); `playOrder` is a permutation of queue indices
/// (identity when shuffle is off) and `orderPosition` points at the now-playing entry in it.
/// Transitions append `PlayerEvent`s to an outbox that the owner drains and publishes.
public struct PlayerStateMachine: Sendable {
    public private(set) var queue: [MediaItem] = []
    /// MPD's `prio` of each queue entry (0 unless set): shuffled by songs, higher priorities play first.
    public private(set) var priorities: [Int] = []
    public private(set) var playOrder: [Int] = []
    /// Position of the now-playing item in `playOrder`; nil when nothing is current.
    public private(set) var orderPosition: Int?
    public private(set) var playbackState: PlaybackState = .stopped
    public var repeatMode: RepeatMode = .none
    /// MPD's `single` mode: when an item finishes, the next one becomes current but paused at its start
    /// (after the last one, playback ends as usual). Repeat one is not affected: the item plays again.
    public var pausesBetweenItems = false
    public private(set) var shuffleMode: ShuffleMode = .off
    public private(set) var volume: Float = 1
    /// Speed while playing (1 = normal).
    public private(set) var rate: Double = 1
    /// The clock's current reading (seconds, monotonic).
    public private(set) var now: Double = 0
    /// When true (the default, for a model on its own) items end when the clock passes their duration.
    /// `MusicPlayer` turns it off: its engine reports the real end of each item.
    public var simulatesItemEnds: Bool
    /// Changes whenever a new play of an item begins (including a repeat of the same one): the engine
    /// opens the item again when it sees a new token.
    public private(set) var nowPlayingToken: UInt64 = 0
    /// Changes on every seek, so the engine can tell a new seek request from one it has served.
    public private(set) var seekGeneration: UInt64 = 0
    /// Where the engine should start the current play: 0 for a new play, else the last seek's target.
    /// (Not `currentPlaybackTime`, which the clock moves on while the engine is busy opening the file.)
    public private(set) var startPosition: Double = 0

    /// Rate of the seeking states (Apple does not specify one).
    public static let seekingRate: Double = 4

    private var elapsed: Double = 0   // playback time at `anchor`
    private var anchor: Double = 0    // clock reading when `elapsed` was taken
    private var knownDuration: Double?
    private var consecutiveFailures = 0
    /// Seconds of the current play heard before `heardSince` (the clock reading when playing last began).
    private var heardBefore: Double = 0
    private var heardSince: Double = 0
    /// The current item was chosen (`setNowPlaying`, `mlib play --start`), not just prepared: shuffle keeps it.
    private var currentWasChosen = false
    private var rng: SeededGenerator
    private var outbox: [PlayerEvent] = []

    public init(seed: UInt64 = UInt64.random(in: .min ... .max), simulatesItemEnds: Bool = true) {
        rng = SeededGenerator(seed: seed)
        self.simulatesItemEnds = simulatesItemEnds
    }

    // MARK: Reading

    /// Queue index of the now-playing item (`indexOfNowPlayingItem`).
    public var indexOfNowPlayingItem: Int? { orderPosition.map { playOrder[$0] } }
    public var nowPlayingItem: MediaItem? { indexOfNowPlayingItem.map { queue[$0] } }
    /// The now-playing item's duration: the decoder's when known, else the index's; 0 if unknown.
    public var nowPlayingDuration: Double { knownDuration ?? nowPlayingItem?.playbackDuration ?? 0 }

    /// Seconds into the now-playing item.
    public var currentPlaybackTime: Double {
        guard playbackState.isAdvancing else { return elapsed }
        return max(0, elapsed + (now - anchor) * currentPlaybackRate)
    }

    /// 0 when not advancing; the speed (negative when seeking backward) otherwise.
    public var currentPlaybackRate: Double {
        switch playbackState {
        case .playing: rate
        case .seekingForward: Self.seekingRate
        case .seekingBackward: -Self.seekingRate
        case .stopped, .paused, .interrupted: 0
        }
    }

    /// Takes the events produced since the last call.
    public mutating func drainEvents() -> [PlayerEvent] {
        defer { outbox.removeAll() }
        return outbox
    }

    // MARK: Clock

    /// Moves the clock forward (a reading earlier than the last one is ignored). With
    /// `simulatesItemEnds`, every item whose duration has elapsed finishes, carrying the overshoot over.
    public mutating func advanceClock(to reading: Double) {
        guard reading > now else { return }
        now = reading
        guard simulatesItemEnds else { return }
        while playbackState.isAdvancing, orderPosition != nil, nowPlayingDuration > 0,
              currentPlaybackTime >= nowPlayingDuration {
            let overshoot = (currentPlaybackTime - nowPlayingDuration) / currentPlaybackRate
            finishCurrentItem()
            if playbackState.isAdvancing {
                anchor = now - overshoot
                heardSince = now - overshoot          // the next item began at the end
            }
        }
    }

    // MARK: Queue

    /// Replaces the queue. The current item ends (`removed`); if the player was playing or paused, the
    /// first item of the new play order becomes current and the state is kept.
    public mutating func setQueue(_ items: [MediaItem]) {
        leaveCurrent(.removed)
        queue = items
        priorities = Array(repeating: 0, count: items.count)
        playOrder = makeOrder(first: nil)
        if playbackState != .stopped && !queue.isEmpty {
            moveTo(0)
        } else {
            endPlayback()
        }
        outbox.append(.queueDidChange)
    }

    /// Inserts `items` right after the now-playing item (in the queue and in the play order), or at the
    /// front when nothing is current.
    public mutating func prepend(_ items: [MediaItem]) {
        guard !items.isEmpty else { return }
        let at = indexOfNowPlayingItem.map { $0 + 1 } ?? 0
        queue.insert(contentsOf: items, at: at)
        priorities.insert(contentsOf: Array(repeating: 0, count: items.count), at: at)
        playOrder = playOrder.map { $0 >= at ? $0 + items.count : $0 }
        playOrder.insert(contentsOf: at ..< at + items.count, at: orderPosition.map { $0 + 1 } ?? 0)
        outbox.append(.queueDidChange)
    }

    /// Adds `items` at the end of the queue and of the play order.
    public mutating func append(_ items: [MediaItem]) {
        guard !items.isEmpty else { return }
        playOrder += queue.count ..< queue.count + items.count
        queue += items
        priorities += Array(repeating: 0, count: items.count)
        outbox.append(.queueDidChange)
    }

    /// Removes the item at queue index `index`. Removing the now-playing item moves to the next one in
    /// play order (state kept); past the end, playback wraps (repeat all) or stops.
    public mutating func remove(at index: Int) {
        guard queue.indices.contains(index), let orderIndex = playOrder.firstIndex(of: index) else { return }
        let wasCurrent = indexOfNowPlayingItem == index
        if wasCurrent { leaveCurrent(.removed) }
        queue.remove(at: index)
        priorities.remove(at: index)
        playOrder.remove(at: orderIndex)
        playOrder = playOrder.map { $0 > index ? $0 - 1 : $0 }
        if let position = orderPosition {
            if wasCurrent {
                orderPosition = nil
                if position < playOrder.count { moveTo(position) }
                else if repeatMode == .all && !playOrder.isEmpty { moveTo(0) }
                else { endPlayback() }
            } else if orderIndex < position {
                orderPosition = position - 1
            }
        }
        outbox.append(.queueDidChange)
    }

    /// Moves the item at queue index `from` so that it ends up at index `to`. With shuffle off the play
    /// order follows the queue; with shuffle on the play order is kept. The now-playing item goes on.
    public mutating func move(from: Int, to: Int) {
        guard queue.indices.contains(from), queue.indices.contains(to), from != to else { return }
        func remap(_ k: Int) -> Int {
            if k == from { return to }
            var k = k
            if k > from { k -= 1 }
            if k >= to { k += 1 }
            return k
        }
        let current = indexOfNowPlayingItem
        queue.insert(queue.remove(at: from), at: to)
        priorities.insert(priorities.remove(at: from), at: to)
        if shuffleMode == .off {
            playOrder = Array(queue.indices)
            orderPosition = current.map(remap)
        } else {
            playOrder = playOrder.map(remap)
        }
        outbox.append(.queueDidChange)
    }

    /// Makes the item at queue index `index` the now-playing item (the `nowPlayingItem` setter); the
    /// state is kept, so a playing player plays it from its start. Shuffled by songs, the item swaps
    /// places in the play order with the current one (with the first when stopped), as MPD's `play N`
    /// does: reaching it where it lay would pass over the entries before it as if they had played.
    public mutating func setNowPlaying(index: Int) {
        guard queue.indices.contains(index), var position = playOrder.firstIndex(of: index) else { return }
        if shuffleMode == .songs {
            let slot = playbackState == .stopped ? 0 : (orderPosition ?? 0)
            playOrder.swapAt(position, slot)
            position = slot
        }
        leaveCurrent(.skipped)
        moveTo(position)
        currentWasChosen = true
    }

    /// While playing or paused the now-playing item stays current and comes first in the new order, and so
    /// does an item chosen with `setNowPlaying`. A player that has not started (stopped) begins the
    /// shuffled order afresh: at a random item (or the first track of a random album), not at the item
    /// `prepareToPlay` had made current.
    public mutating func setShuffleMode(_ mode: ShuffleMode) {
        guard mode != shuffleMode else { return }
        shuffleMode = mode
        reorder()
    }

    /// Reshuffles with the current mode (a new permutation; the now-playing item stays first, as in
    /// `setShuffleMode`).
    public mutating func reshuffle() {
        guard shuffleMode != .off else { return }
        reorder()
    }

    private mutating func reorder() {
        let current = indexOfNowPlayingItem
        let startAfresh = playbackState == .stopped && shuffleMode != .off && current != nil && !currentWasChosen
        playOrder = makeOrder(first: startAfresh ? nil : current)
        if startAfresh {
            moveTo(0)
        } else {
            orderPosition = current.flatMap { playOrder.firstIndex(of: $0) }
        }
        outbox.append(.queueDidChange)
    }

    /// Sets MPD's `prio` of the entry at queue index `index`. Shuffled by songs, the entry moves to the
    /// start of its priority group among the entries still to play, as MPD's `Queue::SetPriority` does:
    /// the now-playing entry stays, and one already played comes back only when its priority has just
    /// risen above the now-playing entry's. (Albums keep their shuffled order.)
    public mutating func setPriority(_ priority: Int, at index: Int) {
        guard queue.indices.contains(index), priorities[index] != priority else { return }
        let old = priorities[index]
        priorities[index] = priority
        guard shuffleMode == .songs, let from = playOrder.firstIndex(of: index) else { return }
        let current = orderPosition ?? -1
        if from == current { return }
        if from < current {
            let currentPriority = priorities[playOrder[current]]
            if old > currentPriority || priority <= currentPriority { return }
        }
        playOrder.remove(at: from)
        if from < current { orderPosition = current - 1 }
        var to = (orderPosition ?? -1) + 1
        while to < playOrder.count && priorities[playOrder[to]] > priority { to += 1 }
        playOrder.insert(index, at: to)
        outbox.append(.queueDidChange)
    }

    // MARK: Transport

    /// Makes the first item current (if none is) so that `play` can start at once.
    public mutating func prepareToPlay() {
        if orderPosition == nil && !queue.isEmpty { moveTo(0) }
    }

    /// Plays the now-playing item; after `stop` or the end of the queue, from the start of the queue.
    public mutating func play() {
        guard !queue.isEmpty else { return }
        prepareToPlay()
        setState(.playing)
    }

    public mutating func pause() {
        if playbackState.isAdvancing || playbackState == .interrupted { setState(.paused) }
    }

    /// Ends playback: the current item ends (`stopped`), nothing is current, and the next `play` starts
    /// the queue from its beginning.
    public mutating func stop() {
        leaveCurrent(.stopped)
        endPlayback()
    }

    /// The next item in play order. At the last item: the first item, and paused — unless repeat all,
    /// which wraps and keeps the state. (Repeat one does not hold a skip back.)
    public mutating func skipToNextItem() {
        guard !playOrder.isEmpty else { return }
        guard let position = orderPosition else { moveTo(0); return }
        leaveCurrent(.skipped)
        if position + 1 < playOrder.count {
            moveTo(position + 1)
        } else {
            if repeatMode == .all { newCycle() }
            moveTo(0)
            if repeatMode != .all { setState(.paused) }
        }
    }

    /// The previous item in play order. At the first item playback ends (stopped, nothing current),
    /// unless repeat all, which wraps to the last item.
    public mutating func skipToPreviousItem() {
        guard let position = orderPosition else { return }
        leaveCurrent(.skipped)
        if position > 0 { moveTo(position - 1) }
        else if repeatMode == .all { moveTo(playOrder.count - 1) }
        else { endPlayback() }
    }

    public mutating func skipToBeginning() { seek(to: 0) }

    /// Sets `currentPlaybackTime` (clamped at 0).
    public mutating func seek(to time: Double) {
        guard orderPosition != nil, time.isFinite else { return }
        elapsed = max(0, time)
        anchor = now
        startPosition = elapsed
        seekGeneration &+= 1
    }

    public mutating func beginSeekingForward() { if orderPosition != nil { setState(.seekingForward) } }
    public mutating func beginSeekingBackward() { if orderPosition != nil { setState(.seekingBackward) } }
    public mutating func endSeeking() {
        if playbackState == .seekingForward || playbackState == .seekingBackward { setState(.playing) }
    }

    /// The output went away (a device error): stop advancing until `play`.
    public mutating func interrupt() {
        if playbackState.isAdvancing { setState(.interrupted) }
    }

    /// `currentPlaybackRate` setter: 0 pauses, a positive rate plays at that speed.
    public mutating func setRate(_ newRate: Double) {
        guard newRate.isFinite else { return }
        if newRate <= 0 { pause(); return }
        rebase()
        heardBefore = heardTime
        heardSince = now
        rate = newRate
        if playbackState != .playing { play() }
    }

    public mutating func setVolume(_ newVolume: Float) {
        let v = min(1, max(0, newVolume.isFinite ? newVolume : 0))
        guard v != volume else { return }
        volume = v
        outbox.append(.volumeDidChange(v))
    }

    // MARK: Engine reports (ignored when `token` is no longer current)

    /// The engine has played up to `position` of the play `token` (after serving `seekGeneration`).
    public mutating func engineDidPlay(token: UInt64, seekGeneration served: UInt64, position: Double,
                                       duration: Double?) {
        guard token == nowPlayingToken, served == seekGeneration else { return }
        elapsed = position
        anchor = now
        if let duration, duration > 0 { knownDuration = duration }
        consecutiveFailures = 0
    }

    /// The play `token` decoded to its end: repeat one plays it again, else the next item in play order,
    /// wrapping under repeat all; after the last item playback ends.
    public mutating func itemDidFinish(token: UInt64) {
        guard token == nowPlayingToken else { return }
        finishCurrentItem()
    }

    /// The play `token` could not be decoded: report it and go on with the next item (never the same
    /// one again, even under repeat one; when every item has failed in a row, playback ends).
    public mutating func itemDidFail(token: UInt64, message: String) {
        guard token == nowPlayingToken, let item = nowPlayingItem, let position = orderPosition else { return }
        outbox.append(.itemDidFail(item, message: message))
        leaveCurrent(.failed)
        consecutiveFailures += 1
        if consecutiveFailures >= playOrder.count { endPlayback() }
        else if position + 1 < playOrder.count { moveTo(position + 1) }
        else if repeatMode != .none { moveTo(0) }
        else { endPlayback() }
    }

    // MARK: Internals

    private mutating func finishCurrentItem() {
        guard let position = orderPosition else { return }
        leaveCurrent(.finished)
        switch repeatMode {
        case .one: moveTo(position)
        case .all:
            if position + 1 == playOrder.count { newCycle() }
            moveTo((position + 1) % playOrder.count)
            if pausesBetweenItems { setState(.paused) }
        case .none:
            guard position + 1 < playOrder.count else { endPlayback(); return }
            moveTo(position + 1)
            if pausesBetweenItems { setState(.paused) }
        }
    }

    /// Repeat all wraps to a new cycle: shuffled, it gets a new order (a listener hears a new sequence
    /// each time round, as iTunes and MPD's random do).
    private mutating func newCycle() {
        guard shuffleMode != .off, playOrder.count > 1 else { return }
        playOrder = makeOrder(first: nil)
        outbox.append(.queueDidChange)
    }

    private mutating func makeOrder(first: Int?) -> [Int] {
        switch shuffleMode {
        case .off: return Array(queue.indices)
        case .songs:
            // Higher priorities first (a stable sort keeps each priority's entries in random order).
            var order = ShuffleOrder.songs(Array(queue.indices), first: first, using: &rng)
            let start = first == nil ? 0 : 1
            if start < order.count, priorities.contains(where: { $0 != 0 }) {
                order[start...] = ArraySlice(order[start...].enumerated()
                    .sorted { (priorities[$0.element], -$0.offset) > (priorities[$1.element], -$1.offset) }
                    .map(\.element))
            }
            return order
        case .albums: return ShuffleOrder.albums(queue, first: first, using: &rng)
        }
    }

    private mutating func rebase() {
        elapsed = currentPlaybackTime
        anchor = now
    }

    /// Seconds of the current play heard so far: time in `playing` at normal speed since it began.
    public var heardTime: Double {
        heardBefore + (playbackState == .playing ? max(0, now - heardSince) * rate : 0)
    }

    private mutating func setState(_ state: PlaybackState) {
        guard state != playbackState else { return }
        heardBefore = heardTime
        heardSince = now
        rebase()
        playbackState = state
        outbox.append(.playbackStateDidChange(state))
    }

    /// Reports the end of the current play (if any) with where it got to.
    private mutating func leaveCurrent(_ reason: ItemEndReason) {
        guard let item = nowPlayingItem else { return }
        let duration = nowPlayingDuration
        let position = reason == .finished && duration > 0 ? duration
            : (duration > 0 ? min(currentPlaybackTime, duration) : currentPlaybackTime)
        let heard = duration > 0 ? min(heardTime, duration) : heardTime
        outbox.append(.itemDidEnd(ItemEnd(item: item, reason: reason, position: position, duration: duration, heard: heard)))
    }

    /// A new play begins at `position` in play order, from time 0.
    private mutating func moveTo(_ position: Int) {
        orderPosition = position
        currentWasChosen = false
        heardBefore = 0
        heardSince = now
        elapsed = 0
        startPosition = 0
        anchor = now
        knownDuration = nil
        nowPlayingToken &+= 1
        outbox.append(.nowPlayingItemDidChange(nowPlayingItem))
    }

    private mutating func endPlayback() {
        if orderPosition != nil {
            orderPosition = nil
            nowPlayingToken &+= 1
            outbox.append(.nowPlayingItemDidChange(nil))
        }
        elapsed = 0
        anchor = now
        setState(.stopped)
    }
}
