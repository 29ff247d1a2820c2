#if canImport(Glibc)
import Glibc
#endif
import MediaIndex
import MediaModel

/// What keeps an item's identity: the one place that decides, over the store's primitives, whether a file
/// the scan found at an unknown path is an indexed item that moved, and whether an indexed item the scan
/// did not find may be removed. Every store, `mlib scan` and a subtree scan go through it.
///
/// Evidence, strongest first:
/// 1. **The inode**, at once, while walking: a new path whose inode (on the same device) an item has, while
///    that item's old path no longer exists, is the item renamed (`rename(2)` keeps the inode; so do taggers
///    that rewrite in place). The row's path changes; no new row is ever made, so nothing can attach to one.
///    This tells byte-identical copies apart and survives a retag in the same go.
/// 2. **The content** (size and fingerprint), at the end, for items that vanished: a row added since the
///    item's root was last walked completely with the same bytes at both ends is the item copied and then
///    deleted (another disk, another root, a sync tool). Ties go to the same file name, then the same folder
///    name, then the oldest row.
/// 3. **What the tags say**: the same MusicBrainz recording ID, or the same title, artist, album, container
///    and duration: a file rewritten by a tagger (new inode, new fingerprint) and renamed.
/// A row paired by 2 or 3 is folded into the item: the item keeps its id and takes the row's path and
/// file data; whatever the user did with the row meanwhile is carried over.
/// Only then is a vanished item removed, and never one below a directory the walk could not see (see
/// `ScanRun.finishTarget`).
final class Moves {
    /// Items not found by this scan so far, by id.
    private(set) var vanished: [Int64: VanishedItem] = [:]
    /// Items renamed by inode during this scan: never vanished, never claimed twice.
    private var claimed: Set<Int64> = []

    func isClaimed(_ id: Int64) -> Bool { claimed.contains(id) }

    func noteVanished(_ item: VanishedItem) {
        guard !claimed.contains(item.id) else { return }
        vanished[item.id] = item
    }

    /// Drops the vanished items below `directory`: the walk could not see them, so they are kept.
    func keep(under directory: MediaPath) -> Int {
        let kept = vanished.values.filter { $0.path.hasPrefix(directory: directory) }
        for item in kept { vanished[item.id] = nil }
        return kept.count
    }

    /// The item `file` is, renamed, if the inode says so (evidence 1); it is then claimed.
    func claim(_ file: DirectoryListing.File, among matches: [InodeMatch]) -> InodeMatch? {
        let candidates = matches.filter { match in
            guard !claimed.contains(match.id), match.path != file.path else { return false }
            // Recorded by an older mlib without a device: only a pure rename (same size) is taken.
            if let device = match.device { guard device == file.device else { return false } } else if match.stamp.size != file.stamp.size {
                return false
            }
            return Self.isGone(match.path)
        }
        guard let match = candidates.min(by: { $0.id < $1.id }) else { return nil }
        claimed.insert(match.id)
        vanished[match.id] = nil
        return match
    }

    /// True when nothing is at `path` any more (not when it cannot be looked at).
    private static func isGone(_ path: MediaPath) -> Bool {
        var st = stat()
        if path.withCString({ lstat($0, &st) }) == 0 { return false }
        return errno == ENOENT || errno == ENOTDIR
    }

    /// Pairs the vanished items with rows that may be them (evidence 2 and 3), strongest evidence first.
    func pairs(among candidates: [MoveCandidate]) -> [MoveCandidate] {
        func likeness(_ c: MoveCandidate) -> Int {
            guard let item = vanished[c.vanishedID] else { return 0 }
            return (item.path.lastComponent == c.rowPath.lastComponent ? 2 : 0)
                + (item.path.directory.lastComponent == c.rowPath.directory.lastComponent ? 1 : 0)
        }
        let ordered = candidates.sorted {
            ($0.evidence, -likeness($0), $0.vanishedID, $0.rowID) < ($1.evidence, -likeness($1), $1.vanishedID, $1.rowID)
        }
        var itemsTaken: Set<Int64> = [], rowsTaken: Set<Int64> = []
        var chosen: [MoveCandidate] = []
        for candidate in ordered where vanished[candidate.vanishedID] != nil {
            guard !itemsTaken.contains(candidate.vanishedID), !rowsTaken.contains(candidate.rowID) else { continue }
            itemsTaken.insert(candidate.vanishedID)
            rowsTaken.insert(candidate.rowID)
            chosen.append(candidate)
        }
        return chosen
    }

    /// Ends the scan's identity work: folds the moved rows into their items, then removes what is left, in
    /// batches of `batchSize` (each one transaction, so a reader never sees half a fold), stopping between
    /// batches when asked. Returns how many were folded, how many of those rows this scan had added, and how
    /// many items were removed.
    func resolve(in index: SQLiteIndex, generation: Int64?, batchSize: Int,
                 shouldStop: () -> Bool) throws -> (moved: Int, movedRowsAddedNow: Int, removed: Int, stopped: Bool) {
        guard !vanished.isEmpty else { return (0, 0, 0, false) }
        let chosen = pairs(among: try index.moveCandidates(for: Array(vanished.values)))
        var moved = 0, addedNow = 0, removed = 0
        for start in stride(from: 0, to: chosen.count, by: batchSize) {
            if shouldStop() { return (moved, addedNow, removed, true) }
            let batch = chosen[start..<min(start + batchSize, chosen.count)]
            try index.fold(batch.map { (item: $0.vanishedID, row: $0.rowID) })
            for pair in batch { vanished[pair.vanishedID] = nil }
            moved += batch.count
            addedNow += batch.filter { $0.rowGeneration == generation }.count
        }
        let gone = vanished.keys.sorted()
        for start in stride(from: 0, to: gone.count, by: batchSize) {
            if shouldStop() { return (moved, addedNow, removed, true) }
            let batch = Array(gone[start..<min(start + batchSize, gone.count)])
            try index.removeItems(batch)
            for id in batch { vanished[id] = nil }
            removed += batch.count
        }
        return (moved, addedNow, removed, false)
    }
}
