import Foundation
import GRDB
import MediaIndex
import MediaModel

// Library roots: adding, forgetting (nested roots keep what they cover), relocating, and what the scanner
// records about each (the generation of its last complete walk, the mount points under it).
extension SQLiteIndex {
    public func roots() throws -> [MediaPath] {
        try rootStates().map(\.path)
    }

    public func rootStates() throws -> [RootState] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT path, complete_gen, excludes FROM roots ORDER BY path").map {
                RootState(path: MediaPath(bytes: Array($0[0] as Data)), completeGeneration: $0[1],
                          excludes: ($0[2] as String).split(separator: "\n").map(String.init))
            }
        }
    }

    /// Replaces a root's stored exclude list (patterns as in a .mlibignore at the root). The next scan of
    /// the root hides what the list leaves out and brings back, with their ids, what it no longer does.
    public func setExcludes(_ patterns: [String], of root: MediaPath) throws {
        try write { db in
            try db.execute(sql: "UPDATE roots SET excludes = ? WHERE path = ?",
                           arguments: [patterns.joined(separator: "\n"), Data(root.bytes)])
        }
    }

    /// Adds a root; returns false when it was already there (no write then).
    @discardableResult
    public func addRoot(_ root: MediaPath) throws -> Bool {
        if try read({ db in try Bool.fetchOne(db, sql: "SELECT 1 FROM roots WHERE path = ?", arguments: [Data(root.bytes)]) }) != nil {
            return false
        }
        try write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO roots (path, path_text, added) VALUES (?, ?, ?)",
                           arguments: [Data(root.bytes), root.string, Date().timeIntervalSince1970])
        }
        return true
    }

    /// Forgets a root and everything indexed under it that no other root covers: forgetting a root nested in
    /// another removes no item, and forgetting the outer one keeps what the nested one holds.
    public func removeRoot(_ root: MediaPath) throws {
        let others = try roots().filter { $0 != root }
        try write { db in
            try db.execute(sql: "DELETE FROM roots WHERE path = ?", arguments: [Data(root.bytes)])
            try db.execute(sql: "DELETE FROM mounts WHERE path = ?", arguments: [Data(root.bytes)])
            guard !others.contains(where: { root.hasPrefix(directory: $0) }) else { return }
            var condition = "(dir = ? OR (dir >= ? AND dir < ?))"
            let (lower, upper) = root.rangeBelow
            var arguments: [DatabaseValueConvertible] = [Data(root.bytes), lower, upper]
            for nested in others where nested.hasPrefix(directory: root) {
                let (l, u) = nested.rangeBelow
                condition += " AND NOT (dir = ? OR (dir >= ? AND dir < ?))"
                arguments += [Data(nested.bytes), l, u]
            }
            for table in ["items", "failures"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE \(condition)", arguments: StatementArguments(arguments))
            }
            try db.execute(sql: "DELETE FROM mounts WHERE path >= ? AND path < ?", arguments: [lower, upper])
        }
    }

    /// Moves a root and everything under it to a new place (`/mnt/nas` → `/media/nas`): every path is
    /// rewritten, ids, user data and playlist entries stay. The next scan of the new root then finds the
    /// files where the index says they are.
    public func relocateRoot(_ old: MediaPath, to new: MediaPath) throws {
        if let reason = RootRelocation.refusal(roots: try roots(), old: old, new: new) {
            throw IndexError.invalidArgument(database: path, reason: reason)
        }
        func moved(_ bytes: Data) -> MediaPath {
            MediaPath(bytes: new.bytes + Array(bytes.dropFirst(old.bytes.count)))
        }
        let (lower, upper) = old.rangeBelow
        try write { db in
            for table in ["items", "failures"] {
                let key = table == "items" ? "id" : "path"
                let rows = try Row.fetchAll(db, sql: "SELECT \(key), path FROM \(table) WHERE dir = ? OR (dir >= ? AND dir < ?)",
                                            arguments: [Data(old.bytes), lower, upper])
                let update = try db.cachedStatement(sql: "UPDATE \(table) SET path = ?, path_text = ?, dir = ? WHERE \(key) = ?")
                for row in rows {
                    let path = moved(row[1])
                    try update.execute(arguments: [Data(path.bytes), path.string, Data(path.directory.bytes), row[0] as DatabaseValue])
                }
            }
            for (table, column) in [("playlists", "source"), ("mounts", "path")] {
                let rows = try Data.fetchAll(db, sql: "SELECT \(column) FROM \(table) WHERE \(column) = ? OR (\(column) >= ? AND \(column) < ?)",
                                             arguments: [Data(old.bytes), lower, upper])
                for bytes in rows {
                    try db.execute(sql: "UPDATE \(table) SET \(column) = ? WHERE \(column) = ?", arguments: [Data(moved(bytes).bytes), bytes])
                }
            }
            try db.execute(sql: "UPDATE roots SET path = ?, path_text = ? WHERE path = ?",
                           arguments: [Data(new.bytes), new.string, Data(old.bytes)])
        }
    }

    /// Records a complete walk of `root`: rows added after `generation` are the candidates for items that
    /// vanish from it later, and `mounts` are the mount points found under it (written only when changed,
    /// so an unchanged rescan writes nothing).
    public func completeWalk(of root: MediaPath, generation: Int64, mounts: [MountPoint]) throws {
        let (lower, upper) = root.rangeBelow
        let known = try self.mounts(under: root)
        let recorded = try read { db in
            try Int64.fetchOne(db, sql: "SELECT complete_gen FROM roots WHERE path = ?", arguments: [Data(root.bytes)])
        }
        guard recorded != generation || Set(known) != Set(mounts) else { return }
        try write { db in
            try db.execute(sql: "UPDATE roots SET complete_gen = ? WHERE path = ?", arguments: [generation, Data(root.bytes)])
            try db.execute(sql: "DELETE FROM mounts WHERE path = ? OR (path >= ? AND path < ?)",
                           arguments: [Data(root.bytes), lower, upper])
            for mount in mounts {
                try db.execute(sql: "INSERT OR REPLACE INTO mounts (path, device) VALUES (?, ?)",
                               arguments: [Data(mount.path.bytes), mount.device])
            }
        }
    }

    /// The mount points recorded under `root` (itself included).
    public func mounts(under root: MediaPath) throws -> [MountPoint] {
        let (lower, upper) = root.rangeBelow
        return try read { db in
            try Row.fetchAll(db, sql: "SELECT path, device FROM mounts WHERE path = ? OR (path >= ? AND path < ?) ORDER BY path",
                             arguments: [Data(root.bytes), lower, upper]).map {
                MountPoint(path: MediaPath(bytes: Array($0[0] as Data)), device: $0[1])
            }
        }
    }
}
