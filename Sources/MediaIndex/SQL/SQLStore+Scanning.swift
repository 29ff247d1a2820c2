import Foundation
import MediaModel

// The scanner's primitives (`ScanStore`): per-directory state, look-ups by inode, move candidates, folding a
// moved row into the item it was, removal, and generations. Which of them to call, and when, is the
// scanner's policy (MediaScanner's `Moves`), not the store's. Each reads and writes this host's rows only.
// The batched writes of read files (`apply`) are each dialect's own: they are the scan's hot path.
extension SQLStore {
    // MARK: Reading state

    /// The state of one directory. On the scan's reader (`readAhead`), the states of the directories from
    /// this one onwards in byte order come in the same statement, `rowsPerRead` rows at a time.
    public func directoryState(_ directory: MediaPath) throws -> DirectoryState {
        guard let readAhead, !readAhead.wasHandedOut(directory) else { return try directoryStates(directory).states[directory.bytes] ?? DirectoryState() }
        if let state = readAhead.take(directory) { return state }
        let limit = readAhead.rowsPerRead
        let read = try directoryStates(directory, onwards: limit)
        if read.rows < limit {
            readAhead.add(read.states, from: directory.bytes, upTo: nil)
        } else if let last = read.last, last != directory.bytes {
            var states = read.states
            states[last] = nil                              // the last directory may go on past the limit
            readAhead.add(states, from: directory.bytes, upTo: last)
        } else {
            return try directoryStates(directory).states[directory.bytes] ?? DirectoryState()    // one huge directory
        }
        return readAhead.take(directory) ?? DirectoryState()
    }

    /// This host's items and failures in `directory` or, with `onwards`, in the directories from it on in
    /// byte order, at most `onwards` rows (the last directory may be cut): one statement, items and failures
    /// told apart by the second column. Returns the states, the rows read and the last directory.
    private func directoryStates(_ directory: MediaPath, onwards limit: Int? = nil)
        throws -> (states: [[UInt8]: DirectoryState], rows: Int, last: [UInt8]?) {
        let match: SQLStatement = limit == nil ? "dir = \(directory)" : "dir >= \(directory)"
        var sql: SQLStatement = """
            SELECT dir, 1, id, path, "fileSize", scan_mtime, scan_inode, fingerprint, missing_gen IS NOT NULL, added_gen,
                CAST(NULL AS TEXT), COALESCE(reader_version, 0)
            FROM items WHERE \(mine()) AND \(match)
            UNION ALL
            SELECT dir, 0, NULL, path, size, mtime, inode, NULL, NULL, NULL, code, COALESCE(reader_version, 0)
            FROM failures WHERE \(mine()) AND \(match)
            """
        if let limit { sql += " ORDER BY 1 LIMIT \(limit)" }
        // Called once per directory: no snapshot around one statement.
        return try connection.readEach { x in
            var states: [[UInt8]: DirectoryState] = [:]
            var rows = 0
            var last: [UInt8]?
            for row in try x.rows(sql) {      // at most `limit` rows: one round trip
                let dir = row[0].bytes ?? []
                let path = row.path(3) ?? MediaPath(bytes: [])
                let stamp = FileStamp(size: row.int64(4) ?? -1, mtimeNanoseconds: row.int64(5) ?? -1, inode: row.int64(6) ?? -1)
                let readerVersion = row.int(11) ?? 0
                if row.int64(1) == 1 {
                    states[dir, default: DirectoryState()].items[path] = .init(
                        id: row.int64(2) ?? 0, stamp: stamp, fingerprint: row.int64(7), missing: row.bool(8) ?? false,
                        addedGeneration: row.int64(9) ?? 0, readerVersion: readerVersion)
                } else {
                    states[dir, default: DirectoryState()].failures[path] = stamp
                    states[dir, default: DirectoryState()].failureCodes[path] = row.text(10)
                    states[dir, default: DirectoryState()].failureReaderVersions[path] = readerVersion
                }
                rows += 1
                last = dir
            }
            return (states, rows, last)
        }
    }

    /// Every directory holding items or failures under `root` (root included), in byte order.
    public func indexedDirectories(under root: MediaPath) throws -> [MediaPath] {
        // The scan's reader read them already when its read-ahead covered the whole root (issue 38: a round trip).
        if let known = readAhead?.directories(under: root) { return known }
        return try read { x in
            try x.rows("""
                SELECT dir FROM items WHERE \(mine()) AND \(under(root))
                UNION SELECT dir FROM failures WHERE \(mine()) AND \(under(root)) ORDER BY 1
                """).compactMap { $0.path(0) }
        }
    }

    /// Number of items under `root` (for a progress estimate).
    public func itemCount(under root: MediaPath) throws -> Int {
        try read { x in try x.value("SELECT count(*) FROM items WHERE \(mine()) AND \(under(root))").integer.map(Int.init) ?? 0 }
    }

    /// Items and failures under `root` recorded by a reader older than `readerVersion` (a scan reads them again).
    public func itemCount(under root: MediaPath, readBefore readerVersion: Int) throws -> Int {
        // Every file of this host read by this reader or a newer one (the usual case): none to count.
        if let facts = try rememberedScanFacts(), facts.oldestReader >= readerVersion { return 0 }
        return try read { x in
            try x.value("""
                SELECT (SELECT count(*) FROM items WHERE \(mine()) AND \(under(root)) AND COALESCE(reader_version, 0) < \(readerVersion))
                    + (SELECT count(*) FROM failures WHERE \(mine()) AND \(under(root)) AND COALESCE(reader_version, 0) < \(readerVersion))
                """).integer.map(Int.init) ?? 0
        }
    }

    /// Items whose recorded inode is one of `inodes` (a file found at an unknown path may be one of them renamed).
    public func items(withInodes inodes: [Int64]) throws -> [Int64: [InodeMatch]] {
        guard !inodes.isEmpty else { return [:] }
        return try connection.readEach { x in
            var matches: [Int64: [InodeMatch]] = [:]
            for row in try x.rows("""
                SELECT id, path, "fileSize", scan_mtime, scan_inode, scan_device FROM items
                WHERE \(mine()) AND \(syntax.isIn("scan_inode", .integers(inodes)))
                """) {
                let inode = row.int64(4) ?? -1
                matches[inode, default: []].append(InodeMatch(
                    id: row.int64(0) ?? 0, path: row.path(1) ?? MediaPath(bytes: []),
                    stamp: FileStamp(size: row.int64(2) ?? -1, mtimeNanoseconds: row.int64(3) ?? -1, inode: inode),
                    device: row.int64(5)))
            }
            return matches
        }
    }

    /// Whether this host has no item at all (a first scan has nothing to look up).
    public func isEmpty() throws -> Bool {
        if let facts = try rememberedScanFacts() { return !facts.hasItems }
        return try read { x in try x.row("SELECT 1 FROM items WHERE \(mine()) LIMIT 1") == nil }
    }

    // MARK: Generations (one counter for the library: concurrent scans each get their own)

    /// The newest generation handed out so far.
    public func currentGeneration() throws -> Int64 {
        try read { x in try x.value("SELECT value FROM scan_state WHERE key = 'generation'").integer ?? 0 }
    }

    /// Hands out the next generation: the rows a scan adds carry it. Called by a scan when it first adds a
    /// row, so that a scan that adds nothing writes nothing.
    public func newGeneration() throws -> Int64 {
        try write { x in try Self.bumpGeneration(x) }
    }

    package static func bumpGeneration(_ x: any SQLExecutor) throws -> Int64 {
        try x.value("UPDATE scan_state SET value = value + 1 WHERE key = 'generation' RETURNING value").integer ?? 0
    }

    // MARK: Writing a batch

    /// A scan batch's changes, inside the writer's transaction `x`, as both stores apply them: moves and
    /// failures at once, in order; each read file handed to `stage` (its `ItemRow.scanRowValues`, the id of a
    /// changed file or nil for a new one, and the generation a new row carries: `generation`, else a new one
    /// at the first new file) for the store to write together after the loop, its own way (SQLite through a
    /// temporary table, PostgreSQL as arrays). Staged rows go in last, so a path a move frees is free for them.
    package func applyChanges(_ changes: [ScanChange], generation: Int64?, at now: Date, _ x: any SQLExecutor,
                              stage: (_ id: Int64?, _ row: [SQLValue], _ generation: Int64) throws -> Void) throws {
        var addedGeneration = generation
        for change in changes {
            switch change {
            case .add(let item, let stamp, let fingerprint, let device, let ends, let reader, let hidden, let birth):
                let generation = try addedGeneration ?? Self.bumpGeneration(x)
                addedGeneration = generation
                var row = ItemRow.scanRowValues(item, stamp, fingerprint, device, ends, reader, birth: birth)
                if hidden { row[Self.missingGenerationColumn] = .integer(-generation) }
                try stage(nil, row, generation)
            case .update(let id, let item, let stamp, let fingerprint, let device, let ends, let reader, let birth):
                try stage(id, ItemRow.scanRowValues(item, stamp, fingerprint, device, ends, reader, birth: birth), 0)
            case .move(let id, let path):
                try applyMove(x, id: id, to: path)
            case .fail(let path, let stamp, let code, let message, let reader):
                try applyFailure(x, path, stamp, code: code, message: message, reader: reader, at: now)
            case .removeFailure(let path):
                try deleteFailure(x, path)
            case .lyrics:
                break                                   // after the read files: `writeLyrics`
            }
        }
    }

    /// Where `missing_gen` sits in a read file's values: a hidden new row carries minus its generation there.
    private static let missingGenerationColumn = ItemRow.scanColumnNames.firstIndex(of: "missing_gen")!

    /// A known file renamed and otherwise unchanged: only its path changes (and it is found, if it was hidden).
    package func applyMove(_ x: any SQLExecutor, id: Int64, to path: MediaPath) throws {
        try x.execute("UPDATE items SET path = \(path), path_text = \(path.string), dir = \(path.directory), missing_gen = NULL WHERE id = \(id)")
        try deleteFailure(x, path)
    }

    /// A file that could not be read: recorded (replacing an earlier record); an indexed one keeps its row,
    /// flagged.
    package func applyFailure(_ x: any SQLExecutor, _ path: MediaPath, _ stamp: FileStamp, code: String, message: String,
                              reader: Int?, at now: Date) throws {
        try x.execute("UPDATE items SET scan_failed = 1 WHERE \(mine()) AND path = \(path) AND scan_failed = 0")
        let host = hostColumn()
        try x.execute("""
            INSERT INTO failures (\(host.name)path, path_text, dir, size, mtime, inode, code, message, item_id, seen, reader_version)
            VALUES (\(host.value)\(path), \(path.string), \(path.directory), \(stamp.size), \(stamp.mtimeNanoseconds), \(stamp.inode),
                \(code), \(message), (SELECT id FROM items WHERE \(mine()) AND path = \(path)), \(now), \(reader))
            ON CONFLICT (\(host.name)path) DO UPDATE SET path_text = excluded.path_text, dir = excluded.dir, size = excluded.size,
                mtime = excluded.mtime, inode = excluded.inode, code = excluded.code, message = excluded.message,
                item_id = excluded.item_id, seen = excluded.seen, reader_version = excluded.reader_version
            """)
    }

    package func deleteFailure(_ x: any SQLExecutor, _ path: MediaPath) throws {
        try x.execute("DELETE FROM failures WHERE \(mine()) AND path = \(path)")
    }

    // MARK: Moves and removals

    /// Rows added after each sought item's window that may be that item moved, by one kind of evidence
    /// (`MoveEvidenceRules`). `vanished` is every item this scan did not find (none of them is a candidate);
    /// `seeking` the ids among them to find rows for (all when nil). The scanner chooses among the candidates
    /// and asks for weaker evidence only for what is left (`Moves`).
    public func moveCandidates(for vanished: [VanishedItem], seeking: Set<Int64>? = nil,
                               evidence: MoveCandidate.Evidence) throws -> [MoveCandidate] {
        guard !vanished.isEmpty, seeking?.isEmpty != true else { return [] }
        let rule = MoveEvidenceRules.rule(evidence)
        let rows = vanished.map { [$0.id, $0.size, $0.fingerprint, $0.window, (seeking?.contains($0.id) ?? true) ? 1 : 0] }
        let oldest = vanished.filter { seeking?.contains($0.id) ?? true }.map(\.window).min() ?? 0
        let oldRow: SQLStatement = rule.readsOldRow ? " JOIN items o ON o.id = v.id" : ""
        let recent: SQLStatement = rule.recentRowsOnly ? "i.added_gen > \(oldest) AND " : ""
        let noTwin: SQLStatement = rule.refusesRowsWithAnExactTwin ? """
             AND NOT EXISTS (SELECT 1 FROM items e WHERE e."fileSize" = i."fileSize" AND e.fingerprint = i.fingerprint
                AND e.id <> i.id AND e.id <> v.id AND e.added_gen <= v.win AND \(mine("e.host")))
            """ : ""
        let notACopy: SQLStatement = rule.yieldsToExactContent
            ? #" AND NOT EXISTS (SELECT 1 FROM v w WHERE w.size = i."fileSize" AND w.fingerprint = i.fingerprint AND w.id <> v.id)"#
            : ""
        // The inner `o` is another item, matched to the row by the rule's own words (it hides the outer `o`).
        // Or an item that had the row's audio when the row was added (`possible_moves`), there or not now,
        // other than the sought one's exact copies: the sought one itself too, since a record names only an
        // item whose file was there beside the row (`recordPossibleMoves`; watch model, seed 6: a retagged
        // file of One indexed beside Two took Two when Two was deleted); or when a file of the row's content was added
        // (`possible_moves_by_content`: the same file indexed again after its root was forgotten). That
        // record names the sought item itself too when it was made before the item's window (a complete walk
        // of its root found the item in place since): the file was there beside it, so it is not it moved
        // (seed 10, step 288). A later record may be the item moved (seen by a partial scan before the item's
        // own folder was). A `possible_moves` record also names an item a scan left unpaired as a possible move
        // (`recordUndecidedMoves`): the row stays doubtful for it.
        let notTheSought: SQLStatement = """
            p.item_id <> v.id AND NOT EXISTS (SELECT 1 FROM items c WHERE c.id = p.item_id AND c."fileSize" = v.size AND c.fingerprint = v.fingerprint)
            """
        let present: SQLStatement = rule.yieldsToPresentItems ? """
            , CASE WHEN EXISTS (SELECT 1 FROM items o WHERE o.id <> i.id AND o.id NOT IN (SELECT id FROM v) AND o.missing_gen IS NULL
                AND (v.fingerprint IS NULL OR o."fileSize" <> v.size OR o.fingerprint IS DISTINCT FROM v.fingerprint)
                AND \(mine("o.host")) AND \(raw: rule.presentItemMatch ?? rule.match))
              OR EXISTS (SELECT 1 FROM possible_moves p WHERE p.row_id = i.id AND (p.item_id = v.id OR \(notTheSought)))
              OR EXISTS (SELECT 1 FROM possible_moves_by_content p WHERE p.size = i."fileSize" AND p.fingerprint = i.fingerprint
                AND (\(notTheSought) OR (p.item_id = v.id AND p.generation <= v.win)))
              THEN 1 ELSE 0 END
            """ : ", 0"
        let birthUnknown: SQLStatement = rule.comparesBirth ? ", CASE WHEN i.scan_birth IS NULL OR o.scan_birth IS NULL THEN 1 ELSE 0 END" : ", 0"
        return try read { x in
            try x.rows("""
                WITH v AS MATERIALIZED (\(syntax.integerRows(rows, columns: ["id", "size", "fingerprint", "win", "seeking"])))
                SELECT v.id, i.id, i.path, i.added_gen\(present)\(birthUnknown) FROM v\(oldRow)
                JOIN items i ON \(recent)i.added_gen > v.win AND \(raw: rule.match)
                WHERE v.seeking = 1 AND \(raw: rule.requires) AND \(mine("i.host")) AND i.id NOT IN (SELECT id FROM v)\(noTwin)\(notACopy)
                """).map { row in
                MoveCandidate(vanishedID: row.int64(0) ?? 0, rowID: row.int64(1) ?? 0, rowPath: row.path(2) ?? MediaPath(bytes: []),
                              rowGeneration: row.int64(3) ?? 0, evidence: evidence, matchesAPresentItem: (row.int64(4) ?? 0) != 0,
                              birthUnknown: (row.int64(5) ?? 0) != 0)
            }
        }
    }

    /// Records, for each row `generation` added, the items added before it that have its audio
    /// (`MoveEvidenceRules.sharedAudio`), are shown and are not among `vanished` (this scan's items not found:
    /// one of them may be what the row is). Such a row may be a copy of one of them (another release of the
    /// recording) as well as a vanished item moved, and stays so after that item has left the library
    /// (`possible_moves`, read by `moveCandidates`). One read of `items` for the hashes the new rows have,
    /// then a join of the new rows with the few items that share one: no index on the hashes is needed.
    public func recordPossibleMoves(generation: Int64, vanished: [Int64], isGone: (MediaPath) -> Bool) throws {
        let zeros = MoveEvidenceRules.zeroFilledEndHashes.map(String.init).joined(separator: ", ")
        let sharing: SQLStatement = """
            WITH n AS MATERIALIZED (SELECT head_hash, tail_hash, payload_hash FROM items WHERE added_gen = \(generation) AND \(mine()))
            SELECT id, path FROM items WHERE added_gen < \(generation) AND missing_gen IS NULL AND \(mine())
                AND ((head_hash NOT IN (\(raw: zeros)) AND head_hash IN (SELECT head_hash FROM n))
                    OR (tail_hash NOT IN (\(raw: zeros)) AND tail_hash IN (SELECT tail_hash FROM n))
                    OR payload_hash IN (SELECT payload_hash FROM n))
            """
        // Shown items whose file is not there now (outside what a partial scan walked: one may be the row
        // moved) are left out as the vanished are: a record then always means the item was there beside the
        // row, and `moveCandidates` can hold it against the item itself (watch model, seed 6).
        let gone = try read { x in
            try x.rows(sharing).compactMap { row in row.path(1).flatMap { isGone($0) ? row.int64(0) : nil } }
        }
        let left = vanished + gone
        let notVanished: SQLStatement = left.isEmpty ? "" : " AND NOT \(syntax.isIn("id", .integers(left)))"
        try write { x in
            try x.execute("""
                WITH n AS MATERIALIZED (SELECT head_hash, tail_hash, payload_hash FROM items WHERE added_gen = \(generation) AND \(mine())),
                o AS MATERIALIZED (SELECT id, head_hash, tail_hash, payload_hash, container, "audioCodec", "sampleRate", channels,
                        "playbackDuration" FROM items
                    WHERE added_gen < \(generation) AND missing_gen IS NULL AND \(mine())\(notVanished)
                    AND ((head_hash NOT IN (\(raw: zeros)) AND head_hash IN (SELECT head_hash FROM n))
                        OR (tail_hash NOT IN (\(raw: zeros)) AND tail_hash IN (SELECT tail_hash FROM n))
                        OR payload_hash IN (SELECT payload_hash FROM n)))
                INSERT INTO possible_moves (row_id, item_id, generation)
                SELECT DISTINCT i.id, o.id, \(generation) FROM items i JOIN o ON \(raw: MoveEvidenceRules.sharedAudio)
                WHERE i.added_gen = \(generation) AND \(mine("i.host"))
                ON CONFLICT DO NOTHING
                """)
            // The same records under the rows' content, which outlive the rows (a root forgotten and added back).
            try x.execute("""
                INSERT INTO possible_moves_by_content (size, fingerprint, item_id, generation)
                SELECT DISTINCT i."fileSize", i.fingerprint, p.item_id, p.generation FROM possible_moves p JOIN items i ON i.id = p.row_id
                WHERE p.generation = \(generation) AND i."fileSize" IS NOT NULL AND i.fingerprint IS NOT NULL
                ON CONFLICT DO NOTHING
                """)
        }
    }

    /// Records the items a scan left unpaired as possible moves against the rows weak evidence paired them
    /// with (`ScanStore.recordUndecidedMoves`), at the current generation. A "no guess" stays one: before,
    /// it held only while another claim was there (watch model, seed 11: One, deleted from a disk that then
    /// went away, and Two, retagged as Live, both had Live's audio; once a complete walk of Two's root closed
    /// Two's window, while One's root could not be walked completely, One took Live).
    public func recordUndecidedMoves(_ pairs: [(row: Int64, item: Int64)]) throws {
        guard !pairs.isEmpty else { return }
        try write { x in
            try x.execute("""
                WITH d AS MATERIALIZED (\(syntax.integerRows(pairs.map { [$0.row, $0.item] }, columns: ["row_id", "item_id"])))
                INSERT INTO possible_moves (row_id, item_id, generation)
                SELECT DISTINCT d.row_id, d.item_id, (SELECT value FROM scan_state WHERE key = 'generation') FROM d
                WHERE EXISTS (SELECT 1 FROM items i WHERE i.id = d.row_id)
                ON CONFLICT DO NOTHING
                """)
        }
    }

    /// Folds each moved row into the item it was, in one transaction: the item takes the row's path and file
    /// data and keeps its id; what the user did meanwhile with the row (plays, skips, a rating, playlist
    /// and share entries) is carried over to the item; then the row goes (before the item takes its path, unique).
    public func fold(_ pairs: [(item: Int64, row: Int64)]) throws {
        guard !pairs.isEmpty else { return }
        let columns = ItemRow.scanColumnNames
        let select = SQLStatement(raw: columns.map { "items." + ItemRow.quoted($0) }.joined(separator: ", ")
            + #", COALESCE("playCount", 0), COALESCE("skipCount", 0), "lastPlayedDate", rating"#)
        try write { x in
            for (item, row) in pairs {
                guard let values = try x.row("SELECT \(select) FROM items WHERE id = \(row)")?.values else { continue }
                let user = Array(values.suffix(4))
                try x.execute("UPDATE playlist_entries SET item_id = \(item) WHERE item_id = \(row)")
                try x.execute("UPDATE share_link_items SET item_id = \(item) WHERE item_id = \(row)")
                try Self.foldUserValues(from: row, into: item, x)
                try Self.foldLyricsAndBookmarks(from: row, into: item, x)
                try x.execute("DELETE FROM items WHERE id = \(row)")
                let assignments = SQLStatement.joined(zip(columns, values).map { "\(raw: ItemRow.quoted($0)) = \($1)" }, separator: ", ")
                try x.execute("""
                    UPDATE items SET \(assignments),
                        "playCount" = COALESCE("playCount", 0) + \(user[0]), "skipCount" = COALESCE("skipCount", 0) + \(user[1]),
                        "lastPlayedDate" = CASE WHEN COALESCE("lastPlayedDate", 0) >= COALESCE(\(user[2]), 0) THEN "lastPlayedDate" ELSE \(user[2]) END,
                        rating = COALESCE(rating, \(user[3]))
                    WHERE id = \(item)
                    """)
                try x.execute("UPDATE failures SET item_id = \(item) WHERE \(mine()) AND path = \(values[0])")
            }
        }
    }

    /// Removes items (their playlist entries go with them) and their failure records, in one transaction.
    public func removeItems(_ ids: [Int64]) throws {
        guard !ids.isEmpty else { return }
        try write { x in
            try x.execute("""
                DELETE FROM failures WHERE \(mine()) AND path IN (SELECT path FROM items WHERE \(syntax.isIn("id", .integers(ids))))
                """)
            try x.execute("DELETE FROM items WHERE \(syntax.isIn("id", .integers(ids)))")
        }
    }

    /// The items hidden by partial scans (`hideItems`), as vanished items whose window is the generation
    /// that added them (the scanner raises it to their root's): a scan pairs them with what it adds, so a file
    /// moved out of a subtree and found by a later scan of another part gets its identity back at once.
    public func hiddenItems() throws -> [VanishedItem] {
        if let facts = try rememberedScanFacts() { return facts.hidden }
        return try read { x in
            try x.rows(#"SELECT id, path, "fileSize", fingerprint, added_gen, missing_gen FROM items WHERE \#(mine()) AND missing_gen IS NOT NULL"#).map {
                VanishedItem(id: $0.int64(0) ?? 0, path: $0.path(1) ?? MediaPath(bytes: []), size: $0.int64(2) ?? -1,
                             fingerprint: $0.int64(3), window: $0.int64(4) ?? 0, missing: true, hiddenAt: $0.int64(5))
            }
        }
    }

    /// Hides items a partial scan did not find (`missing_gen`): out of every query, but kept, with their ids
    /// and user data, for the scan that finds them again or a scan of every root that shows them gone.
    public func hideItems(_ ids: [Int64]) throws {
        try hideItems(ids, showingRowsOf: nil)
    }

    /// Hides `ids` and, in the same transaction, shows the rows `generation` wrote hidden (`ScanChange.add`'s
    /// `hidden`, `missing_gen` = -generation): a reader sees either a moved file's item or its new row,
    /// never both.
    public func hideItems(_ ids: [Int64], showingRowsOf generation: Int64?) throws {
        guard !ids.isEmpty || generation != nil else { return }
        try write { x in
            if let generation {
                try x.execute("UPDATE items SET missing_gen = NULL WHERE \(mine()) AND missing_gen = \(-generation)")
            }
            guard !ids.isEmpty else { return }
            try x.execute("""
                UPDATE items SET missing_gen = (SELECT value FROM scan_state WHERE key = 'generation')
                WHERE \(syntax.isIn("id", .integers(ids))) AND missing_gen IS NULL
                """)
        }
    }

    // MARK: Reports

    /// What scans could not read (every host's), by path.
    public func failures() throws -> [ScanFailure] {
        try read { x in
            try x.rows("SELECT path, code, message, size, item_id, seen FROM failures ORDER BY path, message").map {
                ScanFailure(path: $0.path(0) ?? MediaPath(bytes: []), code: $0.text(1) ?? "", message: $0.text(2) ?? "",
                            size: $0.int64(3) ?? 0, itemID: $0.int64(4), seen: $0.date(5) ?? Date(timeIntervalSince1970: 0))
            }
        }
    }
}
