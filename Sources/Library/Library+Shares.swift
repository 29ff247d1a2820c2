import Foundation
import MediaIndex
import MediaModel
import MediaScanner
import TagWriting
#if PostgreSQL
import PostgresStore
#endif

// Shared roots (`SharedRoot`): one NAS share mounted on several hosts of a PostgreSQL library is one set of
// items. Joining and leaving under the scan locks; a scan of a share runs on the share's own store, so the
// scanner's rules hold for its rows whichever host scans.
extension Library {
    /// The shares this host joined (none on SQLite).
    public func sharedRoots() throws -> [SharedRoot] {
        try (store as? SQLStore)?.sharedRoots() ?? []
    }

    /// Joins the share `name` at `path`, this host's mount point (`SQLStore.joinShare`), under the scan lock
    /// of `path`: a scan of this host's own root there does not run meanwhile.
    @discardableResult
    public func joinShare(_ name: String, at path: MediaPath, options: ScanOptions = ScanOptions()) throws -> SQLStore.ShareJoin {
        guard let sql = store as? SQLStore, sql.thisHostName != nil else {
            throw IndexError.invalidArgument(database: locator?.description ?? "the library", reason: SharedRoot.singleHostRefusal)
        }
        let lock = try scanLock(roots: [path], timeout: options.lockTimeout, onWait: options.onWait, shouldStop: options.shouldStop)
        defer { withExtendedLifetime(lock) {} }
        return try sql.joinShare(name, at: path)
    }

    /// This host leaves `share` (`SQLStore.leaveShare`): its items stay for the other hosts; the last host
    /// forgets them. Under the share's scan lock, so no host's scan of it runs meanwhile. Returns how many
    /// hosts are still in it.
    @discardableResult
    public func leaveShare(_ share: SharedRoot, options: ScanOptions = ScanOptions()) throws -> Int {
        guard let sql = store as? SQLStore else { throw IndexError.invalidArgument(database: "the library", reason: SharedRoot.singleHostRefusal) }
        #if PostgreSQL
        if let index = store as? PostgresIndex {
            let shareStore = try index.shareStore(share)
            let lock = try PostgresRootLock(index: shareStore, roots: [share.storedPath], timeout: options.lockTimeout,
                                            onWait: options.onWait, shouldStop: options.shouldStop)
            defer { withExtendedLifetime(lock) {} }
            let left = try sql.leaveShare(share)
            if left == 0 { try sql.trimItemChanges(keepingRemoved: Self.removalsLogged) }
            return left
        }
        #endif
        return try sql.leaveShare(share)
    }

    /// `plan` without the directories that lie in shares this host joined, and those, by share.
    func separatingShares(_ plan: ScanPlan) throws -> (own: ScanPlan, shares: [(share: SharedRoot, directories: [MediaPath])]) {
        let shares = try sharedRoots()
        guard !shares.isEmpty else { return (plan, []) }
        var own = plan
        own.directories = []
        var parts: [(share: SharedRoot, directories: [MediaPath])] = []
        for directory in plan.directories {
            if let share = shares.first(where: { directory == $0.path || directory.hasPrefix(directory: $0.path) }) {
                if let i = parts.firstIndex(where: { $0.share == share }) { parts[i].directories.append(directory) } else { parts.append((share, [directory])) }
            } else {
                own.directories.append(directory)
            }
        }
        return (own, parts)
    }

    /// Scans `directories` of `share` on the share's store, under the share's lock (one for every host: two
    /// hosts scanning it at once take turns). A share not mounted here (its mount point missing or empty)
    /// is reported by the scanner as a missing root and nothing of it is removed: its items stay for the
    /// hosts where it is mounted.
    func scanShare(_ share: SharedRoot, _ directories: [MediaPath], options: ScanOptions) async throws -> ScanResult? {
        #if PostgreSQL
        guard let index = store as? PostgresIndex else { return nil }
        let shareStore = try index.shareStore(share)
        shareStore.rememberRoots(true)
        defer { shareStore.rememberRoots(false) }
        let lock = try await Self.onOwnThread {
            // Keyed by the share's stored path: one lock for every host, wherever each mounts it.
            HeldLock(try PostgresRootLock(index: shareStore, roots: [share.storedPath], timeout: options.lockTimeout,
                                          onWait: options.onWait, shouldStop: options.shouldStop))
        }
        defer { withExtendedLifetime(lock) {} }
        // As in `scan`: a tag write interrupted meanwhile is completed before the scan reads its file.
        let tagRecovery = TagJournal.recoverInterruptedWrites()
        // A host mounting the share elsewhere than where its rows are stored scans through the translation.
        let scanned: any ScanStore = share.isRelocated ? MountedShareStore(shareStore, share: share) : shareStore
        var scanner = MediaScanner(index: scanned, width: options.width, batchSize: options.batchSize,
                                   shouldStop: options.shouldStop, progress: options.progress)
        scanner.excludes = options.excludes
        scanner.weakEvidenceAcrossScans = options.weakEvidenceAcrossScans
        scanner.onPossibleMoves = options.onPossibleMoves
        let summary = try await scanner.scan(directories)
        let interrupted = summary.interrupted || options.shouldStop()
        // Playlist files in a share are mirrored by the hosts that mount it where its rows are stored: the
        // mirror's sources and entries are paths, which `MountedShareStore` does not translate.
        let playlists = interrupted || share.isRelocated ? PlaylistMirror.Report()
            : PlaylistMirror.sync(summary.playlistFiles, into: shareStore, completeRoots: summary.completeRoots)
        if summary.removed > 0 { try shareStore.trimItemChanges(keepingRemoved: Self.removalsLogged) }
        return ScanResult(summary: summary, playlists: playlists, interrupted: interrupted, tagRecovery: tagRecovery)
        #else
        return nil
        #endif
    }

    /// One result of several scans (this host's roots and its shares), as one scan's.
    static func combining(_ results: [ScanResult]) -> ScanResult? {
        guard var total = results.first else { return nil }
        for next in results.dropFirst() {
            let (a, b) = (total.summary, next.summary)
            var s = a
            s.added += b.added; s.updated += b.updated; s.moved += b.moved; s.removed += b.removed
            s.excluded += b.excluded; s.unchanged += b.unchanged; s.reread += b.reread; s.failed += b.failed
            s.elapsed += b.elapsed
            s.filesPerSecond = s.elapsed > 0 ? Double(s.filesSeen) / s.elapsed : 0
            s.failures += b.failures; s.missingRoots += b.missingRoots; s.unreadableDirectories += b.unreadableDirectories
            s.ambiguousMoves += b.ambiguousMoves; s.interrupted = a.interrupted || b.interrupted
            s.playlistFiles += b.playlistFiles; s.completeRoots += b.completeRoots
            total.summary = s
            total.playlists.synced += next.playlists.synced
            total.playlists.changed += next.playlists.changed
            total.playlists.failures += next.playlists.failures
            total.playlists.removed += next.playlists.removed
            total.interrupted = total.interrupted || next.interrupted
            if total.tagRecovery.isEmpty { total.tagRecovery = next.tagRecovery }
        }
        return total
    }
}
