import MediaModel
import TagWriting

extension Library {
    /// Writes each job's tag edit to its file (`TagWriter`: each file wholly old or wholly new, behind the
    /// undo journal that `open` and every scan complete after a crash), then reads the written files again
    /// into the index (`refresh(files:)`: ids, play counts, ratings and playlist entries kept). The one
    /// write-then-refresh of `mlib tag` and `mlib analyze --write`. The reports in the order of `jobs`.
    /// `shouldStop` (asked between groups of files) ends the writing early: the files not begun are
    /// `notWritten`, those written are refreshed all the same.
    /// Written and refreshed `round` files at a time, so that the check's reads handed to the refresh
    /// (`TagFileReport.probed`, a few KB a file, cleared in the reports returned) stay bounded.
    public func writeTags(_ jobs: [(file: MediaPath, edit: TagEdit)], writer: TagWriter = TagWriter(),
                          options: ScanOptions = ScanOptions(), round: Int = Library.tagWriteRound,
                          shouldStop: () -> Bool = { false }) async throws -> [TagFileReport] {
        var writer = writer
        writer.readsForRefresh = true
        var reports: [TagFileReport] = []
        reports.reserveCapacity(jobs.count)
        let round = max(1, round)
        for start in stride(from: 0, to: jobs.count, by: round) {
            var done = writer.edit(Array(jobs[start..<min(jobs.count, start + round)]), shouldStop: shouldStop)
            let written = done.filter { $0.outcome == .inPlace || $0.outcome == .rewritten }
            // Each file as the write's check read it after the write, so the refresh does not read it again.
            let probed = Dictionary(written.compactMap { report in report.probed.map { (report.file, $0) } }, uniquingKeysWith: { a, _ in a })
            if !written.isEmpty { try await refresh(files: written.map(\.file), probed: probed, options: options) }
            for i in done.indices { done[i].probed = nil }
            reports += done
        }
        return reports
    }

    /// How many files `writeTags` writes before refreshing them, by default.
    public static let tagWriteRound = 4_096
}
