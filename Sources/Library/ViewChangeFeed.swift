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

    public init(generation: Int64, items: Int, duration: Double, size: Int64, roots: [MediaPath], newestModification: Double? = nil) {
        self.generation = generation
        self.items = items
        self.duration = duration
        self.size = size
        self.roots = roots
        self.newestModification = newestModification
    }
}

public struct ViewChanges: Sendable {
    public var upserted: [MediaItem]
    public var removed: [Int64]
}

/// Over today's protocols: the scan generation (raised by a scan that adds an item, here or in another
/// process), the totals and the roots — cheap, asked every half second — and, less often, the newest
/// modification time (an ORDER BY … LIMIT 1 over an unindexed column: a table scan, ~10–30 ms at 100,000
/// items), which catches a rescan that re-read changed files. A rename changes none of these: it shows
/// after the server's own `update`, or the next change (the primitive above would close that gap).
public struct StoreChangeFeed: ViewChangeFeed {
    public let store: any LibraryStore

    public init(store: any LibraryStore) { self.store = store }

    public func viewVersion(probingModifications: Bool) throws -> ViewVersion {
        let totals = try store.statistics()
        var newest: Double?
        if probingModifications {
            var query = MediaQuery(sort: [MediaSortDescriptor(.modificationDate, ascending: false)])
            query.limit = 1
            newest = try store.items(query).first?[.modificationDate]?.real ?? 0
        }
        return ViewVersion(generation: try store.currentGeneration(), items: totals.items, duration: totals.totalDuration,
                           size: totals.totalSize, roots: try store.roots(), newestModification: newest)
    }

    public func changes(since version: ViewVersion) throws -> ViewChanges? { nil }
}
