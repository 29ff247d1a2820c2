import Foundation
import MediaIndex
import MediaModel

/// What tells the live view that the library changed, and (where the store can say it) what changed.
///
/// `StoreChangeFeed` reads the store's item change log (`ItemChangeLog`): its token moves with every write
/// to an item, by this process or another, and `changes(since:)` fetches only the items written since the
/// view's token. A feed that cannot say what changed answers nil, and the view is read again whole.
public protocol ViewChangeFeed: Sendable {
    /// A value that differs whenever the library's items may have changed. With `probingModifications`
    /// it also says what the newest file modification time is (a costlier question: see
    /// `StoreChangeFeed`); without, `newestModification` is nil.
    func viewVersion(probingModifications: Bool) throws -> ViewVersion
    /// The items changed since `version`, or nil when the store cannot say (the view is rebuilt).
    func changes(since version: ViewVersion) throws -> ViewChanges?
}

public struct ViewVersion: Sendable, Equatable {
    public var generation: Int64
    public var items: Int
    public var duration: Double
    public var size: Int64
    public var roots: [MediaPath]
    /// The newest modification time of any item: moves when a rescan re-reads a changed file, which
    /// raises no generation and may change no total.
    public var newestModification: Double?
    /// The store's change-log token when the view read it (`ItemChangeLog`): where `changes(since:)`
    /// starts. With a token, `items`, `duration` and `size` are not read (0): the token moves first.
    public var changeToken: Int64?

    public init(generation: Int64, items: Int, duration: Double, size: Int64, roots: [MediaPath], newestModification: Double? = nil,
                changeToken: Int64? = nil) {
        self.generation = generation
        self.items = items
        self.duration = duration
        self.size = size
        self.roots = roots
        self.newestModification = newestModification
        self.changeToken = changeToken
    }
}

public struct ViewChanges: Sendable {
    /// The items written since the version asked from, as they are now.
    public var upserted: [MediaItem]
    /// The ids of the items gone since (deleted, or hidden by a partial scan).
    public var removed: [Int64]
    /// The change-log token these changes bring the view to (nil: the feed has none).
    public var token: Int64?

    public init(upserted: [MediaItem], removed: [Int64], token: Int64? = nil) {
        self.upserted = upserted
        self.removed = removed
        self.token = token
    }

    public var isEmpty: Bool { upserted.isEmpty && removed.isEmpty }
}

/// Over the store's item change log: the token, the scan generation and the roots, asked every half second
/// (a look-up of the highest token on SQLite; on PostgreSQL the snapshot's xmin, which other databases'
/// transactions move too: the answer is then empty). `changes(since:)` reads the ids written since the view's
/// token and only those items. (Before the log, the feed compared the totals and, every tenth look, the
/// newest modification time — a table scan — and a rename, which moves neither, went unseen.)
public struct StoreChangeFeed: ViewChangeFeed {
    public let store: any LibraryStore
    /// More items changed than this: `changes(since:)` answers nil and the view is built again, streamed
    /// (fetching them by id would hold them all in memory at once).
    public var incrementalLimit = 25_000

    public init(store: any LibraryStore) { self.store = store }

    public func viewVersion(probingModifications: Bool) throws -> ViewVersion {
        let token = try store.changeToken()
        return ViewVersion(generation: try store.currentGeneration(), items: 0, duration: 0, size: 0, roots: try store.roots(),
                           changeToken: token)
    }

    public func changes(since version: ViewVersion) throws -> ViewChanges? {
        guard let token = version.changeToken, let changes = try store.itemChanges(since: token) else { return nil }
        let fresh = handedOut.fresh(changes, since: token)
        guard fresh.count <= incrementalLimit else { return nil }
        let items = try store.items(ids: fresh)
        let found = Set(items.map(\.persistentID))
        return ViewChanges(upserted: items, removed: fresh.filter { !found.contains($0) }, token: changes.token)
    }

    /// The writes already handed out: on PostgreSQL the token is the oldest transaction running on the server,
    /// which may stay put (a long transaction anywhere) while writes go on, so the same rows come back look
    /// after look; only those whose token changed are fetched again.
    private let handedOut = HandedOutWrites()
}

/// Per item, the token of the write last handed out by a `StoreChangeFeed` (those below the token asked
/// from are forgotten: they cannot come back).
final class HandedOutWrites: @unchecked Sendable {   // `tokens` is guarded by `lock`
    private let lock = NSLock()
    private var tokens: [Int64: Int64] = [:]

    /// The ids of `changes` whose write has not been handed out yet, recorded as handed out.
    func fresh(_ changes: ItemChanges, since token: Int64) -> [Int64] {
        lock.withLock {
            tokens = tokens.filter { $0.value >= token }
            guard changes.tokens.count == changes.ids.count else { return changes.ids }
            var fresh: [Int64] = []
            for (id, written) in zip(changes.ids, changes.tokens) where tokens[id] != written {
                tokens[id] = written
                fresh.append(id)
            }
            return fresh
        }
    }
}
