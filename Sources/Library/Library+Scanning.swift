import Foundation
import MediaIndex
import MediaModel
import MediaScanner
import TagWriting
#if PostgreSQL
import PostgresStore
#endif

extension Library {
    /// How a scan runs; every field has the default `mlib scan` uses.
    public struct ScanOptions: Sendable {
        /// Files read at once.
        public var width = ProcessInfo.processInfo.activeProcessorCount
        /// Items written per transaction.
        public var batchSize = 500
        /// Globs left out below every root, on top of the exclude lists (`.mlibignore`, `.mpdignore`, stored).
        public var excludes: [String] = []
        /// How long to wait for another scan to finish: nil as long as it takes, 0 not at all (the lock's
        /// busy error is thrown at once; see `Library.isScanLockBusy`).
        public var lockTimeout: Double?
        /// Asked between batches: true stops the scan after committing what it has read; asked while waiting
        /// for another scan's lock too: true then ends the wait with a `CancellationError`, nothing written.
        public var shouldStop: @Sendable () -> Bool = { false }
        /// Called (from the scan's tasks) as it goes: files seen, read, the directory.
        public var progress: (@Sendable (ScanProgress) -> Void)?
        /// Whether a file gone and one come may be paired as a move on weak evidence across scans (see
        /// `MediaScanner.weakEvidenceAcrossScans`); `mlib watch` turns it off between event-driven scans.
        public var weakEvidenceAcrossScans = true
        /// Said once when the scan has to wait for another one.
        public var onWait: @Sendable () -> Void = {}
        /// Said once before the scan when it will read again files an older mlib read (unchanged but read
        /// again, with ids and user data kept): the count.
        public var onRereading: @Sendable (Int) -> Void = { _ in }
        /// Said with the items the scan leaves as possible moves (their old paths), before it removes or
        /// hides them (`MediaScanner.onPossibleMoves`): a scan killed after that has told the user.
        public var onPossibleMoves: (@Sendable ([MediaPath]) -> Void)?

        public init() {}
    }

    /// What a scan did: the scanner's summary and the playlist files mirrored after it.
    public struct ScanResult: Sendable {
        public var summary: ScanSummary
        /// The playlist mirroring that followed (empty when the scan was interrupted: nothing is mirrored
        /// from a half-walked tree).
        public var playlists: PlaylistMirror.Report
        /// Stopped before the end (`shouldStop`): what was read is committed; the next scan completes it.
        public var interrupted: Bool
        /// Interrupted tag writes completed before the scan read anything (`TagJournal.Recovery.messages`).
        public var tagRecovery = TagJournal.Recovery()
    }

    /// Between `rememberRoots(true)` and `(false)` (nested calls count) what a scan asks of this host's
    /// roots is read once (`SQLStore.rememberRoots`): for a command that looks at the roots before it scans
    /// (`mlib scan` checks there are some), so that both are one statement (issue 38: a round trip each over
    /// a slow link). `scan` remembers them for itself.
    public func rememberRoots(_ on: Bool) {
        (store as? SQLStore)?.rememberRoots(on)
    }

    /// What scanning `directories` means for this library (`ScanPlan`): roots, subtrees of roots, new roots.
    /// `directories` must be absolute and resolved (realpath), as roots are stored; empty means every root.
    /// (Not resolved here: `mlib watch` scans a directory through a symlink inside a root by its path there.)
    public func plan(_ directories: [MediaPath]) throws -> ScanPlan {
        ScanPlan(directories: directories, roots: try store.roots())
    }

    /// Adds the roots that scanning `directories` makes new, under the scan lock, and returns the plan
    /// (for a caller that scans later, as `mlib watch` does; `scan` does this itself).
    @discardableResult
    public func addRoots(for directories: [MediaPath], options: ScanOptions = ScanOptions()) throws -> ScanPlan {
        let plan = try plan(directories)
        guard !plan.newRoots.isEmpty else { return plan }
        let lock = try scanLock(roots: plan.newRoots, timeout: options.lockTimeout, onWait: options.onWait, shouldStop: options.shouldStop)
        defer { withExtendedLifetime(lock) {} }
        for root in plan.newRoots { try store.addRoot(root) }
        return plan
    }

    /// Scans `directories` (every root when empty; a directory outside every root becomes a new root):
    /// takes the scan lock this library's store needs and holds it to the end, says how many files an
    /// older mlib read are read again, walks, diffs, reads and writes (`MediaScanner`), then mirrors the
    /// playlist files found (`PlaylistMirror`). The one scan of `mlib scan`, `mlib watch` and `update` in
    /// `mlib serve`.
    public func scan(_ directories: [MediaPath] = [], options: ScanOptions = ScanOptions()) async throws -> ScanResult {
        // The roots asked once for the whole scan (its plan, its lock, the scanner, the complete walks).
        rememberRoots(true)
        defer { rememberRoots(false) }
        // The shares this host joined are scanned on their own store (`scanShare`), this host's roots after.
        let (plan, shares) = try separatingShares(try self.plan(directories))
        var shareResults: [ScanResult] = []
        for part in shares {
            if let result = try await scanShare(part.share, part.directories, options: options) { shareResults.append(result) }
        }
        if plan.directories.isEmpty && !shares.isEmpty { return Self.combining(shareResults)! }
        let roots = try lockedRoots(plan)
        // Waiting for another scan's lock can take minutes: on a thread of its own, not one of the few of
        // the concurrency pool (the MPD server's `update` runs here while the server goes on).
        let (lock, waited) = try await Self.onOwnThread {
            var waited = false
            let lock = HeldLock(try self.scanLock(roots: roots, timeout: options.lockTimeout,
                                                  onWait: { waited = true; options.onWait() }, shouldStop: options.shouldStop))
            return (lock, waited)
        }
        defer { withExtendedLifetime(lock) {} }
        // What was remembered before the lock (the plan's roots, `mlib scan`'s check) is stale when another
        // scan held the lock meanwhile: it hid, showed and folded items (watch model, seeds 4 and 18: a scan of
        // every root paired an item the watcher had just folded with a retagged file, as still hidden at its
        // old path, with the copy, and the retagged file was left without an item). Read again, under it: on
        // SQLite always (a local read); on PostgreSQL when the lock was waited for (one statement more).
        if waited || { if case .postgres? = locator { return false } else { return true } }() {
            (store as? SQLStore)?.forgetRememberedRoots()
        }
        // A tag write interrupted since the library was opened (a long-running serve or watch) is completed
        // before the scan reads its file: the index never holds a half-written file's tags.
        let tagRecovery = TagJournal.recoverInterruptedWrites()
        for root in plan.newRoots { try store.addRoot(root) }

        var scanner = MediaScanner(index: store, width: options.width, batchSize: options.batchSize,
                                   shouldStop: options.shouldStop, progress: options.progress)
        scanner.excludes = options.excludes
        scanner.weakEvidenceAcrossScans = options.weakEvidenceAcrossScans
        scanner.onPossibleMoves = options.onPossibleMoves
        // Said once, before the scan: these files are read although they did not change.
        let olderReads = try scanner.filesReadByAnOlderReader(in: plan.directories)
        if olderReads > 0 { options.onRereading(olderReads) }
        let summary = try await scanner.scan(plan.directories)
        let interrupted = summary.interrupted || options.shouldStop()
        let playlists = interrupted ? PlaylistMirror.Report()
            : PlaylistMirror.sync(summary.playlistFiles, into: store, completeRoots: summary.completeRoots)
        if summary.removed > 0 { try store.trimItemChanges(keepingRemoved: Self.removalsLogged) }
        let result = ScanResult(summary: summary, playlists: playlists, interrupted: interrupted, tagRecovery: tagRecovery)
        return Self.combining([result] + shareResults)!
    }

    /// How many removed items the change log remembers (`ItemChangeLog.trimItemChanges`), trimmed after a
    /// scan that removed some: a live view looks every half second, so one that is further behind than
    /// this is rare and reads the library again.
    public static let removalsLogged = 10_000

    /// What scanning `directories` (every root when empty) would read, and what the exclude lists leave
    /// out, walked as a scan walks (`MediaScanner.dryRun`); nothing is read or written, no lock is taken.
    public func dryRun(_ directories: [MediaPath] = [], options: ScanOptions = ScanOptions(),
                       _ body: (DryRunEntry) -> Void) throws {
        var scanner = MediaScanner(index: store)
        scanner.excludes = options.excludes
        try scanner.dryRun(try plan(directories).directories, body)
    }

    /// Removes `root` and what is indexed under it (not what another root covers), under the scan lock.
    /// A share this host joined: this host leaves it (`leaveShare`), its items stay for the other hosts.
    public func forgetRoot(_ root: MediaPath, options: ScanOptions = ScanOptions()) throws {
        if let share = try sharedRoots().first(where: { $0.path == root }) {
            try leaveShare(share, options: options)
            return
        }
        let lock = try scanLock(roots: [root], timeout: options.lockTimeout, onWait: options.onWait, shouldStop: options.shouldStop)
        defer { withExtendedLifetime(lock) {} }
        try store.removeRoot(root)
        try store.trimItemChanges(keepingRemoved: Self.removalsLogged)
    }

    /// Rewrites every path under root `from` to lie under `to` (identity and user data stay), under the
    /// scan lock.
    public func relocateRoot(_ from: MediaPath, to: MediaPath, options: ScanOptions = ScanOptions()) throws {
        let lock = try scanLock(roots: [from], timeout: options.lockTimeout, onWait: options.onWait, shouldStop: options.shouldStop)
        defer { withExtendedLifetime(lock) {} }
        try store.relocateRoot(from, to: to)
    }

    /// The roots a scan of `plan` writes under: the library's roots that hold its directories, and the new ones.
    func lockedRoots(_ plan: ScanPlan) throws -> [MediaPath] {
        let known = try store.roots().filter { root in plan.directories.contains { $0 == root || $0.hasPrefix(directory: root) } }
        return known + plan.newRoots.filter { !known.contains($0) }
    }

    /// The lock a scan of `roots` holds while it writes: the lock file beside an SQLite library (one scan
    /// at a time; `<library>.lock`), or a session advisory lock per root on PostgreSQL (scans of other
    /// roots, from this host or others, go on meanwhile); none for a store with no locator. The one place
    /// that knows which store needs which lock. With `timeout` nil it waits as long as needed (`onWait`
    /// said once), with 0 it throws the lock's busy error at once. A wait ends with a `CancellationError`
    /// once `shouldStop` is true (asked every 0.1 s), before anything is written.
    public func scanLock(roots: [MediaPath], timeout: Double?, onWait: () -> Void = {},
                         shouldStop: () -> Bool = { false }) throws -> AnyObject? {
        switch locator {
        case nil:
            return nil
        case .sqlite(let path)?:
            return try ScanLock(libraryPath: path, timeout: timeout, onWait: onWait, shouldStop: shouldStop)
        case .postgres(let url)?:
            #if PostgreSQL
            let index = try store as? PostgresIndex ?? PostgresIndex(try PostgresLocation(url: url), mode: .existing)
            return try PostgresRootLock(index: index, roots: roots, timeout: timeout, onWait: onWait, shouldStop: shouldStop)
            #else
            _ = try LibraryLocator.postgres(url: url).open(.existing)    // says why it cannot
            return nil
            #endif
        }
    }

    /// Runs `body` on a new thread and returns what it returns (for blocking waits).
    static func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Whether `error` says another scan holds the lock (rather than that the lock or the library failed).
    public static func isScanLockBusy(_ error: any Error) -> Bool {
        if case ScanLock.Failure.busy? = error as? ScanLock.Failure { return true }
        #if PostgreSQL
        if case PostgresRootLock.Failure.busy? = error as? PostgresRootLock.Failure { return true }
        #endif
        return false
    }
}

/// A scan lock handed from the thread that waited for it to the scan that holds it (the lock objects are
/// not `Sendable`; the handing over is their only crossing).
final class HeldLock: @unchecked Sendable {
    let lock: AnyObject?
    init(_ lock: AnyObject?) { self.lock = lock }
}
