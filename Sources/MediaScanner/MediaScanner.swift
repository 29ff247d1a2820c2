import Foundation
import MediaIndex
import MediaModel
import MediaProbe

/// Keeps the index in step with directory trees. The steps, one file each (MPD's `src/db/update/` is the
/// model): `TreeWalker` walks (a thread of its own, a bounded distance ahead); `ScanRun` diffs each
/// directory against the index (size, mtime and inode) and claims renamed items by inode; `ProbeOutcome`
/// reads what is new or changed, `width` files at a time in child tasks (C handles never leave their task);
/// `BatchWriter` commits `batchSize` edits per transaction on a thread of its own, so memory stays flat and
/// an interrupted scan leaves whole batches only; `Moves` then pairs vanished items with rows that are
/// them moved, and removes the rest, keeping whatever lies where the walk could not see.
public struct MediaScanner: Sendable {
    public var index: any ScanStore
    /// Files probed at once (default: the number of cores).
    public var width: Int
    /// Edits per transaction.
    public var batchSize: Int
    /// Polled between directories and files; when true the scan stops after committing what it has.
    public var shouldStop: @Sendable () -> Bool
    /// Called about ten times a second while scanning.
    public var progress: (@Sendable (ScanProgress) -> Void)?
    /// Patterns left out below every root, besides the `.mlibignore`/`.mpdignore` files in the tree
    /// (see `ExcludeList`).
    public var excludes: [String] = []
    /// Whether a vanished item may pair, by weak evidence (the same audio, MusicBrainz ID or tags; not the
    /// same bytes), with a row an earlier scan added. True for scans that were blind in between (cron): a
    /// file retagged and moved to another root, seen there by a scan of that root alone, keeps its item at
    /// the next full scan. `mlib watch` sets it false for the scans its events ask for: it saw the item
    /// still there when that row was added, so two recordings of the same audio stay two items when one
    /// is deleted.
    public var weakEvidenceAcrossScans = true
    /// Called with the items the scan leaves unpaired as possible moves (`ScanSummary.ambiguousMoves`, by
    /// their old paths), before it removes or hides them: a scan killed after that commit has said so (issue
    /// 47, seed 3 on PostgreSQL: a kill between the removal and the end of the scan left nobody told). A scan
    /// killed before the commit has removed nothing; the next scan says it again.
    public var onPossibleMoves: (@Sendable ([MediaPath]) -> Void)?
    /// From how many media files under the scanned directories a first scan of an empty SQLite library
    /// drops its secondary and full-text indexes and builds them once at its end (`ScanStore.deferIndexes`);
    /// `Int.max`: never. Default `ScanRun.deferIndexesFrom`, or `MLIB_DEFER_INDEXES_FROM` when set (for
    /// tests and benchmarks: the same corpus scanned both ways).
    public var deferIndexesFrom: Int = ProcessInfo.processInfo.environment["MLIB_DEFER_INDEXES_FROM"].flatMap { Int($0) }
        ?? ScanRun.deferIndexesFrom

    public init(index: any ScanStore, width: Int = ProcessInfo.processInfo.activeProcessorCount, batchSize: Int = 500,
                shouldStop: @escaping @Sendable () -> Bool = { false }, progress: (@Sendable (ScanProgress) -> Void)? = nil) {
        self.index = index
        self.width = max(1, width)
        self.batchSize = max(1, batchSize)
        self.shouldStop = shouldStop
        self.progress = progress
    }

    static let chunkSize = 8
    /// Enough queued work to keep the other core probing while the collector commits a 500-row batch
    /// (~50 ms); measured on 10,000 files: 2 → 1.55 s, 16 → 1.38 s, 32 and 64 no faster and more CPU.
    static let chunksInFlightPerCore = 16

    /// Scans `directories` (absolute paths): each a library root, or a directory inside one, whose subtree
    /// alone is then brought up to date. Roots are not added here: see `SQLiteIndex.addRoot` and `ScanPlan`.
    public func scan(_ directories: [MediaPath]) async throws -> ScanSummary {
        // Indexes a killed first scan left dropped are put back before anything is diffed against them.
        try index.restoreDeferredIndexes()
        let run = try ScanRun(index: index, batchSize: batchSize, progress: progress)
        // However the scan ends, the indexes it dropped are put back (a failure leaves them to the next
        // scan or open, as a kill does).
        defer { if run.indexesDeferred { try? run.writer.drain(); try? index.restoreDeferredIndexes() } }
        let rootStates = try index.rootStates()
        if progress != nil { run.expectedFiles = try directories.reduce(0) { $0 + (try index.itemCount(under: $1)) } }
        var targets: [ScanTarget] = []
        var goneTargets: [ScanTarget] = []
        for directory in directories {
            // A path the kernel would resolve elsewhere (`root/../x`) is no subtree of a root, nor a root.
            guard RootContainment.isPlainAbsolute(directory) else {
                run.summary.missingRoots.append(.init(path: directory, reason: "not a plain absolute path (a '.', '..' or empty component); not scanned"))
                continue
            }
            let holder = RootContainment.root(holding: directory, among: rootStates.map(\.path))
            let root = rootStates.first { $0.path == holder }
            let target = ScanTarget(path: directory, root: root?.path ?? directory, window: root?.completeGeneration ?? 0)
            if root != nil && !target.isWholeRoot && Self.isGone(directory) { goneTargets.append(target); continue }
            if let problem = try missingRootProblem(directory) { run.summary.missingRoots.append(problem); continue }
            targets.append(target)
        }
        for target in targets where !LyricsReader.isAblated { run.storedSidecars.merge(try index.lyricsSidecars(under: target.path)) { a, _ in a } }
        try run.deferIndexesIfLarge(targets.map(\.path), from: deferIndexesFrom)
        let walk = WalkAhead(roots: targets.map(\.path), libraryRoots: rootStates.map(\.path), excludes: excludes,
                             rootExcludes: Self.rootExcludes(rootStates))
        defer { walk.cancel() }
        // A first scan has no estimate from the index: count the files beside the walk, for the ETA.
        if progress != nil && run.expectedFiles == 0 {
            run.fileCounter = FileCounter(roots: targets.map(\.path), libraryRoots: rootStates.map(\.path),
                                          excludes: excludes, rootExcludes: Self.rootExcludes(rootStates))
        }
        defer { run.fileCounter?.cancel() }
        var unreadable: [(path: MediaPath, reason: String)] = []
        var current = 0

        // Files are probed in chunks of `chunkSize` per child task: one task per file left each worker
        // thread idle between files while the collector woke up to hand it the next (perf sched showed
        // ~10,000 sleeps per thread for 10,000 files and only 1.4 of 2 cores busy). `chunksInFlightPerCore`
        // chunks per core stay queued so the workers have work while the collector writes a batch.
        try await withThrowingTaskGroup(of: [ProbeOutcome].self) { group in
            var inFlight = 0
            // A stop drops the queued chunks (each task checks for cancellation between files) and keeps
            // every outcome already read, so a signal is obeyed within one batch even after the walk ended.
            func collect(_ outcomes: [ProbeOutcome]) throws {
                for outcome in outcomes { try run.record(outcome) }
                if !run.summary.interrupted && shouldStop() { run.summary.interrupted = true; group.cancelAll() }
            }
            func submit(_ chunk: [ProbeJob]) async throws {
                if inFlight >= Self.chunksInFlightPerCore * width, let outcomes = try await group.next() {
                    inFlight -= 1
                    try collect(outcomes)
                }
                group.addTask {
                    var outcomes: [ProbeOutcome] = []
                    for job in chunk where !Task.isCancelled { outcomes.append(ProbeOutcome(job)) }
                    return outcomes
                }
                inFlight += 1
            }
            var chunk: [ProbeJob] = []
            walk: while let event = walk.next() {
                switch event {
                case .directory(let listing):
                    if run.summary.interrupted || shouldStop() { run.summary.interrupted = true; break walk }
                    for job in try run.diff(listing, in: &targets[current]) {
                        chunk.append(job)
                        if chunk.count == Self.chunkSize { try await submit(chunk); chunk.removeAll() }
                    }
                    run.summary.playlistFiles += listing.playlists
                    run.reportProgress(listing.path)
                case .rootDone(_, let unreadableSoFar):
                    unreadable = unreadableSoFar
                    try run.finishTarget(&targets[current], unreadable: unreadable.map(\.path))
                    current += 1
                }
            }
            if !chunk.isEmpty && !run.summary.interrupted { try await submit(chunk) }
            for try await outcomes in group { try collect(outcomes) }
        }
        // A subtree deleted or moved away (`mlib watch` names the directories its events came from): what
        // the index holds below it vanished, as surely as files missing from a directory that was read.
        for var target in goneTargets where !run.summary.interrupted {
            try run.finishTarget(&target, unreadable: [], directoryIsGone: true)
        }
        run.summary.failures.sort { $0.path < $1.path }          // probes finish in any order
        run.summary.unreadableDirectories += unreadable.map { .init(path: $0.path, reason: $0.reason) }
        try run.flush()
        try run.writer.drain()
        // Before the pairing and removals below, which look items up by these indexes.
        if run.indexesDeferred { try index.restoreDeferredIndexes() }
        if !run.summary.interrupted {
            // One transaction shows the rows this scan wrote hidden and hides the items it did not find: until
            // here a moved file is listed once, by its item; from here once, by its new row, until a fold gives
            // the row back its item (`ls --count` gave 700 for 600 files after a scan killed mid-walk).
            try index.hideItems(run.itemsToHide + run.moves.hiddenAtPairing, showingRowsOf: run.generation)
            run.summary.excluded = run.itemsToHide.count
            run.moves.noteHidden(try index.hiddenItems().map { item in
                var item = item
                item.window = max(item.window, rootStates.first { $0.path == RootContainment.root(holding: item.path, among: [$0.path]) }?.completeGeneration ?? 0)
                return item
            })
            // Which items had the audio of each row added (the vanished ones left out: a row may be one of them):
            // such a row may be a copy of one of those, also once it is gone (`MoveEvidenceRules.sharedAudio`).
            // A scan that added no row (an unchanged rescan) has none to record: no statement.
            if let generation = run.generation, run.summary.added > 0 || !run.moves.vanished.isEmpty {
                try index.recordPossibleMoves(generation: generation, vanished: Array(run.moves.vanished.keys), isGone: Moves.isGone)
            }
            // Removing is safe only when the walk saw every place an item could have gone: every root, and
            // nothing in doubt (an unmounted disk, an unreadable directory, a missing root may hold it now).
            let walkedRoots = Set(targets.filter(\.isWholeRoot).map(\.root))
            let everyRootWalked = rootStates.allSatisfy { walkedRoots.contains($0.path) }
                && run.summary.missingRoots.isEmpty && run.summary.unreadableDirectories.isEmpty && run.emptyTargets.isEmpty
            let outcome = try run.moves.resolve(in: index, generation: run.generation, everyRootWalked: everyRootWalked,
                                                weakEvidenceAcrossScans: weakEvidenceAcrossScans, beforeRemoving: onPossibleMoves,
                                                batchSize: batchSize, shouldStop: shouldStop)
            run.summary.moved += outcome.moved
            run.summary.added -= outcome.movedRowsAddedNow
            run.summary.removed = outcome.removed
            run.summary.ambiguousMoves = run.moves.unpairedAmbiguous
            run.summary.interrupted = outcome.stopped
        }
        run.reportEmptyTargets()
        if !run.summary.interrupted {
            let generation = try run.generation ?? index.currentGeneration()
            for target in targets where target.complete && target.isWholeRoot {
                try index.completeWalk(of: target.root, generation: generation, mounts: target.mountsFound)
                run.summary.completeRoots.append(target.root)
            }
        }
        run.summary.elapsed = run.elapsed
        run.summary.filesPerSecond = run.summary.elapsed > 0 ? Double(run.summary.filesSeen) / run.summary.elapsed : 0
        return run.summary
    }

    /// How many items and failures under `directories` an older reader recorded (`MediaProbe.readerVersion`):
    /// the next scan reads those files again, changed or not (`mlib scan` says so before it starts).
    public func filesReadByAnOlderReader(in directories: [MediaPath]) throws -> Int {
        try directories.reduce(0) { $0 + (try index.itemCount(under: $1, readBefore: MediaProbe.readerVersion)) }
    }

    /// What a scan of `directories` would do with each file (read it new, read it again, leave it as indexed)
    /// and what it would leave out, and why, in walk order, without reading a file or writing to the library
    /// (`mlib scan --dry-run`).
    public func dryRun(_ directories: [MediaPath], _ body: (DryRunEntry) -> Void) throws {
        let rootStates = try index.rootStates()
        let walker = TreeWalker(libraryRoots: rootStates.map(\.path), excludes: excludes, rootExcludes: Self.rootExcludes(rootStates))
        for directory in directories {
            walker.start(directory)
            while let listing = walker.next() {
                // The index's view of the directory, judged by the scan's own rule (`FileVerdict`).
                let state = try index.directoryState(listing.path)
                var entries = listing.files.map { file in
                    DryRunEntry(path: file.path, excludedBy: nil,
                                verdict: FileVerdict.of(file, known: state.items[file.path], failure: state.failures[file.path],
                                                        failureCode: state.failureCodes[file.path],
                                                        failureReaderVersion: state.failureReaderVersions[file.path, default: 0]))
                }
                entries += listing.excluded.map { DryRunEntry(path: $0.path, excludedBy: $0.rule.pattern + " (" + $0.rule.origin + ")") }
                entries.sort { $0.path < $1.path }
                entries.forEach(body)
            }
        }
    }

    private static func rootExcludes(_ roots: [RootState]) -> [MediaPath: [String]] {
        Dictionary(uniqueKeysWithValues: roots.filter { !$0.excludes.isEmpty }.map { ($0.path, $0.excludes) })
    }

    /// A directory inside a root that is no longer there while its parent is: deleted or moved away, not
    /// unmounted (an unmounted disk leaves its mount point behind).
    static func isGone(_ directory: MediaPath) -> Bool {
        var st = stat()
        guard directory.withCString({ lstat($0, &st) }) != 0, errno == ENOENT || errno == ENOTDIR else { return false }
        return directory.directory.withCString({ stat($0, &st) }) == 0 && st.st_mode & S_IFMT == S_IFDIR
    }

    /// A root that is gone, not a directory, or empty while the index holds items under it (an unmounted
    /// disk leaves an empty mount point) must not be mistaken for a library whose files were all deleted.
    private func missingRootProblem(_ root: MediaPath) throws -> ScanSummary.Problem? {
        var st = stat()
        guard root.withCString({ stat($0, &st) }) == 0 else {
            return .init(path: root, reason: String(cString: strerror(errno)) + "; nothing removed")
        }
        guard st.st_mode & S_IFMT == S_IFDIR else { return .init(path: root, reason: "not a directory; nothing removed") }
        return nil
    }
}
