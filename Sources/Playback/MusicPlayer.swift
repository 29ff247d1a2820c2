import Foundation
import MediaDecode
import MediaModel

/// Anything that can run a `MediaQuery` (the CLI's `Library`, by a conformance in the CLI); keeps Playback free
/// of MediaIndex and Library.
public protocol MediaItemSource {
    func items(_ query: MediaQuery) throws -> [MediaItem]
}

/// A snapshot of everything a status line shows, read atomically.
public struct PlayerStatus: Sendable, Hashable {
    public var playbackState: PlaybackState
    public var nowPlayingItem: MediaItem?
    public var indexOfNowPlayingItem: Int?
    /// 1-based position in play order (what "3/12" shows), or nil.
    public var playOrderNumber: Int?
    public var queueCount: Int
    public var currentPlaybackTime: Double
    public var duration: Double
    public var repeatMode: RepeatMode
    public var shuffleMode: ShuffleMode
    public var volume: Float
}

/// A queue player with the semantics of `MPMusicPlayerController` that really plays: the
/// `PlayerStateMachine` decides, an engine thread decodes (FFmpeg → swresample → 32-bit samples at the
/// sink's rate) and writes to an `AudioSink`, items back to back with nothing inserted between them
/// (gapless). A sink that can takes each item's own rate, channels and depth.
///
/// Every method returns at once; the engine runs on its own thread (its writes block on a device,
/// which must not tie up Swift's cooperative pool) and holds the C handles. One lock (`condition`)
/// guards the state machine; events are delivered in order, outside that lock, to `notifications()`
/// streams and `addObserver` callbacks.
public final class MusicPlayer: @unchecked Sendable {
    public let sink: any AudioSink
    /// The sink's current format: each item's own rate where the sink can switch (see `AudioSink.adopt`).
    /// The engine thread changes it as items open; read it for display only.
    public var outputFormat: AudioFormat { sink.format }

    private let condition = NSCondition()
    private var machine: PlayerStateMachine          // guarded by `condition`
    private var shuttingDown = false                  // guarded by `condition`
    private var replayGainModeValue = ReplayGainMode.off   // guarded by `condition`
    private let engineFinished = DispatchSemaphore(value: 0)
    private let origin = ContinuousClock.now

    private let delivery = NSRecursiveLock()          // keeps delivery in order across threads
    private var streams: [UUID: AsyncStream<PlayerEvent>.Continuation] = [:]   // guarded by `delivery`
    private var observers: [UUID: @Sendable (PlayerEvent) -> Void] = [:]        // guarded by `delivery`

    /// `seed` makes shuffles reproducible.
    public init(sink: any AudioSink, seed: UInt64? = nil) {
        self.sink = sink
        machine = PlayerStateMachine(seed: seed ?? UInt64.random(in: .min ... .max), simulatesItemEnds: false)
        // The engine thread holds the player until `close()` ends it: a player is closed, not dropped.
        let thread = Thread { self.runEngine() }
        thread.name = "mlib.playback"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Stops the engine and finishes the sink (a WAV file gets its sizes). With `drain`, waits until a
    /// device has played what it holds. Call once, when done with the player.
    public func close(drain: Bool = false) throws {
        condition.lock()
        let alreadyClosed = shuttingDown
        shuttingDown = true
        condition.broadcast()
        condition.unlock()
        guard !alreadyClosed else { return }
        engineFinished.wait()
        if drain { sink.drain() }
        delivery.lock()
        streams.values.forEach { $0.finish() }
        streams.removeAll()
        delivery.unlock()
        try sink.close()
    }

    // MARK: Notifications

    /// A stream of every event from now on (ends at `close`).
    public func notifications() -> AsyncStream<PlayerEvent> {
        let (stream, continuation) = AsyncStream<PlayerEvent>.makeStream()
        let id = UUID()
        delivery.lock()
        streams[id] = continuation
        delivery.unlock()
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.delivery.lock()
            self.streams[id] = nil
            self.delivery.unlock()
        }
        return stream
    }

    /// Calls `handler` for every event, on the thread that caused it, in order. Keep it short.
    @discardableResult
    public func addObserver(_ handler: @escaping @Sendable (PlayerEvent) -> Void) -> UUID {
        delivery.lock()
        defer { delivery.unlock() }
        let id = UUID()
        observers[id] = handler
        return id
    }

    public func removeObserver(_ id: UUID) {
        delivery.lock()
        observers[id] = nil
        delivery.unlock()
    }

    // MARK: Queue

    public func setQueue(with items: [MediaItem]) { mutate { $0.setQueue(items) } }
    /// Items in the query's order, read from `source`.
    public func setQueue(with query: MediaQuery, from source: some MediaItemSource) throws {
        let items = try source.items(query)
        setQueue(with: items)
    }
    public func prepend(_ items: [MediaItem]) { mutate { $0.prepend(items) } }
    public func append(_ items: [MediaItem]) { mutate { $0.append(items) } }
    public func removeItem(at index: Int) { mutate { $0.remove(at: index) } }
    public func moveItem(from: Int, to: Int) { mutate { $0.move(from: from, to: to) } }
    /// MPD's `prio`: shuffled by songs, entries of higher priority play first (see
    /// `PlayerStateMachine.setPriority`).
    public func setPriority(_ priority: Int, forItemAt index: Int) { mutate { $0.setPriority(priority, at: index) } }
    public var priorities: [Int] { read { $0.priorities } }

    public var queue: [MediaItem] { read { $0.queue } }
    public var playOrder: [Int] { read { $0.playOrder } }
    public var indexOfNowPlayingItem: Int? { read { $0.indexOfNowPlayingItem } }
    /// Setting it jumps to the first queue entry equal to the item (a no-op if it is not queued).
    public var nowPlayingItem: MediaItem? {
        get { read { $0.nowPlayingItem } }
        set {
            guard let newValue else { stop(); return }
            mutate { m in if let i = m.queue.firstIndex(of: newValue) { m.setNowPlaying(index: i) } }
        }
    }
    public func setNowPlayingItem(at index: Int) { mutate { $0.setNowPlaying(index: index) } }

    // MARK: Transport

    public func prepareToPlay() { mutate { $0.prepareToPlay() } }
    public func play() { mutate { $0.play() } }
    public func pause() { mutate { $0.pause() } }
    public func stop() { mutate { $0.stop() } }
    public func skipToNextItem() { mutate { $0.skipToNextItem() } }
    public func skipToPreviousItem() { mutate { $0.skipToPreviousItem() } }
    public func skipToBeginning() { mutate { $0.skipToBeginning() } }
    public func beginSeekingForward() { mutate { $0.beginSeekingForward() } }
    public func beginSeekingBackward() { mutate { $0.beginSeekingBackward() } }
    public func endSeeking() { mutate { $0.endSeeking() } }

    public var playbackState: PlaybackState { read { $0.playbackState } }
    /// Seconds into the now-playing item; setting it seeks (precise to a few samples).
    public var currentPlaybackTime: Double {
        get { read { $0.currentPlaybackTime } }
        set { mutate { $0.seek(to: newValue) } }
    }
    /// 0 when paused or stopped. Setting 0 pauses; setting a positive value plays (the engine plays
    /// at normal speed: only the seeking states change speed).
    public var currentPlaybackRate: Double {
        get { read { $0.currentPlaybackRate } }
        set { mutate { $0.setRate(newValue > 0 ? 1 : 0) } }
    }
    public var repeatMode: RepeatMode {
        get { read { $0.repeatMode } }
        set { mutate { $0.repeatMode = newValue } }
    }
    /// MPD's `single`: after an item finishes, the next is current but paused (see `PlayerStateMachine`).
    public var pausesBetweenItems: Bool {
        get { read { $0.pausesBetweenItems } }
        set { mutate { $0.pausesBetweenItems = newValue } }
    }
    public var shuffleMode: ShuffleMode {
        get { read { $0.shuffleMode } }
        set { mutate { $0.setShuffleMode(newValue) } }
    }
    /// 0…1, applied to the samples.
    public var volume: Float {
        get { read { $0.volume } }
        set { mutate { $0.setVolume(newValue) } }
    }

    /// Which ReplayGain value scales the samples (with clipping prevention from the peak); takes effect
    /// from the next chunk.
    public var replayGainMode: ReplayGainMode {
        get { condition.lock(); defer { condition.unlock() }; return replayGainModeValue }
        set { condition.lock(); replayGainModeValue = newValue; condition.broadcast(); condition.unlock() }
    }

    public var status: PlayerStatus {
        read { m in
            PlayerStatus(playbackState: m.playbackState, nowPlayingItem: m.nowPlayingItem,
                         indexOfNowPlayingItem: m.indexOfNowPlayingItem,
                         playOrderNumber: m.orderPosition.map { $0 + 1 }, queueCount: m.queue.count,
                         currentPlaybackTime: m.currentPlaybackTime, duration: m.nowPlayingDuration,
                         repeatMode: m.repeatMode, shuffleMode: m.shuffleMode, volume: m.volume)
        }
    }

    // MARK: Locking and delivery

    private var clockReading: Double {
        let elapsed = ContinuousClock.now - origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    private func read<T>(_ body: (PlayerStateMachine) -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        machine.advanceClock(to: clockReading)
        return body(machine)
    }

    /// Runs a transition under the lock, wakes the engine, and delivers the events it produced.
    private func mutate(extra: [PlayerEvent] = [], _ body: (inout PlayerStateMachine) -> Void) {
        condition.lock()
        machine.advanceClock(to: clockReading)
        body(&machine)
        let events = extra + machine.drainEvents()
        condition.broadcast()
        delivery.lock()          // taken before the state lock is released: delivery stays in order
        condition.unlock()
        defer { delivery.unlock() }
        for event in events {
            for stream in streams.values { stream.yield(event) }
            for observer in observers.values { observer(event) }
        }
    }

    // MARK: Engine (runs on its own thread; owns the decoder)

    private enum Step {
        case quit
        case open(token: UInt64, item: MediaItem, startAt: Double, seek: UInt64)
        case seek(to: Double, generation: UInt64)
        /// `gain`: the volume times the item's ReplayGain factor.
        case decode(token: UInt64, state: PlaybackState, gain: Float)
    }

    /// What the engine should do next, decided under the lock; waits while there is nothing to do.
    private func nextStep(loadedToken: UInt64?, servedSeek: UInt64) -> Step {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if shuttingDown { return .quit }
            machine.advanceClock(to: clockReading)
            let m = machine
            if let item = m.nowPlayingItem, m.nowPlayingToken != loadedToken,
               m.playbackState.isAdvancing || m.playbackState == .paused {   // paused: preload
                return .open(token: m.nowPlayingToken, item: item, startAt: m.startPosition,
                             seek: m.seekGeneration)
            }
            if m.playbackState.isAdvancing, m.nowPlayingItem != nil {
                if m.seekGeneration != servedSeek {
                    return .seek(to: m.startPosition, generation: m.seekGeneration)
                }
                let replayGain = m.nowPlayingItem.map { ReplayGain.factor(for: $0, mode: replayGainModeValue, shuffle: m.shuffleMode) } ?? 1
                return .decode(token: m.nowPlayingToken, state: m.playbackState, gain: m.volume * replayGain)
            }
            condition.wait()
        }
    }

    private func runEngine() {
        defer { engineFinished.signal() }
        var decoder: AudioDecoder<Int32>?
        var loadedToken: UInt64?
        var servedSeek: UInt64 = 0
        var naturalToken: UInt64?       // the token the engine itself moved to at an item's end
        var chunkCounter = 0

        func fail(_ token: UInt64, _ error: Error) {
            decoder = nil
            let message = (error as? DecodeError)?.description ?? "\(error)"
            mutate { $0.itemDidFail(token: token, message: message) }
        }

        while true {
            switch nextStep(loadedToken: loadedToken, servedSeek: servedSeek) {
            case .quit:
                return
            case let .open(token, item, startAt, seek):
                decoder = nil
                loadedToken = token
                servedSeek = seek
                if token != naturalToken { sink.discardBuffered() }   // a user's jump: drop stale audio
                do {
                    // What the reader found undecodable (an encrypted track FFmpeg opens as AAC and then fails
                    // on packet by packet) fails with the reader's reason, not with the decoder's damaged packets.
                    if item[.isDecodable]?.bool == false {
                        throw DecodeError(path: item.path.string, message: item[.undecodableReason]?.text ?? "not decodable")
                    }
                    var opened = try AudioDecoder(path: item.path, output: sink.format)
                    // Play the file at its own rate and depth where the sink can switch (a device, a
                    // WAV file not yet written to), else converted to the sink's.
                    let own = opened.sourceFormat
                    if own != sink.format { try sink.adopt(own) }
                    if !opened.output.hasSameLayout(as: sink.format) {
                        opened = try AudioDecoder(path: item.path, output: sink.format)
                    }
                    if startAt > 0 { try opened.seek(to: startAt) }
                    decoder = opened
                    mutate { $0.engineDidPlay(token: token, seekGeneration: seek, position: opened.position,
                                              duration: opened.duration) }
                } catch {
                    fail(token, error)
                }
            case let .seek(target, generation):
                servedSeek = generation
                sink.discardBuffered()
                guard let decoder, let token = loadedToken else { continue }
                do {
                    try decoder.seek(to: target)
                    mutate { $0.engineDidPlay(token: token, seekGeneration: generation, position: decoder.position,
                                              duration: decoder.duration) }
                } catch {
                    fail(token, error)
                }
            case let .decode(token, state, gain):
                guard let current = decoder, loadedToken == token else {
                    loadedToken = nil   // no decoder for the current play: open it (again)
                    continue
                }
                do {
                    guard var samples = try current.read() else {
                        decoder = nil
                        mutate { m in
                            m.itemDidFinish(token: token)
                            naturalToken = m.nowPlayingToken
                        }
                        continue
                    }
                    chunkCounter &+= 1
                    // Seeking states scan at 4×: forward plays one chunk in four; backward plays a chunk
                    // and jumps back five chunks' worth.
                    if state == .seekingForward && chunkCounter % 4 != 0 { continue }
                    if gain != 1 { Self.applyVolume(gain, to: &samples) }
                    try write(samples)
                    if state == .seekingBackward {
                        let chunk = outputFormat.seconds(frames: samples.count / outputFormat.channels)
                        try current.seek(to: max(0, current.position - 5 * chunk))
                    }
                    mutate { $0.engineDidPlay(token: token, seekGeneration: servedSeek, position: current.position,
                                              duration: current.duration) }
                } catch let error as SinkError {
                    mutate(extra: [.outputDidFail(error.message)]) { $0.interrupt() }
                } catch {
                    fail(token, error)
                }
            }
        }
    }

    private func write(_ samples: [Int32]) throws {
        try sink.write(samples)
    }

    /// Scales samples by `gain` (volume × ReplayGain), a linear gain on the amplitude, saturating at full
    /// scale (a gain above 1 on a file whose peak tag is missing or wrong must not wrap around). In
    /// Double: a Float's 24-bit mantissa would round away the low bits of 32-bit samples.
    static func applyVolume(_ gain: Float, to samples: inout [Int32]) {
        let factor = Double(gain)
        samples.withUnsafeMutableBufferPointer { buffer in
            for i in buffer.indices {
                buffer[i] = Int32(max(-2_147_483_648, min(2_147_483_647, (Double(buffer[i]) * factor).rounded())))
            }
        }
    }
}
