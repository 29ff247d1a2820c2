import Foundation
import MediaIndex
import MediaModel
import Synchronization

/// An immutable, compact copy of what fronts list, count, browse and filter: every item's path, id,
/// duration, modification time, its schema slots (interned: a cell is a 4-byte value number) and filter
/// properties (interned the same way), the directory tree, and per-slot tables of distinct values.
/// Built off any event loop by `LiveView`; readers hold one snapshot for a whole request, never locked.
///
/// Items are numbered 0..<count in byte order of path. Memory: about 300–500 bytes per item (measured
/// by `Benchmarks/view-bench.sh`), most of it the path and the per-item cells.
public final class LibrarySnapshot: Sendable {
    /// One directory of the tree: the roots and every directory holding an item below them.
    public struct Directory: Sendable {
        public var path: MediaPath
        /// Last path component ("" for a root).
        public var name: String
        /// Subdirectories, by name in mpd's order (`NameCollation`).
        public var children: [Int32]
        /// Items directly in it, in mpd's order (`SongOrder`: album, disc, track, file name).
        public var items: [Int32]
        /// Items at or below it: a contiguous run in path order.
        public var subtree: Range<Int32>
        /// The directory's modification time when the view was built (seconds since 1970), or nil.
        public var modified: Double?
    }

    public let schema: ViewSchema
    public let version: ViewVersion?
    public let roots: [MediaPath]
    public let count: Int

    public let ids: [Int64]
    public let paths: [MediaPath]
    public let durations: [Double]
    /// Seconds since 1970, NaN when unknown.
    public let modified: [Double]
    /// Items in "database order" (a directory's items, then its subdirectories, each in the tree's order), as MPD walks.
    public let walkOrder: [Int32]

    /// count × slots.count value numbers (0: none).
    let slotCells: CellTable
    /// Per slot: its distinct values (index 0 is ""), then the parts of multi-valued ones.
    public let slotValues: [[String]]
    /// Per slot: the parts of a multi-valued value (absent: the value is its one part).
    let slotParts: [[UInt32: [UInt32]]]
    /// Per slot, per value number: whether `slotParts` has it (an array look-up before any hashing).
    let hasParts: [[Bool]]
    /// Per slot: how many distinct values and distinct parts the items have, or -1 where a patch left them
    /// to be counted when asked (`distinct(slot:)`): recounting the changed slot's cells in every patch was
    /// half of a rating's CPU at 1,000,000 items (15 ms), for counts only `stats` shows.
    let distinctValues: [Int]
    let distinctParts: [Int]
    private let recounted = Mutex<[Int: (values: Int, parts: Int)]>([:])

    /// How many distinct values and distinct parts slot `s`'s items have (counted at the first ask after a
    /// patch changed the slot, then kept).
    public func distinct(slot s: Int) -> (values: Int, parts: Int) {
        if distinctValues[s] >= 0 { return (distinctValues[s], distinctParts[s]) }
        if let known = recounted.withLock({ $0[s] }) { return known }
        let counted = Self.distinctCounts(slot: s, cells: slotCells, values: slotValues[s].count, parts: slotParts[s])
        recounted.withLock { $0[s] = counted }
        return counted
    }

    /// count × properties.count value numbers (0: the item has none).
    let propertyCells: CellTable
    /// Per property: its distinct values (index 0 unused).
    let propertyValues: [[MediaValue]]

    let itemByPath: [MediaPath: Int32]
    public let directories: [Directory]
    let directoryByPath: [MediaPath: Int32]
    /// The roots' directories, in the order of `roots`.
    public let rootDirectories: [Int32]

    /// The sum of the items' durations, and of their durations rounded to whole seconds.
    public let totalDuration: Double
    public let totalRoundedDuration: Double

    /// How this snapshot was made from its predecessor when only values of items it already held
    /// changed (`applying` patched it: same items, same numbers, same tree), else nil (built whole).
    /// What fronts derive from a snapshot uses it to redo only the changed items' part (issue 44).
    public let lineage: Lineage?

    // MARK: Reading

    public func item(path: MediaPath) -> Int32? { itemByPath[path] }
    public func directory(path: MediaPath) -> Int32? { directoryByPath[path] }

    /// The value number of `slot` in `item` (0: none).
    @inline(__always) public func cell(_ item: Int32, slot: Int) -> UInt32 {
        slotCells[Int(item), slot]
    }

    /// The printed value of `slot` in `item`, or nil.
    public func value(_ item: Int32, slot: Int) -> String? {
        let v = cell(item, slot: slot)
        return v == 0 ? nil : slotValues[slot][Int(v)]
    }

    /// The value numbers of the parts of value `value` of `slot` (one unless multi-valued).
    @inline(__always) public func parts(_ value: UInt32, slot: Int) -> [UInt32] {
        if hasParts[slot][Int(value)], let parts = slotParts[slot][value] { return parts }
        return [value]
    }

    /// Whether a value of `slot` holds several parts.
    @inline(__always) public func isMultiValued(_ value: UInt32, slot: Int) -> Bool { hasParts[slot][Int(value)] }

    public func string(_ value: UInt32, slot: Int) -> String { slotValues[slot][Int(value)] }

    /// The items whose path starts with `prefix` (bytes): a run in path order.
    public func range(withPrefix prefix: [UInt8]) -> Range<Int32> {
        func lowerBound(_ predicate: ([UInt8]) -> Bool) -> Int32 {
            var low = 0, high = paths.count
            while low < high {
                let mid = (low + high) / 2
                if predicate(paths[mid].bytes) { low = mid + 1 } else { high = mid }
            }
            return Int32(low)
        }
        let start = lowerBound { $0.lexicographicallyPrecedes(prefix) }
        let end = lowerBound { $0.lexicographicallyPrecedes(prefix) || $0.starts(with: prefix) }
        return start..<max(start, end)
    }

    /// Items at or below `directory`, in database order (its items, then each subdirectory's, in the tree's order).
    public func itemsInWalkOrder(under directory: Int32) -> [Int32] {
        var result: [Int32] = []
        result.reserveCapacity(directories[Int(directory)].subtree.count)
        func visit(_ d: Int32) {
            let node = directories[Int(d)]
            result += node.items
            for child in node.children { visit(child) }
        }
        visit(directory)
        return result
    }

    // MARK: Building

    /// Reads the items `forEachItem` streams (any order) into columns; no whole item is kept.
    convenience init(schema: ViewSchema, version: ViewVersion?, roots: [MediaPath],
                     forEachItem: ((MediaItem) -> Void) throws -> Void) rethrows {
        var columns = SnapshotColumns(schema: schema)
        try forEachItem { columns.append($0) }
        self.init(version: version, roots: roots, columns: columns)
    }

    /// The columns in any order, interned: sorts them by path and derives the rest (tree, walk order,
    /// distinct values) from memory.
    init(version: ViewVersion?, roots: [MediaPath], columns: consuming SnapshotColumns) {
        let schema = columns.schema
        self.schema = schema
        self.version = version
        self.roots = roots
        let slotCount = schema.slots.count, propertyCount = schema.properties.count
        var columns = columns
        columns.dropInterningTables()
        let values = columns.values, parts = columns.parts, pValues = columns.pValues
        var cells = columns.cells, pCells = columns.pCells
        let ids = columns.ids, durations = columns.durations, modified = columns.modified
        var paths = columns.paths
        columns = SnapshotColumns(schema: schema)
        // Path order: the permutation applied to every column.
        let order = paths.indices.sorted { paths[$0] < paths[$1] }
        count = order.count
        self.ids = order.map { ids[$0] }
        paths = order.map { paths[$0] }
        self.paths = paths
        self.durations = order.map { durations[$0] }
        self.modified = order.map { modified[$0] }
        let sortedCells = CellTable(width: slotCount, count: count) { cells[order[$0] * slotCount..<(order[$0] + 1) * slotCount] }
        cells = []
        let sortedPCells = CellTable(width: propertyCount, count: count) {
            pCells[order[$0] * propertyCount..<(order[$0] + 1) * propertyCount]
        }
        pCells = []
        var wholeSeen = [Int](repeating: 0, count: slotCount), partSeen = [Int](repeating: 0, count: slotCount)
        for s in 0..<slotCount {
            (wholeSeen[s], partSeen[s]) = Self.distinctCounts(slot: s, cells: sortedCells, values: values[s].count, parts: parts[s])
        }
        slotCells = sortedCells
        slotValues = values
        slotParts = parts
        hasParts = values.indices.map { s in values[s].indices.map { parts[s][UInt32($0)] != nil } }
        totalDuration = self.durations.reduce(0, +)
        totalRoundedDuration = self.durations.reduce(0) { $0 + $1.rounded() }
        distinctValues = wholeSeen
        distinctParts = partSeen
        propertyCells = sortedPCells
        propertyValues = pValues

        var byPath: [MediaPath: Int32] = [:]
        byPath.reserveCapacity(count)
        for (i, path) in paths.enumerated() { byPath[path] = Int32(i) }
        itemByPath = byPath

        // The tree: each root, and every directory between a root and an item below it.
        var directories: [Directory] = []
        var directoryByPath: [MediaPath: Int32] = [:]
        func directory(_ path: MediaPath, isRoot: Bool) -> Int32 {
            if let d = directoryByPath[path] { return d }
            let d = Int32(directories.count)
            directories.append(Directory(path: path, name: isRoot ? "" : path.lastComponent.string, children: [], items: [],
                                         subtree: 0..<0, modified: nil))
            directoryByPath[path] = d
            return d
        }
        var rootDirectories: [Int32] = []
        for root in roots { rootDirectories.append(directory(root, isRoot: true)) }
        let sortedRoots = roots.sorted { $0.bytes.count > $1.bytes.count }   // the deepest root holding an item owns it
        for (i, path) in paths.enumerated() {
            guard let root = sortedRoots.first(where: { path.hasPrefix(directory: $0) }) else { continue }
            var parent = directoryByPath[root]!
            let rootLength = root.bytes.count + (root.bytes.last == UInt8(ascii: "/") ? 0 : 1)
            let components = path.bytes[rootLength...].split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
            var prefix = root
            for component in components.dropLast() {
                prefix = prefix.appending(MediaPath(bytes: Array(component)))
                let known = directoryByPath[prefix] != nil
                let child = directory(prefix, isRoot: false)
                if !known { directories[Int(parent)].children.append(child) }
                parent = child
            }
            directories[Int(parent)].items.append(Int32(i))
        }
        // mpd's order (`Directory::Sort`): subdirectories by name, songs by album, disc, track and file name,
        // names compared as mpd compares them (`NameCollation`).
        let collation = NameCollation.current
        let songOrder = SongOrder(schema: schema, paths: paths, cells: sortedPCells, values: pValues, collation: collation)
        for d in directories.indices {
            let names = directories[d].children.map { directories[Int($0)].name }
            directories[d].children = zip(directories[d].children, names).sorted { collation.areInIncreasingOrder($0.1, $1.1) }.map(\.0)
            directories[d].items = songOrder.sorted(directories[d].items)
            directories[d].modified = Self.modificationTime(directories[d].path)
        }
        // Subtree ranges: items are in path order, so a directory's items are those whose path starts with it.
        func lowerBound(_ bytes: [UInt8]) -> Int32 {
            var low = 0, high = paths.count
            while low < high {
                let mid = (low + high) / 2
                if paths[mid].bytes.lexicographicallyPrecedes(bytes) { low = mid + 1 } else { high = mid }
            }
            return Int32(low)
        }
        for d in directories.indices {
            let bytes = directories[d].path.bytes
            let prefix = bytes.last == UInt8(ascii: "/") ? bytes : bytes + [UInt8(ascii: "/")]
            var upper = prefix
            upper[upper.count - 1] += 1   // "/" + 1 = "0": the first path past the prefix
            directories[d].subtree = lowerBound(prefix)..<lowerBound(upper)
        }
        self.directories = directories
        self.directoryByPath = directoryByPath
        self.rootDirectories = rootDirectories

        walkOrder = Self.walkOrder(directories: directories, roots: rootDirectories, count: count) ?? Self.walkOrder(sorting: paths)
        lineage = nil
    }

    /// `base` with `patch`'s columns: the items, their numbers, paths and ids, and the tree's shape are
    /// `base`'s (shared, not copied).
    init(patching base: LibrarySnapshot, with patch: SnapshotPatch, version: ViewVersion?) {
        schema = base.schema
        self.version = version
        roots = base.roots
        count = base.count
        ids = base.ids
        paths = base.paths
        durations = patch.durations
        modified = patch.modified
        walkOrder = patch.walkOrder
        slotCells = patch.slotCells
        slotValues = patch.slotValues
        slotParts = patch.slotParts
        hasParts = patch.hasParts
        distinctValues = patch.distinctValues
        distinctParts = patch.distinctParts
        propertyCells = patch.propertyCells
        propertyValues = patch.propertyValues
        itemByPath = base.itemByPath
        directories = patch.directories
        directoryByPath = base.directoryByPath
        rootDirectories = base.rootDirectories
        totalDuration = patch.totalDuration
        totalRoundedDuration = patch.totalRoundedDuration
        lineage = patch.lineage(of: base)
    }

    /// Database order read off the tree: each root's items, then its subdirectories', in the tree's (mpd's)
    /// order, the roots in the order of their paths' components, when the roots nest in none of each other
    /// and hold every item (else nil: then `walkOrder(sorting:)` orders by the paths' bytes, not mpd's order).
    static func walkOrder(directories: [Directory], roots: [Int32], count: Int) -> [Int32]? {
        let rootPaths = roots.map { directories[Int($0)].path }
        for a in rootPaths where rootPaths.contains(where: { $0 != a && a.hasPrefix(directory: $0) }) { return nil }
        let components = rootPaths.map { $0.bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) }
        let ordered = roots.indices.sorted { a, b in
            let x = components[a], y = components[b]
            for i in 0..<min(x.count, y.count) where x[i] != y[i] { return x[i].lexicographicallyPrecedes(y[i]) }
            return x.count < y.count
        }
        var result: [Int32] = []
        result.reserveCapacity(count)
        func visit(_ d: Int32) {
            let node = directories[Int(d)]
            result += node.items
            for child in node.children { visit(child) }
        }
        for r in ordered { visit(roots[r]) }
        return result.count == count ? result : nil
    }

    /// How many distinct values and distinct parts slot `s`'s cells hold: a flag per value number (a Set
    /// insert per item and slot cost more than the rest of a refresh's derivation at 100,000 items).
    static func distinctCounts(slot s: Int, cells: CellTable, values: Int, parts: [UInt32: [UInt32]]) -> (values: Int, parts: Int) {
        var whole = [Bool](repeating: false, count: values), part = whole
        var wholeSeen = 0, partSeen = 0
        cells.forEach(inColumn: s) { n in
            guard n != 0, !whole[Int(n)] else { return }
            whole[Int(n)] = true
            wholeSeen += 1
            for p in parts[n] ?? [n] where !part[Int(p)] {
                part[Int(p)] = true
                partSeen += 1
            }
        }
        return (wholeSeen, partSeen)
    }

    /// Database order by sorting the paths by components (a file before a directory at the same level), by
    /// their bytes: the fallback for nested roots, where the tree cannot give it.
    static func walkOrder(sorting paths: [MediaPath]) -> [Int32] {
        var walk = Array(0..<Int32(paths.count))
        let splitPaths = paths.map { $0.bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) }
        walk.sort { a, b in
            let x = splitPaths[Int(a)], y = splitPaths[Int(b)]
            for i in 0..<min(x.count, y.count) where x[i] != y[i] {
                let xIsFile = i == x.count - 1, yIsFile = i == y.count - 1
                if xIsFile != yIsFile { return xIsFile }
                return x[i].lexicographicallyPrecedes(y[i])
            }
            return x.count < y.count
        }
        return walk
    }

    /// A directory's modification time by stat(2) on its bytes (FileManager's attributes cost ~10 times as
    /// much: a URL and a dictionary per directory), or nil.
    private static func modificationTime(_ path: MediaPath) -> Double? {
        var info = stat()
        let found = (path.bytes + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &info) == 0 }
        }
        return found ? Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9 : nil
    }

    /// This snapshot with `changes` applied, from memory (the store is not read). Writes to items it holds
    /// under the same paths patch their cells (`SnapshotPatch`: the tree and path order are shared, and
    /// `lineage` says what changed); otherwise the items of `changes.removed` and `changes.upserted` leave,
    /// the upserted come back as they are now, and the tree, the walk order and the distinct values are
    /// derived again from the columns.
    public func applying(_ changes: ViewChanges, version: ViewVersion?) -> LibrarySnapshot {
        if let patch = SnapshotPatch(self, changes, roots: version?.roots ?? roots) {
            return LibrarySnapshot(patching: self, with: patch, version: version)
        }
        var leaving = Set(changes.removed)
        for item in changes.upserted { leaving.insert(item.persistentID) }
        var columns = SnapshotColumns(keeping: self, except: leaving, adding: changes.upserted.count)
        for item in changes.upserted { columns.append(item) }
        return LibrarySnapshot(version: version, roots: version?.roots ?? roots, columns: columns)
    }

    /// Reads every item of `store` (streamed) into a new snapshot.
    public static func build(from store: any LibraryStore, schema: ViewSchema, version: ViewVersion?) throws -> LibrarySnapshot {
        try LibrarySnapshot(schema: schema, version: version, roots: version?.roots ?? store.roots()) { body in
            try forEachItem(of: store, readBy: schema) { body($0) }
        }
    }

    /// Streams every item of `store` holding what `schema`'s view reads (`ViewSchema.projection`: only
    /// those columns are read and decoded, the raw tag map only when a slot reads it), or whole items when
    /// a slot does not say what it reads. In id order, the store's cheapest: the snapshot sorts by path
    /// itself, and the default title order cost PostgreSQL a sort and a join per row at 1,000,000 items.
    static func forEachItem(of store: any LibraryStore, readBy schema: ViewSchema, _ body: (MediaItem) throws -> Void) throws {
        let all = MediaQuery(sort: [SortDescriptor(.persistentID)])
        guard let projection = schema.projection else { return try store.forEachItem(all, body) }
        try store.forEachItem(all, reading: projection.properties, tags: projection.tags, body)
    }
}
