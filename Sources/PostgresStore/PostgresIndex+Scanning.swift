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
        do {
            try applyBatch(changes, generation: generation)
        } catch is PostgresSession.Rejected {
            let adds = changes.contains { if case .add = $0 { true } else { false } }
            let generation = try generation ?? (adds ? newGeneration() : nil)
            for change in changes {
                do { try applyBatch([change], generation: generation) } catch let rejected as PostgresSession.Rejected {
                    switch change {
                    case .add(let item, let stamp, _, _, _, let reader), .update(_, let item, let stamp, _, _, _, let reader):
                        // A path the server cannot index either cannot be recorded: it is read again by the next scan.
                        do {
                            try applyBatch([.fail(item.path, stamp, code: "database", message: "refused by PostgreSQL: " + rejected.reason,
                                                  reader: reader)], generation: generation)
                        } catch is PostgresSession.Rejected {}
                    case .move, .fail, .removeFailure:
                        throw IndexError.database(database: libraryName, reason: rejected.reason)
                    }
                }
            }
        }
    }

    /// Applies a batch of edits in one transaction: new files as one INSERT … SELECT FROM unnest (each
    /// column one array, `PostgresColumn.swift`; ids in read order; a path already there, left by a killed
    /// scan, is refreshed and keeps its id), changed files as one UPDATE … FROM unnest, the rest one
    /// statement each.
    private func applyBatch(_ changes: [ScanChange], generation: Int64?) throws {
        guard !changes.isEmpty else { return }
        let now = Date().timeIntervalSince1970
        let names = ItemRow.scanColumnNames.map(ItemRow.quoted)
        // Rows per statement: one array per column holds them all; this only bounds a message's size.
        let perStatement = 5_000
        try session.transaction(passingRejections: true) { s in
            var addedGeneration = generation
            var adds: [[SQLValue]] = [], addedPaths: Set<MediaPath> = []
            var updates: [[SQLValue]] = [], updatedIDs: Set<Int64> = []
            // One typed array per column (`scanColumnTypes`; an update's rows start with the item id).
            func columns(_ rows: ArraySlice<[SQLValue]>, types: [SQLColumnType], into q: inout SQLText) -> String {
                types.indices.map { c in q.bindColumn(rows.map { $0[c] }, as: types[c]) }.joined(separator: ", ")
            }
            func flush() throws {
                for start in stride(from: 0, to: adds.count, by: perStatement) {
                    var q = SQLText()
                    let h = q.bind(host), d = q.bind(now), g = q.bind(addedGeneration ?? 0)
                    let arrays = columns(adds[start..<min(start + perStatement, adds.count)], types: ItemRow.scanColumnTypes, into: &q)
                    q.sql = """
                        INSERT INTO items (host, \(names.joined(separator: ", ")), "dateAdded", added_gen, "playCount", "skipCount")
                        SELECT \(h), \(names.map { "b.\($0)" }.joined(separator: ", ")), \(d), \(g), 0, 0
                        FROM unnest(\(arrays)) WITH ORDINALITY AS b(\(names.joined(separator: ", ")), n) ORDER BY b.n
                        ON CONFLICT (host, path) DO UPDATE SET \(names.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
                        """
                    try s.execute(q)
                }
                for start in stride(from: 0, to: updates.count, by: perStatement) {
                    var q = SQLText()
                    let arrays = columns(updates[start..<min(start + perStatement, updates.count)], types: [.integer] + ItemRow.scanColumnTypes, into: &q)
                    q.sql = """
                        UPDATE items SET \(names.map { "\($0) = b.\($0)" }.joined(separator: ", "))
                        FROM unnest(\(arrays)) AS b(item_id, \(names.joined(separator: ", ")))
                        WHERE items.id = b.item_id
                        """
                    try s.execute(q)
                }
                let paths = (adds.map { $0[0] } + updates.map { $0[1] })    // path: the file's first column
                    .compactMap { value -> Data? in if case .bytes(let path) = value { Data(path) } else { nil } }
                if !paths.isEmpty {
                    var d = SQLText()
                    d.sql = "DELETE FROM failures WHERE host = \(d.bind(host)) AND path = ANY(\(d.bind(paths)))"
                    try s.execute(d)
                }
                adds = []; addedPaths = []
                updates = []; updatedIDs = []
            }
            for change in changes {
                switch change {
                case .add(let item, let stamp, let fingerprint, let device, let ends, let reader):
                    if addedGeneration == nil { addedGeneration = try SQLStore.bumpGeneration(PostgresStoreConnection.Executor(statements: s, inTransaction: true)) }
                    // A path twice in one batch: the later read wins (one INSERT cannot touch a row twice).
                    if addedPaths.contains(item.path) { try flush() }
                    addedPaths.insert(item.path)
                    adds.append(ItemRow.scanRowValues(item, stamp, fingerprint, device, ends, reader))
                case .update(let id, let item, let stamp, let fingerprint, let device, let ends, let reader):
                    if updatedIDs.contains(id) { try flush() }
                    updatedIDs.insert(id)
                    updates.append([.integer(id)] + ItemRow.scanRowValues(item, stamp, fingerprint, device, ends, reader))
                case .move(let id, let path):
                    try flush()
                    try applyMove(PostgresStoreConnection.Executor(statements: s, inTransaction: true), id: id, to: path)
                case .fail(let path, let stamp, let code, let message, let reader):
                    try flush()
                    try applyFailure(PostgresStoreConnection.Executor(statements: s, inTransaction: true), path, stamp, code: code, message: message,
                                     reader: reader, at: Date(timeIntervalSince1970: now))
                case .removeFailure(let path):
                    try flush()
                    try deleteFailure(PostgresStoreConnection.Executor(statements: s, inTransaction: true), path)
                }
            }
            try flush()
        }
    }
}
