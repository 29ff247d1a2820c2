import MediaModel

// The migration fallback of both stores: a property added to mlib after a library was made gets its column
// (and a searchable one its folded twin) until a named step of its own adds it, so that a library from an
// earlier version stays scannable. Each store reads `items`' columns first (an up-to-date library is not
// written) and adds what only its dialect needs (SQLite: the folded column's index, its full-text index).
extension SQLStore {
    /// Whether `items`, holding the columns `existing`, lacks a column of today's properties.
    package static func lacksPropertyColumns(_ existing: Set<String>) -> Bool {
        ItemRow.stored.contains { !existing.contains($0.rawValue) } || ItemRow.searchable.contains { !existing.contains(ItemRow.foldedColumn($0)) }
    }

    /// Adds the missing columns in the writer's transaction `x`, each with `typeName`'s type; a folded column
    /// is filled from its property row by row, folded in Swift as every write folds it (a one-time upgrade).
    /// Returns the properties whose folded column was added.
    @discardableResult
    package static func addMissingPropertyColumns(_ x: any SQLExecutor, existing: Set<String>,
                                                  typeName: (SQLColumnType) -> String) throws -> [MediaProperty] {
        for p in ItemRow.stored where !existing.contains(p.rawValue) {
            try x.execute("ALTER TABLE items ADD COLUMN \(raw: ItemRow.quoted(p.rawValue)) \(raw: typeName(SQLColumnType(p.spec.type)))")
        }
        let missingFolded = ItemRow.searchable.filter { !existing.contains(ItemRow.foldedColumn($0)) }
        for p in missingFolded {
            let (column, folded) = (ItemRow.quoted(p.rawValue), ItemRow.quoted(ItemRow.foldedColumn(p)))
            try x.execute("ALTER TABLE items ADD COLUMN \(raw: folded) \(raw: typeName(.text))")
            for row in try x.rows("SELECT id, \(raw: column) FROM items WHERE \(raw: column) IS NOT NULL") {
                try x.execute("UPDATE items SET \(raw: folded) = \(row.text(1).map { ItemRow.folded($0, of: p) }) WHERE id = \(row.int64(0))")
            }
        }
        return missingFolded
    }
}
