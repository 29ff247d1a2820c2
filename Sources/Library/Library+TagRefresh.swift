import MediaIndex
import MediaModel

extension Library {
    /// Brings the items of `files` in step after their tags were written (`mlib tag`): a scan of the
    /// directories that hold them, under the scan lock, which reads again exactly the files whose size or
    /// modification time changed and updates their items in place (id, play counts, rating and playlist
    /// entries kept, as for any changed file), so the next `mlib scan` has nothing to read.
    @discardableResult
    public func refresh(files: [MediaPath], options: ScanOptions = ScanOptions()) async throws -> ScanResult? {
        let directories = Array(Set(files.map(\.directory))).sorted()
        guard !directories.isEmpty else { return nil }
        return try await scan(directories, options: options)
    }
}
