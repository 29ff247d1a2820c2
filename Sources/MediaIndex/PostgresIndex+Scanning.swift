import Foundation
import PostgresNIO
import MediaModel

// The scanner's primitives on PostgreSQL, with the same answers as SQLiteIndex+Scanning.swift (the scanner's
// tests run on both). Each reads and writes this host's rows only.
extension PostgresIndex {
    // MARK: Reading state

    /// The state of one directory. On the scan's reader (`readAhead`), the states of the directories
    /// from this one onwards in byte order come in the same round trip, `rowsPerRead` rows at a time.
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
    /// byte order, at most `onwards` rows (the last directory may be cut): one round trip, items and
    /// failures told apart by the second column. Returns the states, the rows read and the last directory.
    private func directoryStates(_ directory: MediaPath, onwards limit: Int? = nil)
        throws -> (states: [[UInt8]: DirectoryState], rows: Int, last: [UInt8]?) {
        var q = SQLText()
        let h = q.bind(host), d = q.bind(Data(directory.bytes))
        let match = limit == nil ? "dir = \(d)" : "dir >= \(d)"
        q.sql = """
            SELECT dir, TRUE, id, path, "fileSize", scan_mtime, scan_inode, fingerprint, missing_gen IS NOT NULL, added_gen, NULL::text,
                COALESCE(reader_version, 0)
            FROM items WHERE host = \(h) AND \(match)
            UNION ALL
            SELECT dir, FALSE, NULL, path, size, mtime, inode, NULL, NULL, NULL, code, COALESCE(reader_version, 0)
            FROM failures WHERE host = \(h) AND \(match)
            """
        if let limit { q.sql += " ORDER BY 1 LIMIT \(limit)" }
        return try session.run { s in
            var states: [[UInt8]: DirectoryState] = [:]
            var rows = 0
            var last: [UInt8]?
            for row in try s.query(q) {
                let r = row.makeRandomAccess()
                let dir = Array(r[0].value(Data.self) ?? Data())
                let path = MediaPath(bytes: Array(r[3].value(Data.self) ?? Data()))
                let stamp = FileStamp(size: r[4].value(Int64.self) ?? -1, mtimeNanoseconds: r[5].value(Int64.self) ?? -1,
                                      inode: r[6].value(Int64.self) ?? -1)
                let readerVersion = Int(r[11].value(Int64.self) ?? 0)
                if r[1].value(Bool.self) == true {
                    states[dir, default: DirectoryState()].items[path] = .init(
                        id: r[2].value(Int64.self) ?? 0, stamp: stamp, fingerprint: r[7].value(Int64.self),
                        missing: r[8].value(Bool.self) ?? false, addedGeneration: r[9].value(Int64.self) ?? 0,
                        readerVersion: readerVersion)
                } else {
                    states[dir, default: DirectoryState()].failures[path] = stamp
                    states[dir, default: DirectoryState()].failureCodes[path] = r[10].value(String.self)
                    states[dir, default: DirectoryState()].failureReaderVersions[path] = readerVersion
                }
                rows += 1
                last = dir
            }
            return (states, rows, last)
        }
    }

    public func indexedDirectories(under root: MediaPath) throws -> [MediaPath] {
        var q = SQLText()
        let h = q.bind(host)
        let range = under(root, &q)
        q.sql = """
            SELECT dir FROM items WHERE host = \(h) AND \(range)
            UNION SELECT dir FROM failures WHERE host = \(h) AND \(range) ORDER BY 1
            """
        return try session.run { s in try s.query(q).map { MediaPath(bytes: Array($0.makeRandomAccess()[0].value(Data.self) ?? Data())) } }
    }

    public func itemCount(under root: MediaPath) throws -> Int {
        var q = SQLText()
        q.sql = "SELECT count(*) FROM items WHERE host = \(q.bind(host)) AND \(under(root, &q))"
        return try session.run { s in Int(try s.scalar(q, as: Int64.self) ?? 0) }
    }

    public func itemCount(under root: MediaPath, readBefore readerVersion: Int) throws -> Int {
        var q = SQLText()
        let h = q.bind(host), v = q.bind(Int64(readerVersion))
        let items = under(root, &q), failures = under(root, &q)
        q.sql = """
            SELECT (SELECT count(*) FROM items WHERE host = \(h) AND \(items) AND COALESCE(reader_version, 0) < \(v))
                + (SELECT count(*) FROM failures WHERE host = \(h) AND \(failures) AND COALESCE(reader_version, 0) < \(v))
            """
        return try session.run { s in Int(try s.scalar(q, as: Int64.self) ?? 0) }
    }

    public func items(withInodes inodes: [Int64]) throws -> [Int64: [InodeMatch]] {
        guard !inodes.isEmpty else { return [:] }
        var q = SQLText()
        q.sql = """
            SELECT id, path, "fileSize", scan_mtime, scan_inode, scan_device FROM items
            WHERE host = \(q.bind(host)) AND scan_inode = ANY(\(q.bind(inodes)))
            """
        return try session.run { s in
            var matches: [Int64: [InodeMatch]] = [:]
            for row in try s.query(q) {
                let r = row.makeRandomAccess()
                let inode = r[4].value(Int64.self) ?? -1
                matches[inode, default: []].append(InodeMatch(
                    id: r[0].value(Int64.self) ?? 0, path: MediaPath(bytes: Array(r[1].value(Data.self) ?? Data())),
                    stamp: FileStamp(size: r[2].value(Int64.self) ?? -1, mtimeNanoseconds: r[3].value(Int64.self) ?? -1, inode: inode),
                    device: r[5].value(Int64.self)))
            }
            return matches
        }
    }

    public func isEmpty() throws -> Bool {
        var q = SQLText()
        q.sql = "SELECT NOT EXISTS (SELECT 1 FROM items WHERE host = \(q.bind(host)))"
        return try session.run { s in try s.scalar(q, as: Bool.self) ?? true }
    }

    // MARK: Generations (one counter for the library: concurrent scans each get their own)

    public func currentGeneration() throws -> Int64 {
        try session.run { s in try s.scalar(SQLText("SELECT value FROM scan_state WHERE key = 'generation'"), as: Int64.self) ?? 0 }
    }

    public func newGeneration() throws -> Int64 {
        try session.run { s in try Self.bumpGeneration(s) }
    }

    static func bumpGeneration(_ s: PostgresSession.Statements) throws -> Int64 {
        try s.scalar(SQLText("UPDATE scan_state SET value = value + 1 WHERE key = 'generation' RETURNING value"), as: Int64.self) ?? 0
    }

    // MARK: Writing

    /// Every column a read of the file writes, as SQLite's (`fileColumnList`), in the order `fileValues` binds.
    static let fileColumnNames: [String] = ItemRow.fileColumnNames
        + ["scan_mtime", "scan_inode", "scan_device", "fingerprint", "head_hash", "tail_hash", "scan_failed", "missing_gen",
           "reader_version"]

    /// One file's row: `fileColumnNames` order.
    static func fileValues(_ item: MediaItem, _ stamp: FileStamp, _ fingerprint: Int64, _ device: Int64?, _ ends: EndHashes?,
                           _ reader: Int?) -> [PostgresValue] {
        var values: [PostgresValue] = [.bytes(Data(item.path.bytes)), .text(item.path.string), .bytes(Data(item.path.directory.bytes)),
                                       .text(encodeTags(item.tags))]
        for p in ItemRow.fileDerived { values.append(columnValue(item[p], as: p.spec.type)) }
        for p in ItemRow.searchable { values.append(.text(item[p]?.text.map(TextFolding.folded))) }
        values += [.integer(stamp.mtimeNanoseconds), .integer(stamp.inode), .integer(device), .integer(fingerprint),
                   .integer(ends?.head), .integer(ends?.tail), .integer(0), .integer(nil), .integer(reader.map(Int64.init))]
        return values
    }

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
                        throw IndexError.database(database: databaseName, reason: rejected.reason)
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
        let names = Self.fileColumnNames.map(ItemRow.quoted)
        // Rows per statement: one array per column holds them all; this only bounds a message's size.
        let perStatement = 5_000
        try session.transaction(passingRejections: true) { s in
            var addedGeneration = generation
            var adds: [[PostgresValue]] = [], addedPaths: Set<MediaPath> = []
            var updates: [[PostgresValue]] = [], updatedIDs: Set<Int64> = []
            func columns(_ rows: ArraySlice<[PostgresValue]>, into q: inout SQLText) -> String {
                (0..<rows[rows.startIndex].count).map { c in q.bindColumn(rows.map { $0[c] }) }.joined(separator: ", ")
            }
            func flush() throws {
                for start in stride(from: 0, to: adds.count, by: perStatement) {
                    var q = SQLText()
                    let h = q.bind(host), d = q.bind(now), g = q.bind(addedGeneration ?? 0)
                    let arrays = columns(adds[start..<min(start + perStatement, adds.count)], into: &q)
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
                    let arrays = columns(updates[start..<min(start + perStatement, updates.count)], into: &q)
                    q.sql = """
                        UPDATE items SET \(names.map { "\($0) = b.\($0)" }.joined(separator: ", "))
                        FROM unnest(\(arrays)) AS b(item_id, \(names.joined(separator: ", ")))
                        WHERE items.id = b.item_id
                        """
                    try s.execute(q)
                }
                let paths = (adds.map { $0[0] } + updates.map { $0[1] })    // path: the file's first column
                    .compactMap { value -> Data? in if case .bytes(let path) = value { path } else { nil } }
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
                    if addedGeneration == nil { addedGeneration = try Self.bumpGeneration(s) }
                    // A path twice in one batch: the later read wins (one INSERT cannot touch a row twice).
                    if addedPaths.contains(item.path) { try flush() }
                    addedPaths.insert(item.path)
                    adds.append(Self.fileValues(item, stamp, fingerprint, device, ends, reader))
                case .update(let id, let item, let stamp, let fingerprint, let device, let ends, let reader):
                    if updatedIDs.contains(id) { try flush() }
                    updatedIDs.insert(id)
                    updates.append([.integer(id)] + Self.fileValues(item, stamp, fingerprint, device, ends, reader))
                case .move(let id, let path):
                    try flush()
                    var q = SQLText()
                    q.sql = """
                        UPDATE items SET path = \(q.bind(Data(path.bytes))), path_text = \(q.bind(path.string)),
                            dir = \(q.bind(Data(path.directory.bytes))), missing_gen = NULL WHERE id = \(q.bind(id))
                        """
                    try s.execute(q)
                    try deleteFailure(s, path)
                case .fail(let path, let stamp, let code, let message, let reader):
                    try flush()
                    var u = SQLText()
                    u.sql = "UPDATE items SET scan_failed = 1 WHERE host = \(u.bind(host)) AND path = \(u.bind(Data(path.bytes))) AND scan_failed = 0"
                    try s.execute(u)
                    var q = SQLText()
                    let h = q.bind(host), p = q.bind(Data(path.bytes))
                    q.sql = """
                        INSERT INTO failures (host, path, path_text, dir, size, mtime, inode, code, message, item_id, seen, reader_version)
                        VALUES (\(h), \(p), \(q.bind(path.string)), \(q.bind(Data(path.directory.bytes))), \(q.bind(stamp.size)),
                            \(q.bind(stamp.mtimeNanoseconds)), \(q.bind(stamp.inode)), \(q.bind(code)), \(q.bind(message)),
                            (SELECT id FROM items WHERE host = \(h) AND path = \(p)), \(q.bind(now)), \(q.bind(reader.map(Int64.init))))
                        ON CONFLICT (host, path) DO UPDATE SET path_text = excluded.path_text, dir = excluded.dir, size = excluded.size,
                            mtime = excluded.mtime, inode = excluded.inode, code = excluded.code, message = excluded.message,
                            item_id = excluded.item_id, seen = excluded.seen, reader_version = excluded.reader_version
                        """
                    try s.execute(q)
                case .removeFailure(let path):
                    try flush()
                    try deleteFailure(s, path)
                }
            }
            try flush()
        }
    }

    private func deleteFailure(_ s: PostgresSession.Statements, _ path: MediaPath) throws {
        var q = SQLText()
        q.sql = "DELETE FROM failures WHERE host = \(q.bind(host)) AND path = \(q.bind(Data(path.bytes)))"
        try s.execute(q)
    }

    // MARK: Moves and removals

    /// As `SQLiteIndex.moveCandidates`, evidence for evidence; `vanished` travels as arrays (unnest).
    public func moveCandidates(for vanished: [VanishedItem], seeking: Set<Int64>? = nil,
                               evidence: MoveCandidate.Evidence) throws -> [MoveCandidate] {
        guard !vanished.isEmpty, seeking?.isEmpty != true else { return [] }
        var q = SQLText()
        let v = """
            (SELECT * FROM unnest(\(q.bind(vanished.map(\.id))), \(q.bind(vanished.map(\.size))), \(q.bind(vanished.map { $0.fingerprint ?? Int64.min }))::bigint[],
                \(q.bind(vanished.map(\.window))), \(q.bind(vanished.map { seeking?.contains($0.id) ?? true })))
                AS t(id, size, fingerprint, win, seeking))
            """
        let seekingWindows = vanished.filter { seeking?.contains($0.id) ?? true }.map(\.window)
        let oldest = seekingWindows.min() ?? 0
        let h = q.bind(host)
        let notVanished = "i.id <> ALL(\(q.bind(vanished.map(\.id))))"
        let where_: String
        switch evidence {
        case .sameFile:
            where_ = """
                FROM \(v) v JOIN items o ON o.id = v.id
                JOIN items i ON i.scan_inode = o.scan_inode AND i.scan_device IS NOT DISTINCT FROM o.scan_device
                    AND (i.head_hash = o.head_hash OR i.tail_hash = o.tail_hash) AND i.added_gen > v.win
                WHERE v.seeking AND o.scan_inode IS NOT NULL AND o.head_hash IS NOT NULL AND i.host = \(h) AND \(notVanished)
                """
        case .content:
            where_ = """
                FROM \(v) v JOIN items i ON i."fileSize" = v.size AND i.fingerprint = v.fingerprint AND v.fingerprint <> \(Int64.min)
                WHERE v.seeking AND i.added_gen > v.win AND i.host = \(h) AND \(notVanished)
                """
        case .audio:
            where_ = """
                FROM \(v) v JOIN items o ON o.id = v.id
                JOIN items i ON i.added_gen > \(oldest) AND i.added_gen > v.win
                    AND (i.head_hash = o.head_hash OR i.tail_hash = o.tail_hash)
                    AND i.container IS NOT DISTINCT FROM o.container AND abs(i."playbackDuration" - o."playbackDuration") < 0.05
                WHERE v.seeking AND o.head_hash IS NOT NULL AND i.host = \(h) AND \(notVanished)
                """
        case .musicBrainz:
            where_ = """
                FROM \(v) v JOIN items o ON o.id = v.id
                JOIN items i ON i.added_gen > \(oldest) AND i.added_gen > v.win AND i."musicBrainzTrackID" = o."musicBrainzTrackID"
                WHERE v.seeking AND o."musicBrainzTrackID" IS NOT NULL AND i.host = \(h) AND \(notVanished)
                """
        case .tags:
            where_ = """
                FROM \(v) v JOIN items o ON o.id = v.id
                JOIN items i ON i.added_gen > \(oldest) AND i.added_gen > v.win AND i.title = o.title
                    AND i.artist IS NOT DISTINCT FROM o.artist AND i."albumTitle" IS NOT DISTINCT FROM o."albumTitle"
                    AND i.container IS NOT DISTINCT FROM o.container
                    AND abs(i."playbackDuration" - o."playbackDuration") < 1.0
                WHERE v.seeking AND o.title IS NOT NULL AND o."playbackDuration" IS NOT NULL AND i.host = \(h) AND \(notVanished)
                """
        }
        q.sql = "SELECT v.id, i.id, i.path, i.added_gen " + where_
        return try session.run { s in
            try s.query(q).map { row in
                let r = row.makeRandomAccess()
                return MoveCandidate(vanishedID: r[0].value(Int64.self) ?? 0, rowID: r[1].value(Int64.self) ?? 0,
                                     rowPath: MediaPath(bytes: Array(r[2].value(Data.self) ?? Data())),
                                     rowGeneration: r[3].value(Int64.self) ?? 0, evidence: evidence)
            }
        }
    }

    /// As `SQLiteIndex.fold`: the item takes the moved row's file columns and keeps its id; the row's user
    /// data and playlist entries are carried over; then the row goes. One transaction; the row is kept in a
    /// temporary table between its DELETE and the item's UPDATE (the path is unique: the row must go first).
    public func fold(_ pairs: [(item: Int64, row: Int64)]) throws {
        guard !pairs.isEmpty else { return }
        let names = Self.fileColumnNames.map(ItemRow.quoted)
        try session.transaction { s in
            try s.execute("CREATE TEMP TABLE IF NOT EXISTS fold_row AS SELECT * FROM items WITH NO DATA")
            for (item, row) in pairs {
                try s.execute("DELETE FROM fold_row")
                var entries = SQLText()
                entries.sql = """
                    UPDATE playlist_entries SET item_id = \(entries.bind(item)) WHERE item_id = \(entries.bind(row))
                        AND EXISTS (SELECT 1 FROM items WHERE id = \(entries.bind(row)))
                    """
                try s.execute(entries)
                var delete = SQLText()
                delete.sql = "WITH d AS (DELETE FROM items WHERE id = \(delete.bind(row)) RETURNING *) INSERT INTO fold_row SELECT * FROM d"
                guard try s.execute(delete) > 0 else { continue }
                var u = SQLText()
                u.sql = """
                    UPDATE items SET \(names.map { "\($0) = m.\($0)" }.joined(separator: ", ")),
                        "playCount" = COALESCE(items."playCount", 0) + COALESCE(m."playCount", 0),
                        "skipCount" = COALESCE(items."skipCount", 0) + COALESCE(m."skipCount", 0),
                        "lastPlayedDate" = GREATEST(COALESCE(items."lastPlayedDate", 0), COALESCE(m."lastPlayedDate", 0)),
                        rating = COALESCE(items.rating, m.rating)
                    FROM fold_row m WHERE items.id = \(u.bind(item))
                    """
                try s.execute(u)
                var f = SQLText()
                f.sql = """
                    UPDATE failures SET item_id = \(f.bind(item)) FROM fold_row m WHERE failures.host = m.host AND failures.path = m.path
                    """
                try s.execute(f)
            }
        }
    }

    public func removeItems(_ ids: [Int64]) throws {
        guard !ids.isEmpty else { return }
        try session.transaction { s in
            var f = SQLText()
            f.sql = "DELETE FROM failures f USING items i WHERE i.id = ANY(\(f.bind(ids))) AND f.host = i.host AND f.path = i.path"
            try s.execute(f)
            var d = SQLText()
            d.sql = "DELETE FROM items WHERE id = ANY(\(d.bind(ids)))"
            try s.execute(d)
        }
    }

    public func hiddenItems() throws -> [VanishedItem] {
        var q = SQLText()
        q.sql = "SELECT id, path, \"fileSize\", fingerprint, added_gen FROM items WHERE host = \(q.bind(host)) AND missing_gen IS NOT NULL"
        return try session.run { s in
            try s.query(q).map { row in
                let r = row.makeRandomAccess()
                return VanishedItem(id: r[0].value(Int64.self) ?? 0, path: MediaPath(bytes: Array(r[1].value(Data.self) ?? Data())),
                                    size: r[2].value(Int64.self) ?? -1, fingerprint: r[3].value(Int64.self),
                                    window: r[4].value(Int64.self) ?? 0, missing: true)
            }
        }
    }

    public func hideItems(_ ids: [Int64]) throws {
        guard !ids.isEmpty else { return }
        var q = SQLText()
        q.sql = """
            UPDATE items SET missing_gen = (SELECT value FROM scan_state WHERE key = 'generation')
            WHERE id = ANY(\(q.bind(ids))) AND missing_gen IS NULL
            """
        try session.run { s in try s.execute(q) }
    }

    public func failures() throws -> [ScanFailure] {
        try session.run { s in
            try s.query("SELECT path, code, message, size, item_id, seen FROM failures ORDER BY path, host").map { row in
                let r = row.makeRandomAccess()
                return ScanFailure(path: MediaPath(bytes: Array(r[0].value(Data.self) ?? Data())), code: r[1].value(String.self) ?? "",
                                   message: r[2].value(String.self) ?? "", size: r[3].value(Int64.self) ?? 0,
                                   itemID: r[4].value(Int64.self), seen: Date(timeIntervalSince1970: r[5].value(Double.self) ?? 0))
            }
        }
    }
}

