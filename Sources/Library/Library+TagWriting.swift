import MediaModel
import TagWriting

extension Library {
    /// Writes each job's tag edit to its file (`TagWriter`: each file wholly old or wholly new, behind the
    /// undo journal that `open` and every scan complete after a crash), then reads the written files again
    /// into the index (`refresh(files:)`: ids, play counts, ratings and playlist entries kept). The one
    /// write-then-refresh of `mlib tag` and `mlib analyze --write`. The reports in the order of `jobs`.
    /// `shouldStop` (asked between groups of files) ends the writing early: the files not begun are
    /// `notWritten`, those written are refreshed all the same.
    public func writeTags(_ jobs: [(file: MediaPath, edit: TagEdit)], writer: TagWriter = TagWriter(),
                          options: ScanOptions = ScanOptions(), shouldStop: () -> Bool = { false }) async throws -> [TagFileReport] {
        let reports = writer.edit(jobs, shouldStop: shouldStop)
        let written = reports.filter { $0.outcome == .inPlace || $0.outcome == .rewritten }
        // Each file as the write's check read it after the write, so the refresh does not read it again.
        let probed = Dictionary(written.compactMap { report in report.probed.map { (report.file, $0) } }, uniquingKeysWith: { a, _ in a })
        if !written.isEmpty { try await refresh(files: written.map(\.file), probed: probed, options: options) }
        return reports
    }
}
