import MediaModel

/// What `MediaScanner` needs from a store: its primitives, and nothing of the policy that uses them (which
/// files are moves, what may be removed: see MediaScanner's `Moves`). `SQLiteIndex` and `PostgresIndex`
/// conform, and inherit the scanner's identity rules unchanged.
///
/// Every requirement keeps the store contract (`LibraryStore`: synchronous, never on an event loop, not
/// reentrant, `IndexError` only). Each call is its own transaction unless it says otherwise; on a library
/// shared by several hosts every requirement sees and writes this host's rows only. Callers: the scanner,
/// under the library's scan lock (`Library.scan`), so two writers of one root never interleave.
public protocol ScanStore: Sendable {
    /// A store on another connection to the same library, to read directory state while this one writes
    /// (one per scan: it reads directories ahead, in byte order, and is not for other callers).
    func readingConnection() throws -> any ScanStore

    // Reading

    /// This host's roots with their last complete walk's generation and their exclude lists, by path.
    func rootStates() throws -> [RootState]
    /// The items under `root` (for a progress estimate).
    func itemCount(under root: MediaPath) throws -> Int
    /// Items and failures under `root` that a reader older than `readerVersion` recorded (a scan reads them
    /// again).
    func itemCount(under root: MediaPath, readBefore readerVersion: Int) throws -> Int
    /// Whether this host has no item at all (a first scan has nothing to look up).
    func isEmpty() throws -> Bool
    /// The items (hidden ones too, flagged) and failure records in `directory`, by path. On the scan's
    /// `readingConnection`, the next directories in byte order come in the same statement, each statement
    /// on the latest commit (no snapshot across directories: the writer commits between them).
    func directoryState(_ directory: MediaPath) throws -> DirectoryState
    /// Every directory holding items or failures under `root` (root included), in byte order.
    func indexedDirectories(under root: MediaPath) throws -> [MediaPath]
    /// The items whose recorded inode is one of `inodes`, by inode (a file found at an unknown path may be
    /// one of them renamed); inodes with no item are absent.
    func items(withInodes inodes: [Int64]) throws -> [Int64: [InodeMatch]]
    /// The mount points recorded under `root` (itself included), in no order.
    func mounts(under root: MediaPath) throws -> [MountPoint]
    /// The lyrics sidecars recorded for the items under `root`, by item id (`LyricsStore`; one read per scan).
    func lyricsSidecars(under root: MediaPath) throws -> [Int64: [SidecarStamp]]
    /// The items hidden by partial scans (`hideItems`), as vanished items whose window is the generation
    /// that added them, in no order.
    func hiddenItems() throws -> [VanishedItem]

    // Generations

    /// The newest generation handed out so far (0 for a new library).
    func currentGeneration() throws -> Int64
    /// Hands out the next generation, in a write of its own: the rows a scan adds carry it. Two calls never
    /// return the same value, from any process.
    func newGeneration() throws -> Int64

    // Writing: a batch of edits is one transaction; so is each call below.

    /// Applies one batch of a scan's edits in one transaction, in order (moves and failures at once, new
    /// and changed rows together after, so a path a move frees is free for them); new rows carry
    /// `generation`, else a new one handed out at the first new row. User data is never written.
    func apply(_ changes: [ScanChange], generation: Int64?) throws
    /// Rows added after each sought item's window that may be that item moved, by one kind of `evidence`
    /// (`MoveEvidenceRules`). `vanished` is every item this scan did not find (none of them is a candidate);
    /// `seeking` the ids among them to find rows for (all when nil). In no order; one read.
    func moveCandidates(for vanished: [VanishedItem], seeking: Set<Int64>?, evidence: MoveCandidate.Evidence) throws -> [MoveCandidate]
    /// Records which items added before `generation` had the audio of each row it added, leaving out
    /// `vanished` (`possible_moves`): a row added beside another item's audio is never paired by weak evidence
    /// with a third item, also once that item is gone. One transaction. `isGone`: whether nothing is at an
    /// item's path now; such an item is left out too (a partial scan did not look there: it may have moved to
    /// the row), so every record names an item whose file was there beside the row.
    func recordPossibleMoves(generation: Int64, vanished: [Int64], isGone: (MediaPath) -> Bool) throws
    /// Records each item a scan left unpaired as a possible move ("no guess") against the rows weak evidence
    /// paired it with (`possible_moves`, naming the item itself): those rows stay doubtful for it, and for
    /// any other item, once the other claims have left (the other item removed, or its window closed by a
    /// complete walk of its root). Rows that are gone are skipped. One transaction.
    func recordUndecidedMoves(_ pairs: [(row: Int64, item: Int64)]) throws
    /// Folds each moved row into the item it was, in one transaction: the item takes the row's path and file
    /// data and keeps its id; plays, skips, a rating and playlist entries given to the row meanwhile are
    /// carried over; then the row goes.
    func fold(_ pairs: [(item: Int64, row: Int64)]) throws
    /// Removes items (their playlist entries go with them) and their failure records, in one transaction.
    /// Ids that are not items are skipped.
    func removeItems(_ ids: [Int64]) throws
    /// Hides items a partial scan did not find: out of every query, kept with their ids and user data for
    /// the scan that finds them again or a scan of every root that shows them gone.
    func hideItems(_ ids: [Int64]) throws
    /// Hides `ids` and shows the rows `generation` added hidden, in one transaction: a reader sees either a
    /// moved file's item or its new row, never both.
    func hideItems(_ ids: [Int64], showingRowsOf generation: Int64?) throws
    /// Records a complete walk of `root` (its generation, the mount points found under it); writes nothing
    /// when both are as recorded, so an unchanged rescan writes nothing. Reads, then writes: two transactions.
    func completeWalk(of root: MediaPath, generation: Int64, mounts: [MountPoint]) throws

    // A first scan's bulk load (issue 50): indexes built once at its end rather than kept row by row.

    /// Drops the secondary indexes a first scan's writes keep up row by row and a store builds faster at
    /// once, recording them so that a killed scan's next open or scan puts them back; queries still answer
    /// meanwhile, more slowly, and full-text search misses the rows written since. Returns whether anything
    /// was dropped. Only for a scan of a library with no item, under its scan lock. Default: nothing.
    func deferIndexes() throws -> Bool
    /// Puts back what `deferIndexes` dropped, in one transaction (also one a killed scan dropped); nothing
    /// when nothing is recorded. Default: nothing.
    func restoreDeferredIndexes() throws
}

extension ScanStore {
    public func deferIndexes() throws -> Bool { false }
    public func restoreDeferredIndexes() throws {}
    /// A batch whose new rows carry a new generation.
    public func apply(_ changes: [ScanChange]) throws { try apply(changes, generation: nil) }
}
