import Dispatch
import Foundation
import MediaIndex
import MediaModel
import SQLiteStore
import Synchronization

#if os(Linux)
/// glibc's malloc_trim (malloc.h is not in Swift's Glibc module).
@_silgen_name("malloc_trim") private func mallocTrim(_ pad: Int) -> Int32
#endif

/// The library kept in memory as a `LibrarySnapshot`, and kept current: on a private queue (never a
/// caller's thread, so never an event loop) it looks at the store's `ViewVersion` every `checkInterval`
/// and, when it moved (a scan, a rename, a rating, here or in another process), fetches the items changed
/// since (`ViewChangeFeed.changes(since:)`) and derives a new snapshot from the current one and those
/// (`LibrarySnapshot.applying`) — or builds it again from the store when the feed cannot say what changed —
/// then swaps it in.
/// `snapshot` never waits for a build: a reader gets the current one (a pointer read under a lock held
/// for nanoseconds) and keeps it for its whole request.
///
/// On a store that hears the library's writes (`WriteNotifying`: PostgreSQL), the view looks and builds on a
/// connection of its own (issue 38: its looks kept a remote library's one connection busy, and every request
/// waited behind them), looks when a write is heard, and every `notifiedInterval` only as a fallback (a
/// writer that does not notify); while the library cannot be read it looks again every `retryInterval`.
public final class LiveView: @unchecked Sendable {   // `state` is guarded by `lock`
    public let store: any LibraryStore
    public let schema: ViewSchema
    private let feed: any ViewChangeFeed
    /// Where builds read: `store`, or the change feed's own connection.
    private let buildStore: any LibraryStore
    /// Whether the feed hears writes (then the timer is only a fallback).
    public let hearsWrites: Bool
    private let waker: Waker
    /// The fallback look's interval when writes are heard, and the look's while the library cannot be read.
    public static let notifiedInterval = Duration.seconds(5)
    public static let retryInterval = Duration.milliseconds(500)
    private let current: Mutex<LibrarySnapshot>
    private let queue = DispatchQueue(label: "mlib.live-view")
    private let lock = NSLock()
    private var state = State()

    private struct State {
        var timer: (any DispatchSourceTimer)?
        var interval: Duration?
        /// Who hears of each new snapshot, in the order they started watching (one view may serve several
        /// fronts: `mlib serve` with the MPD port and `--http`).
        var observers: [(watch: Watch, onChange: @Sendable (LibrarySnapshot) -> Void)] = []
        var nextWatch = 0
        var lastError: String?
        var ticks = 0
        /// The version the snapshot is current with, when newer than `snapshot.version` (a look that found
        /// the token moved and no item changed keeps the snapshot).
        var applied: ViewVersion?
        var lastRefresh: RefreshReport?
        /// A look asked for by a heard write is queued (writes heard meanwhile need no other).
        var wakeQueued = false
        /// A look after a failure is scheduled (`retryInterval`).
        var retryQueued = false
        /// Whether the first snapshot is in (`FirstBuild`), and who waits for it.
        var ready = true
        var readyWaiters: [@Sendable (LibrarySnapshot) -> Void] = []
    }

    /// What the last refresh that changed the snapshot did (for benchmarks and logs).
    public struct RefreshReport: Sendable {
        /// Whether it applied the changed items (else it read the whole library again).
        public var incremental: Bool
        /// Whether the changed items were patched in (`LibrarySnapshot.lineage`: nothing else derived again).
        public var patched = false
        /// Items fetched and removed (incremental), or read (a full build).
        public var items: Int
        public var seconds: Double
    }


    /// The last refresh that changed the snapshot, if any since the view was made.
    public var lastRefresh: RefreshReport? { lock.withLock { state.lastRefresh } }

    /// Every how many checks the newest modification time is asked for too (`ViewChangeFeed`).
    public static let modificationProbeEvery = 10

    /// When the first snapshot is built: `now`, on the calling thread (`init` returns with it, or throws);
    /// `inBackground`, on the view's own queue (`init` returns at once: a server listens while it builds,
    /// issue 44). Until it is in, `snapshot` is an empty one and `isReady` false; a front answers what
    /// needs the library after `ready()` (or `whenReady`). A store error meanwhile is said once and the
    /// build retried every `retryInterval` until it succeeds.
    public enum FirstBuild: Sendable {
        case now
        case inBackground
    }

    /// Builds the first snapshot on the calling thread (call it where blocking is allowed: at start-up,
    /// before serving), or on the view's queue (`building: .inBackground`).
    public init(store: any LibraryStore, schema: ViewSchema, feed: (any ViewChangeFeed)? = nil,
                building: FirstBuild = .now) throws {
        self.store = store
        self.schema = schema
        var buildStore = store
        var hearsWrites = false
        let waker = Waker()
        self.waker = waker
        if feed == nil, let notifying = store as? any WriteNotifying {
            do {
                buildStore = try notifying.changeFeedStore(heard: { waker.wake() })
                hearsWrites = true
            } catch {
                // No second connection (the server's connection limit): the view looks on the store's, as before.
                Self.log("looks for changes on the library's connection (\(Self.oneLine(error)))")
            }
        }
        self.buildStore = buildStore
        self.hearsWrites = hearsWrites
        let feed = feed ?? StoreChangeFeed(store: buildStore)
        self.feed = feed
        if building == .inBackground {
            current = Mutex(LibrarySnapshot(version: nil, roots: [], columns: SnapshotColumns(schema: schema)))
            state.ready = false
            waker.set { [weak self] in self?.wake() }
            queue.async { [weak self] in self?.buildFirst() }
            return
        }
        let started = ContinuousClock.now
        let built = try Self.buildFirstSnapshot(feed: feed, store: buildStore, schema: schema)
        current = Mutex(built)
        waker.set { [weak self] in self?.wake() }
        Self.returnFreedMemory()
        // One line per view made: a process serving MPD and the API from one view says it once.
        ViewLog.write("built: \(built.count) items in " + ViewLog.milliseconds(since: started))
    }

    private static func buildFirstSnapshot(feed: any ViewChangeFeed, store: any LibraryStore, schema: ViewSchema) throws -> LibrarySnapshot {
        let version = try feed.viewVersion(probingModifications: true)
        guard let delay = testBuildDelay else { return try LibrarySnapshot.build(from: store, schema: schema, version: version) }
        var delayed = false
        return try LibrarySnapshot(schema: schema, version: version, roots: version.roots) { body in
            try LibrarySnapshot.forEachItem(of: store, readBy: schema) { item in
                if !delayed {
                    delayed = true
                    usleep(useconds_t(delay * 1_000))
                }
                body(item)
            }
        }
    }

    /// For tests of what clients see while the view builds (a build made slow without a library big
    /// enough to be slow): `MLIB_TEST_VIEW_BUILD_DELAY_MS` waits that long after the first build read its
    /// first item, inside the read (as a long read holds its connection). Never set in production.
    private static let testBuildDelay: Int? = ProcessInfo.processInfo.environment["MLIB_TEST_VIEW_BUILD_DELAY_MS"].flatMap { Int($0) }

    /// Whether the first snapshot is in (always, for a view built `now`).
    public var isReady: Bool { lock.withLock { state.ready } }

    /// Returns once the first snapshot is in (at once when it is): a request that needs the library awaits
    /// it without holding a thread (never block an event loop on it: a PostgreSQL store's own loop may be
    /// the one that has to answer the build).
    public func ready() async {
        if isReady { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            whenReady { _ in continuation.resume() }
        }
    }

    /// Calls `body` once, on the view's queue, with the first snapshot once it is in (at once, queued,
    /// when it is): after the watchers heard of it.
    public func whenReady(_ body: @escaping @Sendable (LibrarySnapshot) -> Void) {
        let waiting = lock.withLock { () -> Bool in
            guard !state.ready else { return false }
            state.readyWaiters.append(body)
            return true
        }
        if !waiting { queue.async { [weak self] in if let self { body(self.snapshot) } } }
    }

    /// A connection of its own to the same library for a first build in the background, when the view
    /// has none (an SQLite library: one connection serves every call of the process, and the build's read,
    /// a minute and more at a million songs, held every call that reads the store, even the API's login,
    /// so the server listened and answered `ping` only after it). Nil: the build reads on `buildStore`.
    private func ownConnection() -> (any LibraryStore)? {
        guard !hearsWrites, let sqlite = store as? SQLiteIndex, sqlite.path != ":memory:",
              let second = try? sqlite.secondConnection() else { return nil }
        // It reads what this store reads (as `WriteNotifying.changeFeedStore`).
        second.thisHostOnly.withLock { $0 = sqlite.thisHostOnly.withLock { $0 } }
        second.readableShares.withLock { $0 = sqlite.readableShares.withLock { $0 } }
        second.relocatedShares.withLock { $0 = sqlite.relocatedShares.withLock { $0 } }
        second.servedShares.withLock { $0 = sqlite.servedShares.withLock { $0 } }
        return second
    }

    /// The background first build, on the queue; retried every `retryInterval` while the store fails.
    private func buildFirst() {
        guard !isReady else { return }
        let started = ContinuousClock.now
        let built: LibrarySnapshot
        do {
            // The connection is closed with the build: later looks are short, and read on `buildStore`.
            built = try Self.buildFirstSnapshot(feed: feed, store: ownConnection() ?? buildStore, schema: schema)
        } catch {
            noteFailure(error)
            queue.asyncAfter(deadline: Self.retryDeadline()) { [weak self] in self?.buildFirst() }
            return
        }
        current.withLock { $0 = built }
        Self.returnFreedMemory()
        ViewLog.write("built: \(built.count) items in " + ViewLog.milliseconds(since: started))
        let (observers, waiters, healed) = lock.withLock {
            defer {
                state.ready = true
                state.readyWaiters = []
                state.lastError = nil
            }
            return (state.observers, state.readyWaiters, state.lastError)
        }
        if let healed { Self.log("the library is reachable again (after: \(healed))") }
        for observer in observers { observer.onChange(built) }
        for waiter in waiters { waiter(built) }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    /// Always said (a failure, a recovery), not only with `MLIB_VIEW_LOG`.
    private static func log(_ text: String) {
        FileHandle.standardError.write(Data("mlib: view \(text)\n".utf8))
    }

    /// The build's temporaries (interning tables, decoded items) are freed but glibc keeps the pages:
    /// give them back, so resident memory is the view's (at 10,000 items 4–5 MB more without it).
    private static func returnFreedMemory() {
        #if os(Linux)
        _ = mallocTrim(0)
        #endif
    }

    public var snapshot: LibrarySnapshot { current.withLock { $0 } }

    /// The last look's error while the library cannot be read (the previous snapshot stays in use); nil
    /// once a look succeeds.
    public var lastError: String? { lock.withLock { state.lastError } }

    /// One front's watching (`watch`), to end with `stop(_:)`.
    public struct Watch: Hashable, Sendable {
        let number: Int
    }

    /// Starts looking for changes every `interval` (with several watchers, the shortest interval asked);
    /// `onChange` is called (on the view's queue) with each new snapshot, after those of earlier watchers.
    @discardableResult
    public func watch(every interval: Duration, onChange: @escaping @Sendable (LibrarySnapshot) -> Void) -> Watch {
        lock.withLock {
            let watch = Watch(number: state.nextWatch)
            state.nextWatch += 1
            state.observers.append((watch, onChange))
            let every = hearsWrites ? max(interval, Self.notifiedInterval) : interval
            if state.timer == nil || every < state.interval! {
                state.timer?.cancel()
                let timer = DispatchSource.makeTimerSource(queue: queue)
                let nanoseconds = Int(every.components.seconds) * 1_000_000_000 + Int(every.components.attoseconds / 1_000_000_000)
                timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
                timer.setEventHandler { [weak self] in _ = self?.refreshOnQueue(force: false, probing: nil) }
                state.timer = timer
                state.interval = every
                timer.resume()
            }
            return watch
        }
    }

    /// A write was heard (or the listening started or stopped): one look, queued once however many come.
    private func wake() {
        let queue = lock.withLock { () -> Bool in
            guard state.timer != nil, !state.wakeQueued else { return false }
            state.wakeQueued = true
            return true
        }
        guard queue else { return }
        self.queue.async { [weak self] in
            guard let self else { return }
            self.lock.withLock { self.state.wakeQueued = false }
            _ = self.refreshOnQueue(force: false, probing: nil)
        }
    }

    /// Ends one watcher's watching; the looking stops with the last one (a refresh under way finishes).
    public func stop(_ watch: Watch) {
        lock.withLock {
            state.observers.removeAll { $0.watch == watch }
            if state.observers.isEmpty { stopTimer() }
        }
    }

    /// Stops watching for every watcher (a refresh under way finishes).
    public func stop() {
        lock.withLock {
            state.observers = []
            stopTimer()
        }
    }

    /// Under `lock`.
    private func stopTimer() {
        state.timer?.cancel()
        state.timer = nil
        state.interval = nil
    }

    /// Brings the view up to date now (after a scan this process ran): blocks the caller until the new
    /// snapshot is in, so call it off any event loop. Returns whether it changed. `force`: look for changed
    /// items even when the version has not moved; a feed that cannot say which changed rebuilds the view.
    @discardableResult
    public func refresh(force: Bool = false) -> Bool {
        queue.sync { refreshOnQueue(force: force, probing: true) }
    }

    /// The same for async callers: waits without holding a thread of Swift's cooperative pool (the
    /// rebuild runs on the view's own queue).
    @discardableResult
    public func refreshed(force: Bool = false) async -> Bool {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.refreshOnQueue(force: force, probing: true)) }
        }
    }

    /// `probing` nil: the newest modification time is asked every `modificationProbeEvery` calls. A failure
    /// (the library unreachable: a database server restarting, a network cut) keeps the snapshot, is said
    /// once on standard error and kept in `lastError` for the fronts to show (MPD `status` `error:`, Subsonic
    /// `getScanStatus`) until a look succeeds again, said too; the next looks retry (the PostgreSQL store
    /// connects again with a backoff of its own), and the first that gets through catches up from the change log.
    private func refreshOnQueue(force: Bool, probing: Bool?) -> Bool {
        // Before the first snapshot is in there is nothing to look from: the first build (retried on its own
        // until it succeeds) reads the version before the items, so the first look after it catches up.
        guard isReady else { return false }
        do {
            let changed = try refreshing(force: force, probing: probing)
            if let healed = lock.withLock({ () -> String? in defer { state.lastError = nil }; return state.lastError }) {
                Self.log("the library is reachable again (after: \(healed))")
            }
            return changed
        } catch {
            noteFailure(error)
            retrySoon()
            return false
        }
    }

    /// Keeps a failure in `lastError` for the fronts and says it on standard error once (not at every retry).
    private func noteFailure(_ error: any Error) {
        let text = Self.oneLine(error)
        let isNew = lock.withLock { () -> Bool in
            defer { state.lastError = text }
            return state.lastError != text
        }
        if isNew { Self.log("cannot read the library (retrying): \(text)") }
    }

    /// When the next try after a failure runs: `retryInterval` from now.
    private static func retryDeadline() -> DispatchTime {
        let (seconds, attoseconds) = retryInterval.components
        return .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }

    /// After a failed look, when the timer is only a fallback: another look in `retryInterval` (and so on
    /// until one succeeds), so that a library back is seen as soon as without notifications.
    private func retrySoon() {
        guard hearsWrites else { return }
        let schedule = lock.withLock { () -> Bool in
            guard state.timer != nil, !state.retryQueued else { return false }
            state.retryQueued = true
            return true
        }
        guard schedule else { return }
        queue.asyncAfter(deadline: Self.retryDeadline()) { [weak self] in
            guard let self else { return }
            self.lock.withLock { self.state.retryQueued = false }
            _ = self.refreshOnQueue(force: false, probing: nil)
        }
    }

    /// An error on one line, as the fronts show it.
    static func oneLine(_ error: any Error) -> String {
        "\(error)".replacingOccurrences(of: "\n", with: " ")
    }

    private func refreshing(force: Bool, probing: Bool?) throws -> Bool {
        do {
            let probe = probing ?? lock.withLock {
                state.ticks += 1
                return state.ticks % Self.modificationProbeEvery == 0
            }
            // A server's shares mounted or unmounted since the last look (issue 38): the items it may list
            // changed without a write, so the view is read again.
            let rescoped = (store as? SQLStore)?.recheckMountedShares(alsoFor: buildStore as? SQLStore) ?? false
            var version = try feed.viewVersion(probingModifications: probe)
            let old = snapshot
            let applied = rescoped ? nil : lock.withLock { state.applied } ?? old.version
            if !probe { version.newestModification = applied?.newestModification }
            // With a change log the log is asked every time: PostgreSQL's token may stay put while items change.
            guard force || rescoped || version != applied || version.changeToken != nil else { return false }
            let started = ContinuousClock.now
            let new: LibrarySnapshot
            let report: RefreshReport
            if let applied, applied.changeToken != nil, version.changeToken != nil, let changes = try feed.changes(since: applied) {
                version.changeToken = changes.token ?? version.changeToken
                var unchanged = applied
                unchanged.changeToken = version.changeToken
                if unchanged == version && (changes.isEmpty || old.isUnchanged(by: changes)) {
                    // Only the token moved (on PostgreSQL, any transaction on the server moves it), or the
                    // items written hold what the view holds.
                    lock.withLock { state.applied = version }
                    return false
                }
                new = old.applying(changes, version: version)
                report = RefreshReport(incremental: true, patched: new.lineage != nil, items: changes.upserted.count + changes.removed.count,
                                       seconds: 0)
            } else {
                new = try LibrarySnapshot.build(from: buildStore, schema: schema, version: version)
                report = RefreshReport(incremental: false, items: new.count, seconds: 0)
            }
            current.withLock { $0 = new }
            // A patch frees a few chunks: not worth a walk of the heap (malloc_trim) per rating or play.
            if new.lineage == nil { Self.returnFreedMemory() }
            let elapsed = ContinuousClock.now - started
            let observers = lock.withLock {
                state.applied = nil
                state.lastRefresh = report
                state.lastRefresh?.seconds = Self.seconds(elapsed)
                return state.observers
            }
            if ViewLog.isOn, let report = lastRefresh {
                let what = report.patched ? "patched" : report.incremental ? "refreshed" : "rebuilt"
                ViewLog.write("\(what): \(report.items) items in " + String(format: "%.1f ms", report.seconds * 1_000))
            }
            for observer in observers { observer.onChange(new) }
            return true
        }
    }
}

/// What a heard write calls: the view, once it is made (the change feed's store is made before it).
private final class Waker: Sendable {
    private let target = Mutex<(@Sendable () -> Void)?>(nil)
    func set(_ body: @escaping @Sendable () -> Void) { target.withLock { $0 = body } }
    func wake() { target.withLock { $0 }?() }
}
