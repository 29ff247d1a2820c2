import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A fresh copy of a music folder and an SQLite library the built `mlib` scanned from it: the set-up of
/// every trial of the tests that kill a writer at a random moment (`RandomKill`), where each trial must
/// start from the same files and the same library.
public enum ScannedCopy {
    /// Copies `originals` to `directory/name` (replacing an earlier copy), removes `directory/name.sqlite`
    /// and its WAL files, and scans the copy into it; `environment` is added to the scan's.
    public static func make(of originals: URL, as name: String, in directory: URL,
                            environment: [String: String] = [:]) throws -> (music: URL, library: String) {
        let music = directory.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: music)
        try FileManager.default.copyItem(at: originals, to: music)
        let library = directory.appendingPathComponent("\(name).sqlite").path
        for suffix in ["", "-wal", "-shm"] { unlink(library + suffix) }
        let scan = try ChildProcess.run(ChildProcess.mlib.path, ["scan", "--quiet", "--library", library, music.path],
                                        environment: environment)
        guard scan.status == 0 else { throw TestFailure("mlib scan of \(name): \(scan.stderr)") }
        return (music, library)
    }
}
