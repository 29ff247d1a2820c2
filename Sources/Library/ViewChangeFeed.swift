import MediaIndex
import MediaModel

/// What tells the live view that the library changed, and (where the store can say it) what changed.
///
/// Today's stores give only totals and the scan generation, so the default `changes(since:)` answers nil
/// ("unknown: read everything again"). The store-side primitive the view wants is
/// `itemsChanged(sinceGeneration:) -> (upserted: [MediaItem], removed: [Int64])` — the items written or
/// removed by scans after a generation (an `items.generation` column plus a tombstone table, or a
/// `changed_at_generation` index) — so a 1 % rescan re-reads 1 % of the items.
public protocol ViewChangeFeed: Sendable {
    /// A value that differs whenever the library's items may have changed.
    func viewVersion() throws -> ViewVersion
    /// The items changed since `version`, or nil when the store cannot say (the view is rebuilt).
    func changes(since version: ViewVersion) throws -> ViewChanges?
}

public struct ViewVersion: Sendable, Equatable {
    public var generation: Int64
    public var items: Int
    public var duration: Double
    public var size: Int64
    public var roots: [MediaPath]

    public init(generation: Int64, items: Int, duration: Double, size: Int64, roots: [MediaPath]) {
        self.generation = generation
        self.items = items
        self.duration = duration
        self.size = size
        self.roots = roots
    }
}

public struct ViewChanges: Sendable {
    public var upserted: [MediaItem]
    public var removed: [Int64]
}

/// Over today's protocols: the scan generation (raised by every scan, here or in another process), the
/// totals (which also move when another process scans without a new generation) and the roots.
public struct StoreChangeFeed: ViewChangeFeed {
    public let store: any LibraryStore

    public init(store: any LibraryStore) { self.store = store }

    public func viewVersion() throws -> ViewVersion {
        let totals = try store.statistics()
        return ViewVersion(generation: try store.currentGeneration(), items: totals.items, duration: totals.totalDuration,
                           size: totals.totalSize, roots: try store.roots())
    }

    public func changes(since version: ViewVersion) throws -> ViewChanges? { nil }
}
