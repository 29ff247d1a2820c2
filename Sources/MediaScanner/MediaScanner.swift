import Foundation
import MediaIndex
import MediaModel
import MediaProbe

/// Keeps the index in step with directory trees. For each directory the walker (a thread of its own, a
/// bounded distance ahead) finds, the scanner compares every file's size, mtime and inode with the index
/// and probes only what is new or changed, `width` files at a time in child tasks (C handles never leave
/// their task). This task collects the results and hands them to one writer thread, which commits
/// `batchSize` edits per transaction, so memory stays flat however large the library is and an
/// interrupted scan leaves whole batches only. Once every root is walked, vanished items are matched
/// against the rows added by this scan (moves keep their id) and the rest are removed.
public struct MediaScanner: Sendable {
    public var index: SQLiteIndex
    /// Files probed at once (default: the number of cores).
    public var width: Int
    /// Edits per transaction.
    public var batchSize: Int
    /// Polled between directories and files; when true the scan stops after committing what it has.
    public var shouldStop: @Sendable () -> Bool
    /// Called about ten times a second while scanning.
    public var progress: (@Sendable (ScanProgress) -> Void)?

    public init(index: SQLiteIndex, width: Int = ProcessInfo.processInfo.activeProcessorCount, batchSize: Int = 500,
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

    /// Scans `roots` (absolute paths). Roots are not added to the index here: see `SQLiteIndex.addRoot`.
    public func scan(_ roots: [MediaPath]) async throws -> ScanSummary {
        let run = ScanRun(index: index, reader: try index.secondConnection(), batchSize: batchSize, progress: progress)
        if progress != nil { run.expectedFiles = try roots.reduce(0) { $0 + (try index.itemCount(under: $1)) } }
        let addedAfter = try index.moveWatermark()      // rows added since the last complete scan
        var present: [MediaPath] = []
        for root in roots {
            if let problem = try missingRootProblem(root) { run.summary.missingRoots.append(problem) } else { present.append(root) }
        }
        let walk = WalkAhead(roots: present)
        defer { walk.cancel() }
        var unreadable: [(path: MediaPath, reason: String)] = []

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
                    for job in try run.diff(listing) {
                        chunk.append(job)
                        if chunk.count == Self.chunkSize { try await submit(chunk); chunk.removeAll() }
                    }
                    run.summary.playlistFiles += listing.playlists
                    run.reportProgress(listing.path)
                case .rootDone(let root, let unreadableSoFar):
                    unreadable = unreadableSoFar
                    try run.collectUnvisited(under: root, unreadable: unreadable.map(\.path))
                }
            }
            if !chunk.isEmpty && !run.summary.interrupted { try await submit(chunk) }
            for try await outcomes in group { try collect(outcomes) }
        }
        run.summary.failures.sort { $0.path < $1.path }          // probes finish in any order
        run.summary.unreadableDirectories = unreadable.map { .init(path: $0.path, reason: $0.reason) }
        try run.flush()
        try run.writer.drain()
        if !run.summary.interrupted {
            let outcome = try index.finishScan(vanished: run.vanished, addedAfter: addedAfter)
            run.summary.moved = outcome.moved.count
            run.summary.added -= outcome.moved.count
            run.summary.removed = outcome.removed
        }
        run.summary.elapsed = run.elapsed
        run.summary.filesPerSecond = run.summary.elapsed > 0 ? Double(run.summary.filesSeen) / run.summary.elapsed : 0
        return run.summary
    }

    /// A root that is gone, not a directory, or empty while the index holds items under it (an unmounted
    /// disk leaves an empty mount point) must not be mistaken for a library whose files were all deleted.
    private func missingRootProblem(_ root: MediaPath) throws -> ScanSummary.Problem? {
        var st = stat()
        guard root.withCString({ stat($0, &st) }) == 0 else {
            return .init(path: root, reason: String(cString: strerror(errno)) + "; nothing removed")
        }
        guard st.st_mode & S_IFMT == S_IFDIR else { return .init(path: root, reason: "not a directory; nothing removed") }
        if Self.isEmptyDirectory(root), case let count = try index.itemCount(under: root), count > 0 {
            return .init(path: root, reason: "is empty but \(count) items are indexed under it (not mounted?); nothing removed")
        }
        return nil
    }

    private static func isEmptyDirectory(_ path: MediaPath) -> Bool {
        guard let dir = path.withCString({ opendir($0) }) else { return false }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let isDots = withUnsafePointer(to: &entry.pointee.d_name) { p in
                p.withMemoryRebound(to: CChar.self, capacity: 3) { strcmp($0, ".") == 0 || strcmp($0, "..") == 0 }
            }
            if !isDots { return false }
        }
        return true
    }
}

/// A file to read, and what the index knew of it.
struct ProbeJob: Sendable {
    var file: DirectoryListing.File
    var existingID: Int64?
}

/// What reading one file gave. Built inside a child task: the probe's C handles never leave it.
enum ProbeOutcome: Sendable {
    case read(ProbeJob, MediaItem, fingerprint: Int64)
    case failed(ProbeJob, code: String, message: String)

    init(_ job: ProbeJob) {
        let path = job.file.path, stamp = job.file.stamp
        if let problem = job.file.problem { self = .failed(job, code: "not-found", message: "dangling link (\(problem))"); return }
        do {
            let file = try MediaFile(path)                   // one open for the probe and the fingerprint
            var item = try MediaProbe.probe(file, detail: .library).item
            // The walk's stat is what the next scan compares with: store exactly that.
            item.path = path
            item[.fileSize] = .integer(stamp.size)
            item[.modificationDate] = .real(Double(stamp.mtimeNanoseconds) / 1e9)
            self = .read(job, item, fingerprint: Fingerprint.of(file))
        } catch {
            self = .failed(job, code: error.code, message: error.reason)
        }
    }
}

/// The mutable state of one scan, owned by the scanning task. Index state is read through `reader`, a
/// second connection, so the diff of the next directory never waits behind a batch being written.
final class ScanRun {
    let reader: SQLiteIndex
    let writer: BatchWriter
    let batchSize: Int
    let progress: (@Sendable (ScanProgress) -> Void)?
    var summary = ScanSummary()
    var expectedFiles = 0
    var vanished: [VanishedItem] = []
    private var pending: [ScanChange] = []
    private var visited: Set<MediaPath> = []
    private var probed = 0
    private let start = Date()
    private var lastProgress = Date.distantPast

    init(index: SQLiteIndex, reader: SQLiteIndex, batchSize: Int, progress: (@Sendable (ScanProgress) -> Void)?) {
        self.reader = reader
        self.writer = BatchWriter(index: index)
        self.batchSize = batchSize
        self.progress = progress
    }

    var elapsed: Double { Date().timeIntervalSince(start) }

    /// Compares one directory with the index: counts the unchanged, notes the vanished, returns what to read.
    func diff(_ listing: DirectoryListing) throws -> [ProbeJob] {
        visited.insert(listing.path)
        var state = try reader.directoryState(listing.path)
        var jobs: [ProbeJob] = []
        for file in listing.files {
            let known = state.items.removeValue(forKey: file.path)
            // A recorded failure holds the stamp of the failed read; the item row keeps its last good one.
            let lastSeen = state.failures.removeValue(forKey: file.path) ?? known?.stamp
            if lastSeen == file.stamp { summary.unchanged += 1 } else { jobs.append(ProbeJob(file: file, existingID: known?.id)) }
        }
        forget(state)
        return jobs
    }

    /// After a complete walk of `root`: directories the index knows under it that the walk did not enter
    /// are gone (unless they sit below a directory that could not be read).
    func collectUnvisited(under root: MediaPath, unreadable: [MediaPath]) throws {
        for directory in try reader.indexedDirectories(under: root) where !visited.contains(directory) {
            if unreadable.contains(where: { directory == $0 || directory.hasPrefix(directory: $0) }) { continue }
            forget(try reader.directoryState(directory))
        }
    }

    private func forget(_ state: DirectoryState) {
        for (path, item) in state.items {
            vanished.append(VanishedItem(id: item.id, path: path, size: item.stamp.size, fingerprint: item.fingerprint))
        }
        for path in state.failures.keys { pending.append(.removeFailure(path)) }
    }

    func record(_ outcome: ProbeOutcome) throws {
        probed += 1
        switch outcome {
        case .read(let job, let item, let fingerprint):
            if let id = job.existingID {
                pending.append(.update(id: id, item, job.file.stamp, fingerprint: fingerprint))
                summary.updated += 1
            } else {
                pending.append(.add(item, job.file.stamp, fingerprint: fingerprint))
                summary.added += 1
            }
        case .failed(let job, let code, let message):
            pending.append(.fail(job.file.path, job.file.stamp, code: code, message: message))
            summary.failed += 1
            summary.failures.append(.init(path: job.file.path, code: code, message: message))
        }
        if pending.count >= batchSize { try flush() }
    }

    /// Hands the pending edits to the writer (call `writer.drain()` to wait for them).
    func flush() throws {
        guard !pending.isEmpty else { return }
        try writer.write(pending)
        pending.removeAll(keepingCapacity: true)
    }

    func reportProgress(_ directory: MediaPath) {
        guard let progress, Date().timeIntervalSince(lastProgress) >= 0.1 else { return }
        lastProgress = Date()
        progress(ScanProgress(filesSeen: summary.unchanged + probed, filesProbed: probed,
                              expectedFiles: expectedFiles > 0 ? expectedFiles : nil, elapsed: elapsed, directory: directory))
    }
}

/// Writes batches, in order, on a thread of its own: SQLite's work then overlaps reading files instead of
/// taking turns with it (on two cores the collector spent about half the scan inside `apply`). At most
/// `depth` batches wait, so memory stays flat; each batch is still one transaction.
final class BatchWriter: @unchecked Sendable {
    private let index: SQLiteIndex
    private let queue = DispatchQueue(label: "mlib.scan.writer")   // serial: batches commit in order
    private let slots: DispatchSemaphore
    private let lock = NSLock()
    private var failure: (any Error)?

    init(index: SQLiteIndex, depth: Int = 2) {
        self.index = index
        slots = DispatchSemaphore(value: depth)
    }

    /// Queues `batch`; waits while `depth` batches are queued. Throws an earlier batch's failure.
    func write(_ batch: [ScanChange]) throws {
        try rethrow()
        slots.wait()
        queue.async { [self] in
            defer { slots.signal() }
            guard lock.withLock({ failure == nil }) else { return }      // after a failure, write no more
            do { try index.apply(batch) } catch { lock.withLock { failure = error } }
        }
    }

    /// Waits until every queued batch is written; throws the first failure.
    func drain() throws {
        queue.sync {}
        try rethrow()
    }

    private func rethrow() throws {
        if let failure = lock.withLock({ failure }) { throw failure }
    }
}
