import Foundation
import Library
import MediaIndex
import MediaModel
import MediaScanner
import NIOCore
import NIOPosix
import Playback

/// The state every connection shares: the player, the library, the queue's ids, MPD's option flags and
/// the idle bookkeeping. Everything here runs on `loop`, the server's one event-loop thread, which also
/// reads and writes every connection: commands, player events and the end of an update, in the order
/// they happen, so there is no other locking. (A serial DispatchQueue beside the loop cost two thread
/// hand-offs per command: with 20 clients, 2,611 status/currentsong/playlistinfo a second against
/// mpd's 7,974 on this machine.)
final class ServerCore: @unchecked Sendable {
    let loop: any EventLoop
    let player: MusicPlayer
    /// The library: its store for the commands that read, its scan and statistics for `update` and plays.
    let library: Library
    var store: any LibraryStore { library.store }
    let configuration: MPDServerConfiguration
    let started = Date()

    /// URIs over the roots of the current view (set again when a new view comes in).
    private(set) var uris: LibraryURIs
    /// The library in memory, as MPD keeps its database: browsing, queries, `list`, `count` and `stats`
    /// answer from it on the loop without a store call. Rebuilt off the loop when the library changed.
    let view: LiveView
    /// The one thread the server's store calls run on (`offLoop`): never the event loop, where
    /// PostgreSQL's blocking client traps (NIO's `wait()` check) and any store call stalls every client.
    /// One thread: the server's store calls keep the order they had when they ran on the loop.
    let storeThread = NIOThreadPool(numberOfThreads: 1)
    var queueIDs = QueueIDs()

    // MPD's options that MusicPlayer has no word for (repeat and random map onto its modes).
    var repeatOn = false
    var singleOn = false
    var consumeOn = false
    var crossfade = 0
    var outputEnabled = true
    var lastError: String?
    /// Whose plays the player records: the user of the connection that last started playback (`play`,
    /// `playid`), nil for the library's owner.
    var playerUser: String?
    /// `prio` values by song id, as shown; the player has them too (by queue index), to order random mode.
    var priorities: [Int: Int] = [:]

    /// Where `stop` left the current song: MPD keeps it (status shows it, `play` starts there), while
    /// MusicPlayer's stop leaves nothing current.
    var stoppedSongID: Int?

    /// The queue position MPD calls the current song: the player's, or where `stop` left it.
    var currentPosition: Int? {
        if let index = player.indexOfNowPlayingItem { return index < queueIDs.count ? index : nil }
        return stoppedSongID.flatMap { queueIDs.position(ofID: $0) }
    }

    /// The id of the entry playing as last seen (for `consume`, which removes it when it finishes).
    private var currentSongID: Int?
    /// Seconds played since the server started (`stats` `playtime`).
    private var playedBefore: Double = 0
    private var playingSince: Date?
    /// The job `status` shows as `updating_db`: the update running (or waiting for the scan lock).
    private(set) var updateJob: Int?
    /// The last job id handed out (mpd's `update_task_id`): a queued job has an id before it runs.
    private var lastUpdateJob = 0
    /// Updates asked for while one runs, in order (mpd's `UpdateQueue`): each runs when the one before
    /// ends, so `update A` then `update B` scans both.
    private var queuedUpdates: [(job: Int, directories: [MediaPath])] = []
    /// mpd's `MAX_UPDATE_QUEUE_SIZE`: one more is refused with "Update queue is full".
    static let maxQueuedUpdates = 32
    /// mpd's `update_task_id_max`: job ids wrap to 1 after it.
    static let maxUpdateJob = 1 << 15
    private(set) var databaseUpdated: Date

    private var sessions: [ObjectIdentifier: ClientSession] = [:]
    /// Told of every change of the queue, the player or the volume (`MPDServer.observeChanges`: the web app).
    var changeObservers: [@Sendable () -> Void] = []

    /// The stored playlists as `lsinfo ""` last read them, for a second at most: clients send `lsinfo ""`
    /// on every visit to the top, and the store call off the loop made it 3.7x mpd's time. Dropped at
    /// once when this server edits a playlist or the library changes (`emit`); one by another process
    /// shows within the second.
    private var recentPlaylists: (playlists: [StoredPlaylist], at: ContinuousClock.Instant)?

    func cachedPlaylists() -> [StoredPlaylist]? {
        guard let recent = recentPlaylists, ContinuousClock.now - recent.at < .seconds(1) else { return nil }
        return recent.playlists
    }

    func rememberPlaylists(_ playlists: [StoredPlaylist]) { recentPlaylists = (playlists, .now) }

    private var observer: UUID?

    /// `view`: one built over `library`'s store whose schema holds `ViewSchema.mpd`'s slots first (shared
    /// with another front: `MPDServer.viewSchema`); nil: the core builds its own.
    init(player: MusicPlayer, library: Library, configuration: MPDServerConfiguration, loop: any EventLoop,
         view: LiveView? = nil) throws {
        self.loop = loop
        self.player = player
        self.library = library
        self.configuration = configuration
        // The commands read slots by fixed numbers (`MPDTag.slot`): a shared view must start with ours.
        if let view, view.schema.slotOffset(of: .mpd) != 0 { throw MPDServer.ViewMismatch() }
        // Built in the background (issue 44: at a million songs the build takes tens of seconds): the server
        // listens at once, and what needs the library waits for it (`libraryReady`).
        self.view = try view ?? LiveView(store: library.store, schema: .mpd, building: .inBackground)
        uris = LibraryURIs(roots: self.view.snapshot.roots)
        databaseUpdated = Date()
        libraryReady = self.view.isReady
        if !libraryReady {
            // As mpd's update at start-up: `status` shows the load as job 1 (`updating_db`) until it ends.
            lastUpdateJob = 1
            updateJob = 1
        }
        storeThread.start()
        // Later, never inline: the player reports from inside its own calls (a command's `next`).
        observer = player.addObserver { [weak self] event in
            guard let self else { return }
            self.loop.execute { self.handle(event) }
        }
    }

    /// Runs `body` on the loop after what is already queued there (commands and player events keep
    /// their order).
    func enqueue(_ body: @escaping @Sendable () -> Void) { loop.execute(body) }

    /// Runs `body` on the loop once the sockets that are ready have been served. `enqueue` does not give
    /// way to them: NIO runs queued tasks (and scheduled ones already due) until none is left before it
    /// looks at the sockets again, so a task that queues its own continuation (a long walk, a long command
    /// list) held every other client (a ping behind a `command_list` flood of `listallinfo` at 100,040
    /// songs: 290-359 ms). The continuations of all clients run in rounds, one slice each per round, and
    /// the next round is scheduled a little after the end of the last, so it is not yet due when NIO looks
    /// for more tasks: the loop polls the sockets between rounds.
    func afterPendingIO(_ body: @escaping @Sendable () -> Void) {
        laterSlices.append(body)
        if !roundScheduled { scheduleRound() }
    }

    private var laterSlices: [@Sendable () -> Void] = []
    private var roundScheduled = false
    /// How many of the current round's continuations are still to run.
    private var roundLeft = 0

    /// Long answers and command lists waiting for a turn (besides the one asking): their slices share a
    /// round (`LibraryWalk.slice(whileWaiting:)`).
    var waitingForATurn: Int { laterSlices.count + max(0, roundLeft - 1) }

    private func scheduleRound() {
        roundScheduled = true
        loop.scheduleTask(in: .microseconds(50)) { self.runRound() }
    }

    private func runRound() {
        let round = laterSlices
        laterSlices = []
        // Continuations that ask for a later turn meanwhile wait for the next round (still `roundScheduled`).
        roundLeft = round.count
        for body in round {
            body()
            roundLeft -= 1
        }
        roundScheduled = false
        if !laterSlices.isEmpty { scheduleRound() }
    }

    /// `stats`' last answer (on the loop only).
    let statsAnswer = StatusCommands.StatsAnswer()

    /// `body` now when called on the core's loop (a channel handler), else queued on it. Only for calls
    /// that cannot re-enter a session (a line read, a connection opened): a writability change can come
    /// from inside a write, and is queued (`enqueue`).
    func runOnLoop(_ body: @escaping @Sendable () -> Void) {
        if loop.inEventLoop { body() } else { loop.execute(body) }
    }

    /// Starts following the library: a scan by `mlib scan`/`mlib watch` elsewhere shows within
    /// `checkInterval` (the view looks at the store's generation and totals on its own thread).
    func watchLibrary(checkInterval: Duration = .milliseconds(500)) {
        if libraryReady {
            let first = view.snapshot
            loop.execute { self.lastSnapshot = first }
        }
        view.watch(every: checkInterval) { [weak self] snapshot in
            guard let self else { return }
            self.loop.execute { self.viewChanged(snapshot) }
        }
        // A first build that ended before the watching began is heard here (one heard twice is seen once).
        view.whenReady { [weak self] snapshot in
            guard let self else { return }
            self.loop.execute { self.viewChanged(snapshot) }
        }
    }

    /// Whether the view's first snapshot is in: until then, the commands that need the library wait
    /// (`whenLibraryReady`) and the others are answered at once (`CommandTable.answeredBeforeLibrary`).
    private(set) var libraryReady: Bool
    private var waitingForLibrary: [() -> Void] = []

    /// Runs `body` on the loop once the library is loaded (at once when it is).
    func whenLibraryReady(_ body: @escaping () -> Void) {
        if libraryReady { return body() }
        waitingForLibrary.append(body)
    }

    /// The first snapshot is in: the load ends as an update would, but no client hears `database` or
    /// `update` (none could have read the library before: every command that reads it waited).
    private func libraryLoaded(_ snapshot: LibrarySnapshot) {
        lastSnapshot = snapshot
        uris = LibraryURIs(roots: snapshot.roots)
        databaseUpdated = Date()
        libraryReady = true
        updateJob = nil
        let waiting = waitingForLibrary
        waitingForLibrary = []
        // In the order the clients asked (each client's own commands stay in its order: it waits as a whole).
        for body in waiting { body() }
    }

    /// A new view is in: URIs follow its roots; clients hear `database` unless an update of ours is
    /// under way (its end announces it), or the view was patched in nothing MPD shows or filters on (a
    /// rating or a play recorded by the API: an `idle database` makes clients reload their whole library).
    private func viewChanged(_ snapshot: LibrarySnapshot) {
        if let lastSnapshot, lastSnapshot === snapshot { return }
        guard libraryReady else { return libraryLoaded(snapshot) }
        defer { lastSnapshot = snapshot }
        uris = LibraryURIs(roots: snapshot.roots)
        if let lastSnapshot, let lineage = snapshot.lineage, lineage.follows(lastSnapshot),
           !lineage.touches(slots: 0..<ViewSchema.mpd.slots.count,
                            properties: ViewSchema.mpd.properties.compactMap(snapshot.schema.properties.firstIndex(of:))) {
            return
        }
        if updateJob == nil { emit([.database]) }
    }
    /// The last view `viewChanged` saw (the one the next one may be patched from).
    private var lastSnapshot: LibrarySnapshot?

    /// Stops listening to the player and the library, before the loop shuts down (nothing may be queued
    /// on it after).
    func detach() {
        if let observer { player.removeObserver(observer) }
        observer = nil
        view.stop()
        try? storeThread.syncShutdownGracefully()
    }

    /// Runs `work` on the store thread; the future completes on the loop.
    func offLoop<T: Sendable>(_ work: @escaping @Sendable () throws -> T) -> EventLoopFuture<T> {
        storeThread.runIfActive(eventLoop: loop, work)
    }

    /// The song blocks of `view` (`listallinfo`'s): those of the last view asked for are kept; a view
    /// patched from it keeps them but the written items' (`Lineage`); another view starts empty ones (the
    /// old ones go with the last walk over them).
    func songLines(for view: LibrarySnapshot) -> SongLineCache {
        if let songLines, songLines.view === view { return songLines }
        let made: SongLineCache
        if let songLines, let lineage = view.lineage, lineage.follows(songLines.view) {
            made = SongLineCache(view: view, carrying: songLines, except: lineage)
            ViewLog.write("song blocks kept: \(made.keptCount) of \(view.count)")
        } else {
            made = SongLineCache(view: view)
        }
        songLines = made
        return made
    }
    private var songLines: SongLineCache?

    /// The library as MPD's directory tree, over the current view.
    func browser() -> LibraryBrowser { LibraryBrowser(view: view.snapshot, uris: uris) }

    // MARK: Sessions and idle

    func register(_ session: ClientSession) { sessions[ObjectIdentifier(session)] = session }
    func unregister(_ session: ClientSession) { sessions[ObjectIdentifier(session)] = nil }
    var sessionCount: Int { sessions.count }

    /// Tells every connection that these subsystems changed (an idling one is answered at once).
    func emit(_ subsystems: Set<Subsystem>) {
        guard !subsystems.isEmpty else { return }
        if !subsystems.isDisjoint(with: [.stored_playlist, .database]) { recentPlaylists = nil }
        for session in sessions.values { session.changed(subsystems) }
        if !changeObservers.isEmpty, !subsystems.isDisjoint(with: [.player, .playlist, .mixer, .options]) {
            for observer in changeObservers { observer() }
        }
    }

    /// Ends a command that may have edited the queue: raises its version once and wakes `playlist` idlers.
    func commitQueue() {
        if queueIDs.commit() { emit([.playlist]) }
    }

    // MARK: Player events

    private func handle(_ event: PlayerEvent) {
        switch event {
        case .playbackStateDidChange(let state):
            if state.isAdvancing { stoppedSongID = nil }
            if state.isAdvancing { if playingSince == nil { playingSince = Date() } } else if let since = playingSince {
                playedBefore += Date().timeIntervalSince(since)
                playingSince = nil
            }
            emit([.player])
        case .nowPlayingItemDidChange:
            currentSongID = player.indexOfNowPlayingItem.flatMap { $0 < queueIDs.count ? queueIDs.ids[$0] : nil }
            // A song that starts playing has had its turn: mpd resets its priority to 0 (a queue change).
            if let id = currentSongID, priorities[id] != nil, let position = queueIDs.position(ofID: id) {
                setPriority(0, at: position)
                commitQueue()
            }
            emit([.player])
        case .queueDidChange:
            break   // the commands that edit the queue announce `playlist` themselves
        case .volumeDidChange:
            emit([.mixer])
        case .itemDidEnd(let end):
            recordStatistics(end)
            if consumeOn, end.reason == .finished, let position = finishedPosition(end.item) {
                player.removeItem(at: position)
                queueIDs.remove(at: position)
                commitQueue()
            }
        case .itemDidFail(let item, let message):
            lastError = "Failed to decode \(uris.uri(of: item.path) ?? item.path.string): \(message)"
            emit([.player])
        case .outputDidFail(let message):
            lastError = message
            emit([.player, .output])
        }
    }

    /// Where the item that just finished sits: the one queue entry holding it, or (when the queue holds it
    /// more than once) the entry last seen playing. Events are handled a little after they happen, when
    /// the player may already be further on, so the item itself is the better witness.
    private func finishedPosition(_ item: MediaItem) -> Int? {
        let queue = player.queue
        let matches = queue.indices.filter { queue[$0] == item }
        if matches.count == 1 { return matches[0] }
        return currentSongID.flatMap { queueIDs.position(ofID: $0) }
    }

    /// Play statistics by the library's one rule (`Library.record`); a failure to write them is the
    /// error `status` shows, as MPD shows a failed output or decoder.
    private func recordStatistics(_ end: ItemEnd) {
        guard configuration.recordPlays, end.itemID != 0 else { return }
        let library = self.library, date = Date(), user = playerUser
        // Off the loop, as every store call of the server; a failure is what `status` shows.
        offLoop { _ = try library.record(end, at: date, front: .mpd, user: user) }.whenFailure { [weak self] error in
            guard let self else { return }
            self.lastError = "cannot record play statistics: \(error)"
            self.emit([.player])
        }
    }

    var playTime: Double { playedBefore + (playingSince.map { Date().timeIntervalSince($0) } ?? 0) }

    // MARK: Database updates

    /// Starts a scan of `directories` (every root when empty), or queues it behind the one that runs;
    /// returns its job number (mpd's rules: ids count up to 32768 and wrap to 1, at most 32 wait, a 33rd
    /// is refused). The scan is `Library.scan`, the one `mlib scan` runs: it waits for the store's scan
    /// lock (the lock file of an SQLite library, each root's advisory lock on PostgreSQL) and mirrors
    /// playlist files.
    func startUpdate(_ directories: [MediaPath]) throws -> Int {
        let job = lastUpdateJob + 1 > Self.maxUpdateJob ? 1 : lastUpdateJob + 1
        if updateJob != nil {
            guard queuedUpdates.count < Self.maxQueuedUpdates else { throw MPDError(.updateAlready, "Update queue is full") }
            queuedUpdates.append((job, directories))
            lastUpdateJob = job
            return job
        }
        lastUpdateJob = job
        runUpdate(job, directories)
        emit([.update])
        return job
    }

    /// Runs update `job` off the loop; `finishUpdate` ends it on the loop and starts the next queued one.
    private func runUpdate(_ job: Int, _ directories: [MediaPath]) {
        updateJob = job
        let library = self.library
        Task.detached { [weak self] in
            var failure: String?
            var playlistsTouched = false
            // Whether the scan changed the library: an update that changed nothing wakes no `idle
            // database` (each client reloads its whole library on one). Unknown after a failure: true.
            var changed = true
            do {
                let result = try await library.scan(directories)
                let mirrored = result.playlists, summary = result.summary
                playlistsTouched = mirrored.synced > 0 || !mirrored.removed.isEmpty
                changed = summary.added + summary.updated + summary.reread + summary.moved + summary.removed
                    + summary.excluded > 0 || result.interrupted
                if let (file, message) = mirrored.failures.first {
                    failure = (file.map { "\($0): playlist not imported: " } ?? "") + message
                }
            } catch {
                failure = "update failed: \(error)"
            }
            guard let self else { return }
            // The new view is in before the update is announced: a client that reloads on `database`
            // sees the scan's result. (Here, off the loop: the refresh reads the items the store's change
            // log names, or the whole library when the log cannot say.) Forced even when the scan changed
            // nothing: another process may have changed the library meanwhile; clients hear of it then.
            let before = self.view.snapshot
            await self.view.refreshed(force: true)
            changed = changed || !Self.sameContent(before, self.view.snapshot)
            let (message, touched, databaseChanged) = (failure, playlistsTouched, changed)
            self.enqueue { self.finishUpdate(failure: message, playlistsTouched: touched, databaseChanged: databaseChanged) }
        }
    }

    /// Whether two views hold the same songs under the same paths with the same totals (the scan
    /// generation aside: a scan that changed nothing may still raise it).
    private static func sameContent(_ a: LibrarySnapshot, _ b: LibrarySnapshot) -> Bool {
        var versionA = a.version, versionB = b.version
        versionA?.generation = 0
        versionB?.generation = 0
        return versionA == versionB && a.paths == b.paths
    }

    private func finishUpdate(failure: String?, playlistsTouched: Bool, databaseChanged: Bool) {
        updateJob = nil
        if databaseChanged { databaseUpdated = Date() }
        if let failure { lastError = failure }
        var subsystems: Set<Subsystem> = [.update]
        if databaseChanged { subsystems.insert(.database) }
        if playlistsTouched { subsystems.insert(.stored_playlist) }
        emit(subsystems)
        // As mpd's RunDeferred: the end is announced, then the next queued update starts (no second
        // `update` event: a client polling `status` sees `updating_db` with the next job's id).
        if !queuedUpdates.isEmpty {
            let next = queuedUpdates.removeFirst()
            runUpdate(next.job, next.directories)
        }
    }
}
