import MediaIndex
import MediaModel
import MediaProbe
import MediaScanner

extension Library {
    /// Brings the items of `files` in step after their tags were written (`mlib tag`), under the scan lock:
    /// reads again exactly those files and updates their items in place in batched transactions
    /// (`MediaScanner.refresh(files:)`: id, play counts, rating and playlist entries kept, the change log
    /// records them for live views), so the next `mlib scan` has nothing to read. A file that is not an
    /// indexed item at that path is left to a scan of its directory, as before.
    @discardableResult
    public func refresh(files: [MediaPath], probed: [MediaPath: ProbedFile] = [:], options: ScanOptions = ScanOptions()) async throws -> ScanResult? {
        guard !files.isEmpty else { return nil }
        let roots = try store.roots().filter { root in files.contains { $0.hasPrefix(directory: root) } }
        let lock = try await Self.onOwnThread { HeldLock(try self.scanLock(roots: roots, timeout: options.lockTimeout, onWait: options.onWait, shouldStop: options.shouldStop)) }
        var scanner = MediaScanner(index: store, width: options.width, batchSize: options.batchSize)
        scanner.excludes = options.excludes
        var (summary, notRefreshed) = try await scanner.refresh(files: files, probed: probed)
        withExtendedLifetime(lock) {}
        if !notRefreshed.isEmpty {
            let scanned = try await scan(Array(Set(notRefreshed.map(\.directory))).sorted(), options: options).summary
            summary.updated += scanned.updated + scanned.added
            summary.failed += scanned.failed
            summary.failures += scanned.failures
        }
        return ScanResult(summary: summary, playlists: PlaylistMirror.Report(), interrupted: false)
    }
}
