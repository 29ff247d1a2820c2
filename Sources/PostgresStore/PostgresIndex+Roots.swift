import Foundation
import PostgresNIO
import MediaIndex
import MediaModel

// Roots (this host's), user data and statistics on PostgreSQL; as SQLiteIndex+Roots/UserData/Statistics.
extension PostgresIndex {
    public func roots() throws -> [MediaPath] { try rootStates().map(\.path) }

    public func rootStates() throws -> [RootState] {
        var q = SQLText()
        q.sql = "SELECT path, complete_gen, excludes FROM roots WHERE host = \(q.bind(host)) ORDER BY path"
        return try session.run { s in
            try s.query(q).map { row in
                let r = row.makeRandomAccess()
                return RootState(path: MediaPath(bytes: Array(r[0].value(Data.self) ?? Data())),
                                 completeGeneration: r[1].value(Int64.self) ?? 0,
                                 excludes: (r[2].value(String.self) ?? "").split(separator: "\n").map(String.init))
            }
        }
    }

    public func setExcludes(_ patterns: [String], of root: MediaPath) throws {
        var q = SQLText()
        q.sql = "UPDATE roots SET excludes = \(q.bind(patterns.joined(separator: "\n"))) WHERE host = \(q.bind(host)) AND path = \(q.bind(Data(root.bytes)))"
        try session.run { s in try s.execute(q) }
    }

    @discardableResult
    public func addRoot(_ root: MediaPath) throws -> Bool {
        var q = SQLText()
        q.sql = """
            INSERT INTO roots (host, path, path_text, added) VALUES (\(q.bind(host)), \(q.bind(Data(root.bytes))), \(q.bind(root.string)),
                \(q.bind(Date().timeIntervalSince1970))) ON CONFLICT (host, path) DO NOTHING
            """
        return try session.run { s in try s.execute(q) > 0 }
    }

    public func removeRoot(_ root: MediaPath) throws {
        let others = try roots().filter { $0 != root }
        try session.transaction { s in
            var r = SQLText()
            let h = r.bind(host)
            r.sql = "DELETE FROM roots WHERE host = \(h) AND path = \(r.bind(Data(root.bytes)));"
            try s.execute(r)
            var m = SQLText()
            m.sql = "DELETE FROM mounts WHERE host = \(m.bind(host)) AND path = \(m.bind(Data(root.bytes)))"
            try s.execute(m)
            guard !others.contains(where: { root.hasPrefix(directory: $0) }) else { return }
            for table in ["items", "failures"] {
                var d = SQLText()
                var condition = "host = \(d.bind(host)) AND \(under(root, &d))"
                for nested in others where nested.hasPrefix(directory: root) { condition += " AND NOT \(under(nested, &d))" }
                d.sql = "DELETE FROM \(table) WHERE \(condition)"
                try s.execute(d)
            }
            var mounts = SQLText()
            let (lower, upper) = root.rangeBelow
            mounts.sql = "DELETE FROM mounts WHERE host = \(mounts.bind(host)) AND path >= \(mounts.bind(lower)) AND path < \(mounts.bind(upper))"
            try s.execute(mounts)
        }
    }

    public func relocateRoot(_ old: MediaPath, to new: MediaPath) throws {
        if let reason = RootRelocation.refusal(roots: try roots(), old: old, new: new) {
            throw IndexError.invalidArgument(database: databaseName, reason: reason)
        }
        // Each path is rewritten in Swift, as SQLite's are: its text form (`path_text`) is MediaPath's
        // repaired string, which the server cannot make from bytes that are not UTF-8 (convert_from fails).
        let oldLength = old.bytes.count
        func moved(_ bytes: Data) -> MediaPath { MediaPath(bytes: new.bytes + Array(bytes.dropFirst(oldLength))) }
        try session.transaction { s in
            for table in ["items", "failures"] {
                var select = SQLText()
                select.sql = "SELECT \(table == "items" ? "id" : "NULL::bigint"), path FROM \(table) WHERE host = \(select.bind(host)) AND \(under(old, &select))"
                let rows = try s.query(select).map { row in
                    let r = row.makeRandomAccess()
                    let old = r[1].value(Data.self) ?? Data()
                    return (id: r[0].value(Int64.self) ?? 0, old: old, path: moved(old))
                }
                guard !rows.isEmpty else { continue }
                // One statement for the whole table: the new values travel as arrays.
                var q = SQLText()
                let match = table == "items" ? "items.id = m.key_id" : "failures.host = \(q.bind(host)) AND failures.path = m.key_path"
                q.sql = """
                    UPDATE \(table) SET path = m.path, path_text = m.path_text, dir = m.dir
                    FROM unnest(\(q.bind(rows.map(\.id)))::bigint[], \(q.bind(rows.map(\.old)))::bytea[],
                        \(q.bind(rows.map { Data($0.path.bytes) }))::bytea[], \(q.bind(rows.map(\.path.string)))::text[],
                        \(q.bind(rows.map { Data($0.path.directory.bytes) }))::bytea[]) AS m(key_id, key_path, path, path_text, dir)
                    WHERE \(match)
                    """
                try s.execute(q)
            }
            for (table, column, hostColumn) in [("playlists", "source", "source_host"), ("mounts", "path", "host")] {
                var q = SQLText()
                q.sql = """
                    UPDATE \(table) SET \(column) = \(q.bind(Data(new.bytes))) || substring(\(column) from \(oldLength + 1))
                    WHERE \(hostColumn) = \(q.bind(host)) AND \(under(old, column: column, &q))
                    """
                try s.execute(q)
            }
            var q = SQLText()
            q.sql = """
                UPDATE roots SET path = \(q.bind(Data(new.bytes))), path_text = \(q.bind(new.string))
                WHERE host = \(q.bind(host)) AND path = \(q.bind(Data(old.bytes)))
                """
            try s.execute(q)
        }
    }

    public func completeWalk(of root: MediaPath, generation: Int64, mounts: [MountPoint]) throws {
        let known = try self.mounts(under: root)
        var r = SQLText()
        r.sql = "SELECT complete_gen FROM roots WHERE host = \(r.bind(host)) AND path = \(r.bind(Data(root.bytes)))"
        let recorded = try session.run { s in try s.scalar(r, as: Int64.self) }
        guard recorded != generation || Set(known) != Set(mounts) else { return }
        try session.transaction { s in
            var u = SQLText()
            u.sql = "UPDATE roots SET complete_gen = \(u.bind(generation)) WHERE host = \(u.bind(host)) AND path = \(u.bind(Data(root.bytes)))"
            try s.execute(u)
            var d = SQLText()
            d.sql = "DELETE FROM mounts WHERE host = \(d.bind(host)) AND \(under(root, column: "path", &d))"
            try s.execute(d)
            for mount in mounts {
                var i = SQLText()
                i.sql = """
                    INSERT INTO mounts (host, path, device) VALUES (\(i.bind(host)), \(i.bind(Data(mount.path.bytes))), \(i.bind(mount.device)))
                    ON CONFLICT (host, path) DO UPDATE SET device = excluded.device
                    """
                try s.execute(i)
            }
        }
    }

    public func mounts(under root: MediaPath) throws -> [MountPoint] {
        var q = SQLText()
        q.sql = "SELECT path, device FROM mounts WHERE host = \(q.bind(host)) AND \(under(root, column: "path", &q)) ORDER BY path"
        return try session.run { s in
            try s.query(q).map { row in
                let r = row.makeRandomAccess()
                return MountPoint(path: MediaPath(bytes: Array(r[0].value(Data.self) ?? Data())), device: r[1].value(Int64.self) ?? 0)
            }
        }
    }

    // MARK: User data

    public func recordPlay(id: Int64, at date: Date = Date()) throws {
        var q = SQLText()
        q.sql = "UPDATE items SET \"playCount\" = COALESCE(\"playCount\", 0) + 1, \"lastPlayedDate\" = \(q.bind(date.timeIntervalSince1970)) WHERE id = \(q.bind(id))"
        try updateItem(id, q)
    }

    public func recordSkip(id: Int64) throws {
        var q = SQLText()
        q.sql = "UPDATE items SET \"skipCount\" = COALESCE(\"skipCount\", 0) + 1 WHERE id = \(q.bind(id))"
        try updateItem(id, q)
    }

    public func setRating(id: Int64, _ rating: Int?) throws {
        if let rating, !(0...5).contains(rating) {
            throw IndexError.invalidArgument(database: databaseName, reason: "rating must be 0–5, got \(rating)")
        }
        var q = SQLText()
        q.sql = "UPDATE items SET rating = \(q.bind(rating.map(Int64.init))) WHERE id = \(q.bind(id))"
        try updateItem(id, q)
    }

    @discardableResult
    public func setUserData(_ property: MediaProperty, to value: Int64?, ids: [Int64]) throws -> Int {
        if let bad = UserDataEdits.problem(property, value) { throw IndexError.invalidArgument(database: databaseName, reason: bad) }
        let column = ItemRow.quoted(ItemRow.column(property))
        return try session.transaction { s in
            var changed = 0
            for id in ids {
                var q = SQLText()
                q.sql = "UPDATE items SET \(column) = \(q.bind(UserDataEdits.stored(property, value))) WHERE id = \(q.bind(id))"
                changed += try s.execute(q)
            }
            return changed
        }
    }

    private func updateItem(_ id: Int64, _ q: SQLText) throws {
        if try session.run({ s in try s.execute(q) }) == 0 { throw IndexError.itemNotFound(database: databaseName, id: id) }
    }

    // MARK: Statistics

    public func statistics() throws -> LibraryStatistics {
        try session.transaction { s in
            let totals = try s.query("""
                SELECT count(*), COALESCE(sum("playbackDuration"), 0)::double precision, COALESCE(sum("fileSize"), 0)::bigint
                FROM items WHERE missing_gen IS NULL
                """)[0].makeRandomAccess()
            let byType = try s.query("""
                SELECT COALESCE("mediaType", 0), count(*) FROM items WHERE missing_gen IS NULL GROUP BY 1 ORDER BY 2 DESC, 1
                """).map { row in
                let r = row.makeRandomAccess()
                return LibraryStatistics.Count(name: MediaType(rawValue: r[0].value(Int64.self) ?? 0).name, count: Int(r[1].value(Int64.self) ?? 0))
            }
            func counts(of column: String) throws -> [LibraryStatistics.Count] {
                try s.query("""
                    SELECT COALESCE(\(column), 'unknown'), count(*) FROM items WHERE missing_gen IS NULL GROUP BY 1 ORDER BY 2 DESC, 1
                    """).map { row in
                    let r = row.makeRandomAccess()
                    return LibraryStatistics.Count(name: r[0].value(String.self) ?? "", count: Int(r[1].value(Int64.self) ?? 0))
                }
            }
            var roots = SQLText()
            roots.sql = "SELECT path FROM roots WHERE host = \(roots.bind(host)) ORDER BY path"
            return LibraryStatistics(
                items: Int(totals[0].value(Int64.self) ?? 0), totalDuration: totals[1].value(Double.self) ?? 0,
                totalSize: totals[2].value(Int64.self) ?? 0, byMediaType: byType,
                byContainer: try counts(of: "container"), byFileType: try counts(of: #""fileType""#),
                partial: Int(try s.scalar(SQLText(#"SELECT count(*) FROM items WHERE "isPartial" = 1 AND missing_gen IS NULL"#), as: Int64.self) ?? 0),
                failures: Int(try s.scalar(SQLText("SELECT count(*) FROM failures"), as: Int64.self) ?? 0),
                roots: try s.query(roots).map { MediaPath(bytes: Array($0.makeRandomAccess()[0].value(Data.self) ?? Data())) },
                playlists: Int(try s.scalar(SQLText("SELECT count(*) FROM playlists"), as: Int64.self) ?? 0))
        }
    }
}
