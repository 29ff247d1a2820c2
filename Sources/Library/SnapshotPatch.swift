import Foundation
import MediaModel

/// How a snapshot was made from its predecessor by a patch (`LibrarySnapshot.lineage`): the same items,
/// numbered the same, under the same tree; only some items' values changed. Fronts that derive structures
/// from a snapshot (the API server's catalog, the MPD server's song blocks) redo only these items' part,
/// or nothing when no slot they derive from changed: a rating or a play costs microseconds, not a rebuild.
public struct Lineage: Sendable {
    /// The snapshot this one was patched from. Compared by identity (`follows`): only meaningful while the
    /// caller holds that snapshot, as a front holding what it derived from it does.
    public let previous: ObjectIdentifier
    /// The items holding another value now (in any slot, filter property, duration or modification time),
    /// by number (the same in both snapshots), ascending.
    public let items: [Int32]
    /// Per slot of the schema: whether one of `items` holds another value in it.
    public let changedSlots: [Bool]
    /// Per filter property of the schema: whether one of `items` holds another value in it.
    public let changedProperties: [Bool]
    /// Whether one of `items` has another modification time.
    public let modifiedChanged: Bool
    /// Whether one of `items` has another duration (totals and album lengths follow it).
    public let durationsChanged: Bool
    /// Whether the songs of a directory are in another order (album, disc or track changed), and so `walkOrder`.
    public let orderChanged: Bool

    /// Whether this lineage leads from `snapshot`.
    public func follows(_ snapshot: LibrarySnapshot) -> Bool { previous == ObjectIdentifier(snapshot) }

    /// Whether any slot of `slots` changed.
    public func changedAny(of slots: some Sequence<Int>) -> Bool { slots.contains { changedSlots[$0] } }

    /// Whether a front that reads `slots` and `properties` (and every item's duration, modification time and
    /// place in the tree's order) sees any change: a rating or a play touches only the fronts that show it.
    public func touches(slots: some Sequence<Int>, properties: some Sequence<Int>) -> Bool {
        durationsChanged || modifiedChanged || orderChanged || changedAny(of: slots) || properties.contains { changedProperties[$0] }
    }
}

/// A snapshot's columns with a few items' values replaced, for `LibrarySnapshot.applying` when every
/// change is a write to an item the snapshot already holds under the same path: nothing moves, so the
/// path order, the tree, the path index and the ids are shared with the old snapshot instead of derived
/// again (a whole derivation sorts every path and reads every directory's modification time).
struct SnapshotPatch {
    /// More written items than this and the snapshot is derived whole: a new value is looked up in its
    /// slot's table by a linear search (the interning tables are not kept in a snapshot: memory).
    static let limit = 256

    var durations: [Double]
    var modified: [Double]
    var walkOrder: [Int32]
    var slotCells: CellTable
    var slotValues: [[String]]
    var slotParts: [[UInt32: [UInt32]]]
    var hasParts: [[Bool]]
    var distinctValues: [Int]
    var distinctParts: [Int]
    var propertyCells: CellTable
    var propertyValues: [[MediaValue]]
    var directories: [LibrarySnapshot.Directory]
    var totalDuration: Double
    var totalRoundedDuration: Double
    private var items: Set<Int32> = []
    private var changedSlots: [Bool]
    private var changedProperties: [Bool]
    private var modifiedChanged = false
    private var durationsChanged = false
    private var orderChanged = false

    /// Nil when `changes` is not such a patch: an item removed, added or moved, other roots, or too many.
    init?(_ base: LibrarySnapshot, _ changes: ViewChanges, roots: [MediaPath]) {
        guard roots == base.roots, changes.removed.isEmpty, changes.upserted.count <= Self.limit else { return nil }
        var rows: [Int32] = []
        for item in changes.upserted {
            guard let row = base.item(path: item.path), base.ids[Int(row)] == item.persistentID else { return nil }
            rows.append(row)
        }
        let schema = base.schema
        durations = base.durations
        modified = base.modified
        walkOrder = base.walkOrder
        slotCells = base.slotCells
        slotValues = base.slotValues
        slotParts = base.slotParts
        hasParts = base.hasParts
        distinctValues = base.distinctValues
        distinctParts = base.distinctParts
        propertyCells = base.propertyCells
        propertyValues = base.propertyValues
        directories = base.directories
        totalDuration = base.totalDuration
        totalRoundedDuration = base.totalRoundedDuration
        changedSlots = Array(repeating: false, count: schema.slots.count)
        changedProperties = Array(repeating: false, count: schema.properties.count)

        // The properties songs are ordered by in a directory (`SongOrder`).
        let orderProperties = Set([MediaProperty.albumTitle, .discNumber, .albumTrackNumber].compactMap(schema.properties.firstIndex(of:)))
        var resort: Set<Int32> = []
        for (item, row) in zip(changes.upserted, rows) {
            let r = Int(row)
            var differs = false
            for (s, slot) in schema.slots.enumerated() {
                let now = slot.value(item)
                let cell = slotCells[r, s]
                guard (cell == 0 ? nil : slotValues[s][Int(cell)]) != now else { continue }
                slotCells[r, s] = now.map { intern($0, slot: s, multiValued: slot.multiValued) } ?? 0
                changedSlots[s] = true
                differs = true
            }
            for (p, property) in schema.properties.enumerated() {
                let now = item[property]
                let cell = propertyCells[r, p]
                guard (cell == 0 ? nil : propertyValues[p][Int(cell)]) != now else { continue }
                propertyCells[r, p] = now.map { intern($0, property: p) } ?? 0
                changedProperties[p] = true
                differs = true
                if orderProperties.contains(p), let directory = Self.directory(of: base.paths[r], in: base) { resort.insert(directory) }
            }
            let duration = item.playbackDuration, time = item[.modificationDate]?.real ?? .nan
            if !Self.same(durations[r], duration) {
                durations[r] = duration
                durationsChanged = true
                differs = true
            }
            if !Self.same(modified[r], time) {
                modified[r] = time
                modifiedChanged = true
                differs = true
            }
            if differs { items.insert(row) }
        }
        // Counted when asked (`LibrarySnapshot.distinct(slot:)`), not here: a pass over every item's cell.
        for s in changedSlots.indices where changedSlots[s] { (distinctValues[s], distinctParts[s]) = (-1, -1) }
        if durationsChanged {
            totalDuration = durations.reduce(0, +)
            totalRoundedDuration = durations.reduce(0) { $0 + $1.rounded() }
        }
        if !resort.isEmpty {
            let order = SongOrder(schema: schema, paths: base.paths, cells: propertyCells, values: propertyValues, collation: .current)
            for d in resort {
                let sorted = order.sorted(directories[Int(d)].items)
                if sorted != directories[Int(d)].items {
                    directories[Int(d)].items = sorted
                    orderChanged = true
                }
            }
            if orderChanged {
                walkOrder = LibrarySnapshot.walkOrder(directories: directories, roots: base.rootDirectories, count: base.count)
                    ?? LibrarySnapshot.walkOrder(sorting: base.paths)
            }
        }
    }

    func lineage(of base: LibrarySnapshot) -> Lineage {
        Lineage(previous: ObjectIdentifier(base), items: items.sorted(), changedSlots: changedSlots, changedProperties: changedProperties,
                modifiedChanged: modifiedChanged, durationsChanged: durationsChanged, orderChanged: orderChanged)
    }

    /// `value`'s number in slot `s`, appended to the slot's table when new (with its parts, when it holds
    /// several: as `SnapshotColumns.append` numbers them).
    private mutating func intern(_ value: String, slot s: Int, multiValued: Bool) -> UInt32 {
        if let known = slotValues[s].indices.dropFirst().first(where: { slotValues[s][$0] == value }) { return UInt32(known) }
        let n = UInt32(slotValues[s].count)
        slotValues[s].append(value)
        hasParts[s].append(false)
        if multiValued, value.utf8.contains(UInt8(ascii: ";")) {
            let split = MediaProperty.splitValues(value).filter { !$0.isEmpty }
            if split != [value] {
                slotParts[s][n] = split.map { intern($0, slot: s, multiValued: false) }
                hasParts[s][Int(n)] = true
            }
        }
        return n
    }

    private mutating func intern(_ value: MediaValue, property p: Int) -> UInt32 {
        if let known = propertyValues[p].indices.dropFirst().first(where: { propertyValues[p][$0] == value }) { return UInt32(known) }
        propertyValues[p].append(value)
        return UInt32(propertyValues[p].count - 1)
    }

    /// The directory directly holding the item at `path`.
    private static func directory(of path: MediaPath, in base: LibrarySnapshot) -> Int32? {
        guard let slash = path.bytes.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        return base.directory(path: MediaPath(bytes: Array(path.bytes[..<max(slash, 1)])))
    }

    private static func same(_ a: Double, _ b: Double) -> Bool { a == b || (a.isNaN && b.isNaN) }
}
