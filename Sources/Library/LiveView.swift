import Dispatch
import Foundation
import MediaIndex
import MediaModel
import Synchronization

/// The library kept in memory as a `LibrarySnapshot`, and kept current: on a private queue (never a
/// caller's thread, so never an event loop) it looks at the store's `ViewVersion` every `checkInterval`
/// and builds a new snapshot when it moved (a scan here or in another process), then swaps it in.
/// `snapshot` never waits for a build: a reader gets the current one (a pointer read under a lock held
/// for nanoseconds) and keeps it for its whole request.
public final class LiveView: @unchecked Sendable {   // `state` is guarded by `lock`
    public let store: any LibraryStore
    public let schema: ViewSchema
    private let feed: any ViewChangeFeed
    private let current: Mutex<LibrarySnapshot>
    private let queue = DispatchQueue(label: "mlib.live-view")
    private let lock = NSLock()
    private var state = State()

    private struct State {
        var timer: (any DispatchSourceTimer)?
        var onChange: (@Sendable (LibrarySnapshot) -> Void)?
        var lastError: String?
    }

    /// Builds the first snapshot on the calling thread (call it where blocking is allowed: at start-up,
    /// before serving).
    public init(store: any LibraryStore, schema: ViewSchema, feed: (any ViewChangeFeed)? = nil) throws {
        self.store = store
        self.schema = schema
        let feed = feed ?? StoreChangeFeed(store: store)
        self.feed = feed
        let version = try feed.viewVersion()
        current = Mutex(try LibrarySnapshot.build(from: store, schema: schema, version: version))
    }

    public var snapshot: LibrarySnapshot { current.withLock { $0 } }

    /// The last refresh's error, if it failed (the previous snapshot stays in use).
    public var lastError: String? { lock.withLock { state.lastError } }

    /// Starts looking for changes every `interval`; `onChange` is called (on the view's queue) with each
    /// new snapshot.
    public func watch(every interval: Duration, onChange: @escaping @Sendable (LibrarySnapshot) -> Void) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let nanoseconds = Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
        timer.setEventHandler { [weak self] in _ = self?.refreshOnQueue(force: false) }
        lock.withLock {
            state.onChange = onChange
            state.timer?.cancel()
            state.timer = timer
        }
        timer.resume()
    }

    /// Stops watching (a refresh under way finishes).
    public func stop() {
        lock.withLock {
            state.timer?.cancel()
            state.timer = nil
            state.onChange = nil
        }
    }

    /// Brings the view up to date now (after a scan this process ran): blocks the caller until the new
    /// snapshot is in, so call it off any event loop. Returns whether it changed.
    @discardableResult
    public func refresh(force: Bool = false) -> Bool {
        queue.sync { refreshOnQueue(force: force) }
    }

    private func refreshOnQueue(force: Bool) -> Bool {
        do {
            let version = try feed.viewVersion()
            let old = snapshot
            guard force || version != old.version else { return false }
            let new = try LibrarySnapshot.build(from: store, schema: schema, version: version)
            current.withLock { $0 = new }
            let onChange = lock.withLock {
                state.lastError = nil
                return state.onChange
            }
            onChange?(new)
            return true
        } catch {
            lock.withLock { state.lastError = "\(error)" }
            return false
        }
    }
}
