import MediaModel

/// What `MediaScanner` needs from a store: its primitives, and nothing of the policy that uses them (which
/// files are moves, what may be removed: see MediaScanner's `Moves`). `SQLiteIndex` and `PostgresIndex` conform, and
/// inherit the scanner's identity rules unchanged. Each call is its
/// own transaction unless it says otherwise.
public protocol ScanStore: Sendable {
    /// A store on another connection to the same library, to read directory state while this one writes.
    func readingConnection() throws -> any ScanStore

    // Reading
    func rootStates() throws -> [RootState]
    func itemCount(under root: MediaPath) throws -> Int
    /// Items and failures under `root` that a reader older than `readerVersion` recorded.
    func itemCount(under root: MediaPath, readBefore readerVersion: Int) throws -> Int
    func isEmpty() throws -> Bool
    func directoryState(_ directory: MediaPath) throws -> DirectoryState
    func indexedDirectories(under root: MediaPath) throws -> [MediaPath]
    func items(withInodes inodes: [Int64]) throws -> [Int64: [InodeMatch]]
    func mounts(under root: MediaPath) throws -> [MountPoint]
    func hiddenItems() throws -> [VanishedItem]

    // Generations
    func currentGeneration() throws -> Int64
    func newGeneration() throws -> Int64

    // Writing: a batch of edits is one transaction; so is each call below.
    func apply(_ changes: [ScanChange], generation: Int64?) throws
    func moveCandidates(for vanished: [VanishedItem], seeking: Set<Int64>?, evidence: MoveCandidate.Evidence) throws -> [MoveCandidate]
    func fold(_ pairs: [(item: Int64, row: Int64)]) throws
    func removeItems(_ ids: [Int64]) throws
    func hideItems(_ ids: [Int64]) throws
    /// Hides `ids` and shows the rows `generation` added hidden, in one transaction.
    func hideItems(_ ids: [Int64], showingRowsOf generation: Int64?) throws
    func completeWalk(of root: MediaPath, generation: Int64, mounts: [MountPoint]) throws
}

extension ScanStore {
    /// A batch whose new rows carry a new generation.
    public func apply(_ changes: [ScanChange]) throws { try apply(changes, generation: nil) }
}
