import ArgumentParser
import EarlySignals
import Foundation
import MediaIndex
import MediaModel
import Library
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

    @Argument(help: ArgumentHelp("Directories to watch (default: every root).", valueName: "dir"), completion: .directory)
    var directories: [String] = []

    func validate() throws {
        if debounce < 0 { throw ValidationError("--debounce cannot be negative.") }
        if let maxWatches, maxWatches < 1 { throw ValidationError("--max-watches must be at least 1.") }
        if fallbackInterval <= 0 { throw ValidationError("--fallback-interval must be positive.") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
    }

    func run() async throws {
        let stop = StopFlag()
        stop.watch()
        let locator = libraryOptions.locator
        // As for mlib scan: only watching a directory makes a new library.
        let library = try libraryOptions.library(directories.isEmpty ? .existing : .create)
        if directories.isEmpty, try library.store.roots().isEmpty {
            throw ValidationError("the library has no roots yet: run `mlib scan DIR` first")
        }
        var scanOptions = Library.ScanOptions()
        scanOptions.width = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        scanOptions.excludes = exclude
        scanOptions.shouldStop = { stop.isSet }
        scanOptions.onWait = { printError("waiting for another scan of \(locator) to finish…") }
        scanOptions.onRereading = { printError(Scan.rereadingLine($0)) }
        scanOptions.onPossibleMoves = { $0.forEach { printError(Scan.possibleMoveLine($0)) } }
        // New roots are added under the scan lock, released before the watcher takes it for each scan.
        let targets = try library.addRoots(for: try RawArguments.paths(directories).map(Scan.existingDirectory), options: scanOptions).directories
        var options = WatchOptions()
        options.debounce = debounce
        options.maxWatches = maxWatches
        options.fallbackInterval = fallbackInterval
        options.initialScan = !noInitialScan
        let watcher = try LibraryWatcher(library: library, targets: targets, scanOptions: scanOptions, options: options)
        watcher.wakeDescriptor = mlib_stop_wake_fd()
        watcher.onNotice = { if !quiet || !$0.hasPrefix("watching ") { printError($0) } }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        watcher.onScan = { scan in
            let playlists = ScanPlaylists.report(scan.playlists)
            Scan.reportProblems(scan.summary, possibleMovesSaid: true)
            if json {
                let line = WatchLine(time: Date(), reason: scan.reason.rawValue, directories: scan.directories, summary: scan.summary)
                if let data = try? encoder.encode(line) { FileHandle.standardOutput.write(data + Data("\n".utf8)) }
            } else if !quiet {
                let time = Date().formatted(.iso8601.time(includingFractionalSeconds: false))
                // Written at once, not through print's buffer: a pipe (a test, a log) sees each scan as it ends.
                let line = "\(time) \(scan.reason.rawValue): " + Scan.text(scan.summary) + playlists.summary
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
