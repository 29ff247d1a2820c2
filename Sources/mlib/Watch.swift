import ArgumentParser
import EarlySignals
import Foundation
import MediaIndex
#if PostgreSQL
import PostgresStore
#endif
import MediaModel
import MediaScanner
import MediaWatch

struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Keep the library in step with its directories as they change (inotify).",
        discussion: """
            Scans the roots (or the given directories: roots, directories inside roots, or new roots, as \
            with `mlib scan`) once, then watches every directory below them and rescans the ones that \
            changed, a second after the changes pause. It is the same scan as `mlib scan`: renamed and \
            moved files keep their identity, play counts, ratings and playlist entries; files still being \
            written are read once closed; exclude lists (.mlibignore, .mpdignore, --exclude) apply; an \
            unmounted disk removes nothing and is rescanned when it is mounted again. Deleted files leave \
            query results at once; their rows are dropped by the next scan of every root.

            Each scan holds the library's scan lock, so `mlib scan` from cron and `mlib watch` never run \
            together (the later one waits); queries never wait. On a PostgreSQL library the lock is per root: \
            scans of other roots, from this host or others, go on meanwhile. When the inotify watch limit \
            (/proc/sys/fs/inotify/max_user_watches) or --max-watches is reached, the directories left \
            unwatched are rescanned every --fallback-interval seconds; if events are lost (queue \
            overflow), everything watched is rescanned. One line per scan on standard output (--json: one \
            JSON object per line); notices and problems on standard error.

            \(ExitStatus.help(one: "a directory does not exist", interruptible: true)) mlib watch ends with 130 \
            when stopped by SIGINT or SIGTERM (after finishing the current batch), and with 3 when inotify \
            cannot be set up.
            """)

    @OptionGroup var libraryOptions: LibraryOptions

    @Option(name: .long, help: ArgumentHelp("Seconds without events before the changed directories are scanned.", valueName: "seconds"))
    var debounce: Double = 1

    @Option(name: .long, help: ArgumentHelp("Use at most this many inotify watches (default: what the kernel allows).", valueName: "n"))
    var maxWatches: Int?

    @Option(name: .long, help: ArgumentHelp("Seconds between rescans of directories left unwatched by the watch limit.", valueName: "seconds"))
    var fallbackInterval: Double = 300

    @Flag(name: .long, help: "Do not scan when starting; follow changes from now on.")
    var noInitialScan = false

    @Option(name: .long, help: ArgumentHelp("Leave out files and directories matching this glob (as in .mlibignore); repeatable.", valueName: "glob"))
    var exclude: [String] = []

    @Option(name: [.customShort("j", allowingJoined: true), .long], help: "Files to read at once (default: the number of cores; -j4 or -j 4).")
    var jobs: Int?

    @Flag(name: .shortAndLong, help: "No line per scan (notices and problems still go to standard error).")
    var quiet = false

    @Flag(name: .long, help: "Print each scan's summary as one JSON object per line.")
    var json = false

    @Argument(help: ArgumentHelp("Directories to watch (default: every root).", valueName: "dir"))
    var directories: [String] = []

    func validate() throws {
        if debounce < 0 { throw ValidationError("--debounce cannot be negative.") }
        if let maxWatches, maxWatches < 1 { throw ValidationError("--max-watches must be at least 1.") }
        if fallbackInterval <= 0 { throw ValidationError("--fallback-interval must be positive.") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
    }

    /// A PostgreSQL root lock that another scan holds (as opposed to a server that is gone).
    static func isBusyLock(_ error: any Error) -> Bool {
        #if PostgreSQL
        error is PostgresRootLock.Failure
        #else
        false
        #endif
    }

    func run() async throws {
        let stop = StopFlag()
        stop.watch()
        let locator = libraryOptions.locator
        // As for mlib scan: only watching a directory makes a new library.
        let mode: LibraryOpenMode = directories.isEmpty ? .existing : .create
        if mode == .existing, let libraryPath = locator.sqlitePath, !FileManager.default.fileExists(atPath: libraryPath) {
            throw IndexError.noLibrary(database: libraryPath)
        }
        // Adding new roots writes to the library: on SQLite under the scan lock, like a scan, released before
        // the watcher takes it for each scan (the `do` scope ends the lock's lifetime). On PostgreSQL adding a
        // root is one INSERT that another host's may race harmlessly, and the locks are per root (as mlib scan).
        let index: any LibraryStore
        let targets: [MediaPath]
        do {
            let setupLock = locator.sqlitePath == nil ? nil : try libraryOptions.scanLock(roots: [], timeout: nil) {
                printError("waiting for another scan of \(locator) to finish…")
            }
            index = try libraryOptions.open(mode)
            targets = try Scan.resolveRoots(index, directories)
            withExtendedLifetime(setupLock) {}
        }
        // The roots the watched directories belong to: a scan holds their locks (on SQLite, the library's).
        let lockedRoots = try index.roots().filter { root in targets.contains { $0 == root || $0.hasPrefix(directory: root) } }

        var scanner = MediaScanner(index: index, width: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                                   shouldStop: { stop.isSet })
        scanner.excludes = exclude
        var options = WatchOptions()
        options.debounce = debounce
        options.maxWatches = maxWatches
        options.fallbackInterval = fallbackInterval
        options.initialScan = !noInitialScan
        let watcher = try LibraryWatcher(scanner: scanner, targets: targets, libraryRoots: try index.roots(), options: options)
        watcher.wakeDescriptor = mlib_stop_wake_fd()
        watcher.lock = {
            // Busy: another scan holds it, the watcher tries again shortly. On PostgreSQL any other failure
            // (the server gone) ends the watch rather than being taken for a busy lock forever.
            do { return try libraryOptions.scanLock(roots: lockedRoots, timeout: 0, onWait: {}) } catch where locator.sqlitePath != nil || Self.isBusyLock(error) {
                return nil
            }
        }
        watcher.onNotice = { if !quiet || !$0.hasPrefix("watching ") { printError($0) } }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        watcher.onScan = { scan in
            let playlists = scan.summary.interrupted ? (synced: 0, failed: 0)
                : ScanPlaylists.sync(scan.summary.playlistFiles, into: index, completeRoots: scan.summary.completeRoots)
            Scan.reportProblems(scan.summary)
            if json {
                let line = WatchLine(time: Date(), reason: scan.reason.rawValue, directories: scan.directories, summary: scan.summary)
                if let data = try? encoder.encode(line) { FileHandle.standardOutput.write(data + Data("\n".utf8)) }
            } else if !quiet {
                let time = Date().formatted(.iso8601.time(includingFractionalSeconds: false))
                // Written at once, not through print's buffer: a pipe (a test, a log) sees each scan as it ends.
                let line = "\(time) \(scan.reason.rawValue): " + Scan.text(scan.summary)
                    + (playlists.synced > 0 ? "; \(playlists.synced) playlist files mirrored" : "")
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            }
        }
        try await watcher.run()
        throw ExitCode(ExitStatus.interrupted)
    }
}

/// One line of `mlib watch --json`.
private struct WatchLine: Encodable {
    var time: Date
    var reason: String
    var directories: [MediaPath]
    var summary: ScanSummary
}
