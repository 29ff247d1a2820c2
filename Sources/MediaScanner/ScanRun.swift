import Foundation
import MediaIndex
import MediaModel
import MediaProbe

/// One directory tree a scan walks: a whole root, or a subtree of one (`mlib scan DIR` inside a root).
struct ScanTarget {
    var path: MediaPath
    var root: MediaPath
    /// The generation of the root's last complete walk: rows added after it are move candidates.
    var window: Int64
    var isWholeRoot: Bool { path == root }
    /// Media files the walk found below it (read or not), and the mount points it entered.
    var filesFound = 0
    var mountsFound: [MountPoint] = []
    /// Walked to the end with nothing in doubt: its root's generation and mount points may be recorded.
    var complete = false
}

/// The mutable state of one scan, owned by the scanning task: the diff of each directory against the
/// index, the edits it leads to, and what is in doubt. Index state is read through `reader`, a second
/// connection, so the diff of the next directory never waits behind a batch being written.
final class ScanRun {
    let index: any ScanStore
    let reader: any ScanStore
    let writer: BatchWriter
    let batchSize: Int
    let progress: (@Sendable (ScanProgress) -> Void)?
    let moves = Moves()
    var summary = ScanSummary()
    var expectedFiles = 0
    /// On a first scan (no estimate from the index), the files a separate walk counted.
    var fileCounter: FileCounter?
    /// The generation of the rows this scan adds, taken when it first adds one (nil: it added none).
    private(set) var generation: Int64?
    /// A library with no item has nothing to look up by inode (a first scan).
    private let libraryWasEmpty: Bool
    /// Whether the index's secondary indexes were dropped for this scan (`deferIndexesIfLarge`): it puts
    /// them back at its end (`MediaScanner.scan`).
    private(set) var indexesDeferred = false
    private var pending: [ScanChange] = []
    /// The lyrics sidecars the index recorded, by item id (`ScanStore.lyricsSidecars`, read once per scan).
    var storedSidecars: [Int64: [SidecarStamp]] = [:]
    private var visited: Set<MediaPath> = []
    /// Entries exclude lists left out: their items are hidden, not removed (the files are still there, and
    /// an item whose file is on disk keeps its id: re-included, it comes back as it was).
    private var excluded: Set<MediaPath> = []
    private(set) var itemsToHide: [Int64] = []
    /// Targets with no media file left and the items indexed under them (see `finishTarget`).
    private(set) var emptyTargets: [(path: MediaPath, items: [Int64])] = []

    /// After the pairing: the empty targets whose items did not all find their files elsewhere, as problems.
    func reportEmptyTargets() {
        for target in emptyTargets {
            let kept = target.items.filter(moves.isVanished).count
            guard kept > 0 else { continue }
            summary.missingRoots.append(.init(path: target.path, reason: "has no media files but \(kept) items are indexed under it (not mounted?); nothing removed"))
        }
    }
    private var probed = 0
    private let start = Date()
    private var lastProgress = Date.distantPast

    init(index: any ScanStore, batchSize: Int, progress: (@Sendable (ScanProgress) -> Void)?) throws {
        self.index = index
        reader = try index.readingConnection()
        writer = BatchWriter(index: index)
        self.batchSize = batchSize
        self.progress = progress
        libraryWasEmpty = try index.isEmpty()
    }

    var elapsed: Double { Date().timeIntervalSince(start) }

    /// From how many media files a first scan builds its indexes once at the end (`ScanStore.deferIndexes`)
    /// rather than row by row. Measured with Benchmarks/writer-bench.sh (the writer alone, CPU per row,
    /// row by row against built at the end): 10,004 rows 40.0 against 40.0, 20,008 43.5 against 39.5, 30,012
    /// 47.0 against 38.0, 50,020 54.2 against 37.8 (load 8–21); 100,040 73.2 against 42.0 (session 16).
    static let deferIndexesFrom = 20_000

    /// On a first scan of `roots` holding at least `threshold` media files, drops the index's
    /// secondary indexes before the first batch (queued on the writer, in order with the batches).
    func deferIndexesIfLarge(_ roots: [MediaPath], from threshold: Int) throws {
        guard libraryWasEmpty, !indexesDeferred, threshold < Int.max, MediaFileEstimate.atLeast(threshold, under: roots) else { return }
        indexesDeferred = true
        try writer.perform { index in _ = try index.deferIndexes() }
    }

    /// Failures that only a change to the file can cure (its size, mtime or inode then change): such a file is
    /// read again only then. The others (permission denied, an I/O error, a dangling link, not a regular
    /// file) can pass with the file untouched (chmod, a disk back online), so they are retried every scan.
    static let failuresOfContent: Set<String> = ["corrupt", "not-media", "empty"]

    /// Compares one directory with the index: counts the unchanged, claims renamed items by inode, notes
    /// the vanished, returns what to read.
    func diff(_ listing: DirectoryListing, in target: inout ScanTarget) throws -> [ProbeJob] {
        visited.insert(listing.path)
        target.filesFound += listing.files.count
        summary.hardLinked += listing.hardLinked
        excluded.formUnion(listing.excluded.map(\.path))
        if listing.isMountPoint { target.mountsFound.append(MountPoint(path: listing.path, device: listing.device)) }
        var state = try reader.directoryState(listing.path)
        var jobs: [ProbeJob] = []
        var unknown: [DirectoryListing.File] = []
        for file in listing.files {
            // An item renamed away earlier in this scan is no longer at its old path, whatever the reader says.
            let known = state.items.removeValue(forKey: file.path).flatMap { moves.isClaimed($0.id) ? nil : $0 }
            let failure = state.failures.removeValue(forKey: file.path)
            let sidecars = listing.sidecars.isEmpty ? [] : LyricsSidecars.stem(file.path.lastComponent.bytes).flatMap { listing.sidecars[$0] } ?? []
            switch FileVerdict.of(file, known: known, failure: failure, failureCode: state.failureCodes[file.path],
                                  failureReaderVersion: state.failureReaderVersions[file.path, default: 0]) {
            case .unchanged:
                // A lyrics sidecar added, changed or removed beside an unchanged file: the file is read again
                // in place (its tags and its sidecars, one read), as an older reader's file is.
                if let known, LyricsSidecars.differ(sidecars, storedSidecars[known.id] ?? []) {
                    jobs.append(ProbeJob(file: file, existingID: known.id, isReread: true, sidecars: sidecars))
                } else {
                    summary.unchanged += 1
                }
            case .new where failure == nil:
                unknown.append(file)                    // a rename, when its inode is indexed elsewhere
            case .new, .changed:
                jobs.append(ProbeJob(file: file, existingID: known?.id, sidecars: sidecars))
            case .retry:
                jobs.append(ProbeJob(file: file, existingID: known?.id, isRetry: true, sidecars: sidecars))
            case .reread:
                jobs.append(ProbeJob(file: file, existingID: known?.id, isRetry: failure != nil, isReread: true, sidecars: sidecars))
            }
        }
        if !unknown.isEmpty {
            let byInode = libraryWasEmpty ? [:] : try reader.items(withInodes: unknown.filter { $0.problem == nil }.map(\.stamp.inode))
            for file in unknown {
                let sidecars = listing.sidecars.isEmpty ? [] : LyricsSidecars.stem(file.path.lastComponent.bytes).flatMap { listing.sidecars[$0] } ?? []
                if let renamed = moves.claim(file, among: byInode[file.stamp.inode] ?? []) {
                    // Recorded now, in walk order: before any later edit that might reuse the old path.
                    pending.append(.move(id: renamed.id, to: file.path))
                    summary.moved += 1
                    // Renamed away from its lyrics sidecar (or next to another one): read again in place after
                    // the move, so its lyrics are those beside its new name (issue 41; a watch scans no more).
                    if LyricsSidecars.differ(sidecars, storedSidecars[renamed.id] ?? []) {
                        jobs.append(ProbeJob(file: file, existingID: renamed.id, isReread: true, sidecars: sidecars))
                    }
                } else {
                    jobs.append(ProbeJob(file: file, existingID: nil, sidecars: sidecars))
                }
            }
        }
        forget(state, window: target.window)
        return jobs
    }

    /// After a complete walk of `target`: directories the index knows under it that the walk did not enter
    /// are gone (unless they sit below a directory that could not be read). Then what is in doubt is kept:
    /// the vanished items below a directory the walk could not see, a mount point that is no longer one, or
    /// a whole target in which no media file was found although items are indexed there (an unmounted disk
    /// whose mount point holds a README, hidden files or lost+found).
    /// `directoryIsGone`: the target itself no longer exists (its parent does), so finding no file in it is
    /// no doubt.
    func finishTarget(_ target: inout ScanTarget, unreadable: [MediaPath], directoryIsGone: Bool = false) throws {
        let unreadable = unreadable.filter { $0 == target.path || $0.hasPrefix(directory: target.path) }
        for directory in try reader.indexedDirectories(under: target.path) where !visited.contains(directory) {
            if unreadable.contains(where: { directory == $0 || directory.hasPrefix(directory: $0) }) { continue }
            forget(try reader.directoryState(directory), window: target.window)
        }
        var inDoubt = false
        let entered = Set(target.mountsFound.map(\.path))
        for mount in try reader.mounts(under: target.path) where !entered.contains(mount.path) {
            let kept = moves.keep(under: mount.path)
            if mount.path == target.path {
                summary.missingRoots.append(.init(path: mount.path, reason: "was a mount point and is not one now (not mounted?); nothing removed"))
            } else {
                summary.unreadableDirectories.append(.init(path: mount.path, reason: "was a mount point and is not one now (not mounted?); \(kept) items kept"))
            }
            inDoubt = true
        }
        // No media file where items are indexed: an unmounted disk's mount point that was never recorded as
        // one (mounted after the last complete walk), or a directory emptied by a change (its
        // last file retagged and moved to the next album, as `mlib watch` reports both directories). Its
        // items may still pair with the rows that are them moved, but none is removed or hidden; those
        // left unpaired are reported after the pairing (`unpairedInDoubt`), nothing else is removed meanwhile.
        if target.filesFound == 0 && !directoryIsGone {
            let kept = moves.pairOnly(under: target.path)
            if !kept.isEmpty {
                emptyTargets.append((target.path, kept))
                inDoubt = true
            }
        }
        target.complete = !inDoubt && unreadable.isEmpty
    }

    /// Whether an exclude list left out `path` or a directory above it.
    private func isExcluded(_ path: MediaPath) -> Bool {
        guard !excluded.isEmpty else { return false }
        var p = path
        while p.bytes.count > 1 {
            if excluded.contains(p) { return true }
            p = p.directory
        }
        return false
    }

    private func forget(_ state: DirectoryState, window: Int64) {
        for (path, item) in state.items {
            if isExcluded(path) {
                if !item.missing { itemsToHide.append(item.id) }
                continue
            }
            moves.noteVanished(VanishedItem(id: item.id, path: path, size: item.stamp.size, fingerprint: item.fingerprint,
                                            window: max(window, item.addedGeneration), missing: item.missing))
        }
        for path in state.failures.keys { pending.append(.removeFailure(path)) }
    }

    func record(_ outcome: ProbeOutcome) throws {
        probed += 1
        switch outcome {
        case .read(let job, let item, let fingerprint, let ends, let lyrics):
            let reader = MediaProbe.readerVersion
            if let id = job.existingID {
                pending.append(.update(id: id, item, job.file.stamp, fingerprint: fingerprint, device: job.file.device, ends: ends,
                                       reader: reader, birth: job.file.birth))
                pending.append(.lyrics(job.file.path, id: id, lyrics))
                if job.isReread { summary.reread += 1 } else { summary.updated += 1 }
            } else {
                if generation == nil { generation = try index.newGeneration() }
                // Hidden until the pairing shows it (`MediaScanner.scan`), unless nothing can have moved: a
                // rescan's new row may be an item that is still listed at its old path.
                pending.append(.add(item, job.file.stamp, fingerprint: fingerprint, device: job.file.device, ends: ends, reader: reader,
                                    hidden: !libraryWasEmpty, birth: job.file.birth))
                if !lyrics.isEmpty { pending.append(.lyrics(job.file.path, id: nil, lyrics)) }
                summary.added += 1
            }
        case .failed(let job, let code, let message) where job.isRetry:
            // Still failing, as recorded: nothing to report; recorded again only to note this reader refused it too.
            if job.isReread {
                pending.append(.fail(job.file.path, job.file.stamp, code: code, message: message, reader: MediaProbe.readerVersion))
            }
            summary.unchanged += 1
        case .failed(let job, let code, let message):
            pending.append(.fail(job.file.path, job.file.stamp, code: code, message: message, reader: MediaProbe.readerVersion))
            summary.failed += 1
            summary.failures.append(.init(path: job.file.path, code: code, message: message))
        }
        if pending.count >= batchSize { try flush() }
    }

    /// Hands the pending edits to the writer (call `writer.drain()` to wait for them).
    func flush() throws {
        guard !pending.isEmpty else { return }
        try writer.write(pending, generation: generation)
        pending.removeAll(keepingCapacity: true)
    }

    func reportProgress(_ directory: MediaPath) {
        guard let progress, Date().timeIntervalSince(lastProgress) >= 0.1 else { return }
        lastProgress = Date()
        progress(ScanProgress(filesSeen: summary.unchanged + probed, filesProbed: probed,
                              expectedFiles: expectedFiles > 0 ? expectedFiles : fileCounter?.total, elapsed: elapsed,
                              directory: directory))
    }
}
