import Library

/// The playlist mirroring that follows `mlib scan` and each `mlib watch` scan (done by `Library.scan`),
/// reported on standard error.
enum ScanPlaylists {
    /// Prints each failure and each mirror removed (its file is gone) as one line on standard error;
    /// returns the summary line's tail (empty unless a mirror was made or changed: said on every scan, an
    /// unchanged playlist was noise) and how many failed.
    static func report(_ report: PlaylistMirror.Report) -> (summary: String, failed: Int) {
        for (file, message) in report.failures {
            printError(file.map { "\($0): playlist not imported (\(message))" } ?? message)
        }
        for name in report.removed { printError("playlist \"\(name)\" removed: its file is gone") }
        let summary = report.changed == 0 ? "" : "; \(report.changed) playlist file\(report.changed == 1 ? "" : "s") mirrored"
        return (summary, report.failures.count)
    }
}
