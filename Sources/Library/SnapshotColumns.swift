import MediaIndex
import MediaModel

/// A `LibrarySnapshot` being built: its per-item columns in arrival order, each slot's and filter
/// property's values interned (a cell is a value number). Filled from the store (a build) or from a
/// snapshot's own columns less the items that changed, plus those items as the store has them now (a
/// refresh: `LibrarySnapshot.applying`), then sorted and derived by `LibrarySnapshot.init(version:roots:columns:)`.
struct SnapshotColumns {
    let schema: ViewSchema
    var ids: [Int64] = []
    var paths: [MediaPath] = []
    var durations: [Double] = []
    var modified: [Double] = []
    /// count × slots.count value numbers (0: none).
    var cells: [UInt32] = []
    /// count × properties.count value numbers (0: none).
    var pCells: [UInt32] = []
    var values: [[String]]
    var parts: [[UInt32: [UInt32]]]
    var pValues: [[MediaValue]]
    /// The interning tables: built while items are appended, dropped before the snapshot is derived. Nil:
    /// not built yet (a refresh builds a table from the values when an appended item first needs it).
    private var numbers: [[String: UInt32]?]
    private var pNumbers: [[MediaValue: UInt32]?]
    /// Per slot and per filter property, the last value appended and its number: items come in runs that
    /// share an artist, an album, a genre, a year, a format (a store's rows in path order), and a compare
    /// with the last value costs less than hashing it into the table (69 slots a million times in
    /// `mlib serve`'s view at a million songs).
    private var lastValues: [(String, UInt32)?]
    private var lastPValues: [(MediaValue, UInt32)?]

    init(schema: ViewSchema) {
        self.schema = schema
        values = [[String]](repeating: [""], count: schema.slots.count)
        parts = [[UInt32: [UInt32]]](repeating: [:], count: schema.slots.count)
        numbers = [[String: UInt32]?](repeating: [:], count: schema.slots.count)
        pValues = [[MediaValue]](repeating: [.integer(0)], count: schema.properties.count)
        pNumbers = [[MediaValue: UInt32]?](repeating: [:], count: schema.properties.count)
        lastValues = Array(repeating: nil, count: schema.slots.count)
        lastPValues = Array(repeating: nil, count: schema.properties.count)
    }

    /// `snapshot`'s items, less those whose id is in `leaving`, with its value tables (values no item
    /// holds any more stay, unused, until a table is mostly such: then it is renumbered). Room is made for
    /// `adding` more items (appending past the capacity would copy every column once more).
    init(keeping snapshot: LibrarySnapshot, except leaving: Set<Int64>, adding: Int = 0) {
        schema = snapshot.schema
        let slotCount = schema.slots.count, propertyCount = schema.properties.count
        values = snapshot.slotValues
        parts = snapshot.slotParts
        pValues = snapshot.propertyValues
        let kept = snapshot.ids.indices.filter { !leaving.contains(snapshot.ids[$0]) }
        let capacity = kept.count + adding
        ids.reserveCapacity(capacity)
        paths.reserveCapacity(capacity)
        durations.reserveCapacity(capacity)
        modified.reserveCapacity(capacity)
        for i in kept {
            ids.append(snapshot.ids[i])
            paths.append(snapshot.paths[i])
            durations.append(snapshot.durations[i])
            modified.append(snapshot.modified[i])
        }
        cells.reserveCapacity(capacity * slotCount)
        pCells.reserveCapacity(capacity * propertyCount)
        for i in kept {
            cells += snapshot.slotCells.row(i)
            pCells += snapshot.propertyCells.row(i)
        }
        numbers = [[String: UInt32]?](repeating: nil, count: slotCount)
        pNumbers = [[MediaValue: UInt32]?](repeating: nil, count: propertyCount)
        lastValues = Array(repeating: nil, count: slotCount)
        lastPValues = Array(repeating: nil, count: propertyCount)
        for s in 0..<slotCount where values[s].count > 1_024 {
            let distinct = snapshot.distinct(slot: s)
            if values[s].count > 2 * (distinct.values + distinct.parts) + 1_024 { compactSlot(s) }
        }
    }

    /// A value table's numbers by value. Number 0 is "none" (its "" is never looked up): from 1.
    private static func numbering<Value: Hashable>(_ table: [Value]) -> [Value: UInt32] {
        var numbers = [Value: UInt32](minimumCapacity: table.count)
        for n in 1..<table.count where numbers[table[n]] == nil { numbers[table[n]] = UInt32(n) }
        return numbers
    }

    /// Renumbers slot `s`'s values to those the items hold (and their parts), in their old order.
    private mutating func compactSlot(_ s: Int) {
        let slotCount = schema.slots.count
        var used = [Bool](repeating: false, count: values[s].count)
        for i in stride(from: s, to: cells.count, by: slotCount) where cells[i] != 0 {
            used[Int(cells[i])] = true
            for p in parts[s][cells[i]] ?? [] { used[Int(p)] = true }
        }
        var renumbered = [UInt32](repeating: 0, count: values[s].count)
        var table = [""]
        for n in 1..<values[s].count where used[n] {
            renumbered[n] = UInt32(table.count)
            table.append(values[s][n])
        }
        for i in stride(from: s, to: cells.count, by: slotCount) { cells[i] = renumbered[Int(cells[i])] }
        var newParts: [UInt32: [UInt32]] = [:]
        for (value, split) in parts[s] where used[Int(value)] { newParts[renumbered[Int(value)]] = split.map { renumbered[Int($0)] } }
        values[s] = table
        parts[s] = newParts
    }

    private mutating func intern(_ s: String, _ slot: Int) -> UInt32 {
        if numbers[slot] == nil { numbers[slot] = Self.numbering(values[slot]) }
        if let n = numbers[slot]![s] { return n }
        let n = UInt32(values[slot].count)
        values[slot].append(s)
        numbers[slot]![s] = n
        return n
    }

    mutating func append(_ item: MediaItem) {
        ids.append(item.persistentID)
        paths.append(item.path)
        durations.append(item.playbackDuration)
        modified.append(item[.modificationDate]?.real ?? .nan)
        for (s, slot) in schema.slots.enumerated() {
            guard let v = slot.value(item) else { cells.append(0); continue }
            // The last value again: its number, and its parts (split when it first came).
            if let (last, n) = lastValues[s], last == v {
                cells.append(n)
                continue
            }
            let n = intern(v, s)
            cells.append(n)
            lastValues[s] = (v, n)
            if slot.multiValued, v.utf8.contains(UInt8(ascii: ";")), parts[s][n] == nil {
                let split = MediaProperty.splitValues(v).filter { !$0.isEmpty }
                if split != [v] { parts[s][n] = split.map { intern($0, s) } }
            }
        }
        for (p, property) in schema.properties.enumerated() {
            guard let v = item[property] else { pCells.append(0); continue }
            if let (last, n) = lastPValues[p], last == v {
                pCells.append(n)
                continue
            }
            if pNumbers[p] == nil { pNumbers[p] = Self.numbering(pValues[p]) }
            let n: UInt32
            if let known = pNumbers[p]![v] {
                n = known
            } else {
                n = UInt32(pValues[p].count)
                pValues[p].append(v)
                pNumbers[p]![v] = n
            }
            pCells.append(n)
            lastPValues[p] = (v, n)
        }
    }

    /// Frees the interning tables (the snapshot keeps only the value tables).
    mutating func dropInterningTables() {
        numbers = []
        pNumbers = []
        lastValues = []
        lastPValues = []
    }
}
