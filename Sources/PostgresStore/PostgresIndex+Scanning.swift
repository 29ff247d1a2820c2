import Foundation
import PostgresNIO
import MediaIndex
import MediaModel

// The scanner's batched writes on PostgreSQL (the other primitives are `SQLStore`'s, in MediaIndex).
extension PostgresIndex {
    /// Applies a batch of edits in one transaction (`applyBatch`). When the server refuses a value in it (a
    /// NUL in a text, a value too large for an index), the batch is applied again one change at a time and
    /// each refused file is recorded as a failure (code `database`, the server's reason): one file must
    /// neither lose its batch nor stop every later scan of its tree.
    public func apply(_ changes: [ScanChange], generation: Int64? = nil) throws {
        defer { scanFacts.forget() }
        do {
            try applyBatch(changes, generation: generation)
        } catch is PostgresSession.Rejected {
            let adds = changes.contains { if case .add = $0 { true } else { false } }
            let generation = try generation ?? (adds ? newGeneration() : nil)
            for change in changes {
                do { try applyBatch([change], generation: generation) } catch let rejected as PostgresSession.Rejected {
                    switch change {
                    case .add(let item, let stamp, _, _, _, let reader, _, _), .update(_, let item, let stamp, _, _, _, let reader, _):
                        // A path the server cannot index either cannot be recorded: it is read again by the next scan.
                        do {
                            try applyBatch([.fail(item.path, stamp, code: "database", message: "refused by PostgreSQL: " + rejected.reason,
                                                  reader: reader)], generation: generation)
                        } catch is PostgresSession.Rejected {}
                    case .lyrics:
                        break           // text the server refuses (a NUL byte): the file's other values are kept
                    case .move, .fail, .removeFailure:
                        throw IndexError.database(database: libraryName, reason: rejected.reason)
                    }
                }
            }
        }
    }

    /// Applies a batch of edits in one transaction (`applyChanges`): new files as one INSERT … SELECT FROM
    /// unnest (each column one array, `PostgresColumn.swift`; ids in read order; a path already there, left
    /// by a killed scan, is refreshed and keeps its id), changed files as one UPDATE … FROM unnest.
    private func applyBatch(_ changes: [ScanChange], generation: Int64?) throws {
        guard !changes.isEmpty else { return }
        let now = Date()
        let names = ItemRow.scanColumnNames.map(ItemRow.quoted)
        // Rows per statement: one array per column holds them all; this only bounds a message's size.
        let perStatement = 5_000
        try session.transaction(passingRejections: true) { s in
            var addedGeneration: Int64 = 0
            var adds: [[SQLValue]] = [], addedPaths: Set<SQLValue> = []
            var updates: [[SQLValue]] = [], updatedIDs: Set<Int64> = []
            // One typed array per column (`scanColumnTypes`; an update's rows start with the item id).
            func columns(_ rows: ArraySlice<[SQLValue]>, types: [SQLColumnType], into binds: inout PostgresBindings) -> String {
                types.indices.map { c in binds.appendColumn(rows.map { $0[c] }, as: types[c]) }.joined(separator: ", ")
            }
            func flush() throws {
                for start in stride(from: 0, to: adds.count, by: perStatement) {
                    var binds = PostgresBindings()
                    binds.append(host); binds.append(now.timeIntervalSince1970); binds.append(addedGeneration)
                    let arrays = columns(adds[start..<min(start + perStatement, adds.count)], types: ItemRow.scanColumnTypes, into: &binds)
                    _ = try s.send("""
                        INSERT INTO items (host, \(names.joined(separator: ", ")), "dateAdded", added_gen, "playCount", "skipCount")
                        SELECT $1, \(names.map { "b.\($0)" }.joined(separator: ", ")), $2, $3, 0, 0
                        FROM unnest(\(arrays)) WITH ORDINALITY AS b(\(names.joined(separator: ", ")), n) ORDER BY b.n
                        ON CONFLICT (host, path) DO UPDATE SET \(names.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
                        """, binds)
                }
                for start in stride(from: 0, to: updates.count, by: perStatement) {
                    var binds = PostgresBindings()
                    let arrays = columns(updates[start..<min(start + perStatement, updates.count)], types: [.integer] + ItemRow.scanColumnTypes, into: &binds)
                    _ = try s.send("""
                        UPDATE items SET \(names.map { "\($0) = b.\($0)" }.joined(separator: ", "))
                        FROM unnest(\(arrays)) AS b(item_id, \(names.joined(separator: ", ")))
                        WHERE items.id = b.item_id
                        """, binds)
                }
                let paths = (adds.map { $0[0] } + updates.map { $0[1] })    // path: the file's first column
                if !paths.isEmpty {
                    var binds = PostgresBindings()
                    binds.append(host)
                    _ = try s.send("DELETE FROM failures WHERE host = $1 AND path = ANY(\(binds.appendColumn(paths, as: .bytes)))", binds)
                }
                adds = []; addedPaths = []
                updates = []; updatedIDs = []
            }
            try applyChanges(changes, generation: generation, at: now, s) { id, row, generation in
                // A path or an item twice in one batch: the later read wins (one statement cannot touch a row twice).
                if let id {
                    if !updatedIDs.insert(id).inserted { try flush(); updatedIDs.insert(id) }
                    updates.append([.integer(id)] + row)
                } else {
                    if !addedPaths.insert(row[0]).inserted { try flush(); addedPaths.insert(row[0]) }
                    addedGeneration = generation
                    adds.append(row)
                }
            }
            try flush()
            try writeLyrics(changes, s)
            try s.execute(PostgresStoreConnection.notifyWrite)
        }
    }
}
