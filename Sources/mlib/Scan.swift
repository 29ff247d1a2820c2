import ArgumentParser
import Dispatch
import Synchronization
import EarlySignals
import Foundation
import Library
import MediaIndex
import MediaModel
import MediaScanner

struct Scan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Add directories to the library and scan them.",
        discussion: """
            With directories, scans them: a directory inside a library root rescans that part of the root \
            (no new root is added: see `mlib root add`); any other directory becomes a new root. Without, \
            rescans every root: the form to run from cron or a systemd timer. Only new and changed files are \
            read (size, mtime and inode tell); moved and renamed files keep their identity, play counts, \
            ratings and playlist entries; deleted files leave the index. A missing or unmounted root, or a \
            mount point under a root that is no longer mounted, removes nothing and makes the scan exit 1. \
            Files that failed before are read again on every scan. After an upgrade to an mlib that reads \
            more (new facts, new formats), the next scan reads again, once, every file an older mlib read or \
            refused, changed or not ("re-reading N files read by an older mlib" on standard error), keeping \
            ids and user data.

            A progress line is shown when standard error is a terminal. Files that cannot be read are \
            listed on standard error and recorded (see `mlib failures`). Only one scan runs per library: a \
            second one waits for the first, or exits with status 3 with --no-wait. Ctrl-C or SIGTERM stops \
            after committing what it has read (exit 130); the next scan completes the work. While it \
            still waits for another scan, they end it at once, nothing written (exit 130 for Ctrl-C, 143 \
            for SIGTERM).

            \(ExitStatus.help(one: "some files failed, or a root or directory was missing or unreadable", interruptible: true))
            """)

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(name: .shortAndLong, help: "No progress line and no summary (errors still go to standard error).")
    var quiet = false

    @Flag(name: .long, help: "Print the summary as JSON on standard output.")
    var json = false

    @Flag(name: .long, help: "Exit with status 3 at once if another scan holds the library, instead of waiting.")
    var noWait = false

    @Option(name: .long, help: ArgumentHelp("Wait at most this long for another scan to finish.", valueName: "seconds"))
    var waitTimeout: Double?

    @Option(name: [.customShort("j", allowingJoined: true), .long], help: "Files to read at once (default: the number of cores; -j4 or -j 4).")
    var jobs: Int?

    @Option(name: .long, help: .hidden)
    var batchSize = 500

    @Flag(name: .long, help: "List the recorded failures instead of scanning (same as `mlib failures`).")
    var failures = false

    @Option(name: .long, help: ArgumentHelp("Leave out files and directories matching this glob (gitignore-style, as in .mlibignore), below every root; repeatable.", valueName: "glob"))
    var exclude: [String] = []

    @Flag(name: .long, help: "Print what the scan would read (+ new, ~ indexed and read again) and what exclude lists leave out (-, with the pattern and its file), then exit; nothing is read or written. Unchanged files are counted, not listed.")
    var dryRun = false

    @Option(name: .long, help: ArgumentHelp("Remove a root and what is indexed under it (not what another root covers), then exit; same as `mlib root forget`.", valueName: "dir"), completion: .directory)
    var forget: String?

    @Argument(help: ArgumentHelp("Directories to add and scan (default: every root).", valueName: "dir"), completion: .directory)
    var directories: [String] = []

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
        if batchSize < 1 { throw ValidationError("--batch-size must be at least 1.") }
        if let waitTimeout, waitTimeout < 0 { throw ValidationError("--wait-timeout cannot be negative.") }
        // Each of these ends the command before a scan, so what else was given would be ignored silently
        // (`scan --forget X Y` forgot X and left Y; `--forget Y --failures` listed failures, forgot nothing).
        let modes = [(failures, "--failures"), (dryRun, "--dry-run"), (forget != nil, "--forget")].filter(\.0).map(\.1)
        if modes.count > 1 { throw ValidationError("\(modes.joined(separator: " and ")) cannot be combined: each does one thing and exits.") }
        if forget != nil, !directories.isEmpty {
            throw ValidationError("--forget takes one root and scans nothing: forget each root with its own --forget, or scan \(directories.joined(separator: " ")) separately.")
        }
        if failures, !directories.isEmpty { throw ValidationError("--failures lists the failures of the whole library; it takes no directories.") }
    }

    func run() async throws {
        // First: a SIGINT or SIGTERM from here on stops the scan cleanly (exit 130) instead of killing it.
        let stop = StopFlag()
        stop.watch()
        if failures { return try Failures.list(libraryOptions, json: json) }
        if dryRun { return try listWithoutScanning() }

        // Only scanning a directory makes a new library, and only one that exists: a rescan (or --forget)
        // or a scan of a mistyped path creates nothing, not even the lock file (`scan /nonexistent` made
        // an empty library).
        let targets = try RawArguments.paths(directories).map(Self.existingDirectory)
        let library = try libraryOptions.library(directories.isEmpty ? .existing : .create)
        var options = Library.ScanOptions()
        options.lockTimeout = noWait ? 0 : waitTimeout
        let quiet = quiet, locator = libraryOptions.locator
        options.onWait = { if !quiet { printError("waiting for another scan of \(locator) to finish…") } }

        if let forget {
            let root = Self.absolutePath(MediaPath(forget))
            guard try library.store.roots().contains(root) else { throw ValidationError("\(root) is not a library root.") }
            try library.forgetRoot(root, options: options)
            if !quiet { print("forgot \(root)") }
            return
        }

        // The check below and the scan ask for the roots once.
        library.rememberRoots(true)
        defer { library.rememberRoots(false) }
        if directories.isEmpty, try library.store.roots().isEmpty {
            throw ValidationError("the library has no roots yet: run `mlib scan DIR` first")
        }
        let display = !quiet && !json && isatty(STDERR_FILENO) == 1 ? ProgressLine() : nil
        if let display { options.progress = { display.show($0) } }
        options.width = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        options.batchSize = batchSize
        options.excludes = exclude
        options.shouldStop = { stop.isSet }
        options.onRereading = { if !quiet { printError(Self.rereadingLine($0)) } }
        // Said before the scan removes them, not after the scan: a scan killed after the removal has said it.
        options.onPossibleMoves = { $0.forEach { printError(Self.possibleMoveLine($0)) } }
        let result = try await library.scan(targets, options: options)
        display?.clear()
        let playlists = ScanPlaylists.report(result.playlists)

        Self.reportProblems(result.summary, possibleMovesSaid: true)
        if result.interrupted { printError("interrupted; what was scanned so far is saved, run the scan again to finish") }

        if json {
            try JSONOutput.write(result.summary)
        } else if !quiet {
            print(Self.text(result.summary) + playlists.summary)
        }
        if result.interrupted { throw ExitCode(ExitStatus.interrupted) }
        if result.summary.hasProblems || playlists.failed > 0 { throw ExitCode(ExitStatus.partialFailure) }
    }

    /// Said before a scan that reads again, unchanged, files an older mlib read (`ScanOptions.onRereading`).
    static func rereadingLine(_ count: Int) -> String {
        "re-reading \(count) file\(count == 1 ? "" : "s") read by an older mlib"
    }

    /// Missing roots, unreadable directories and files that failed, one line each on standard error.
    static func reportProblems(_ summary: ScanSummary, possibleMovesSaid: Bool = false) {
        for root in summary.missingRoots { printError("\(root.path): root \(root.reason)") }
        for dir in summary.unreadableDirectories { printError("\(dir.path): cannot read directory (\(dir.reason)); nothing below it removed") }
        for failure in summary.failures { printError("\(failure.path): \(failure.message)") }
        for path in summary.ambiguousMoves where !possibleMovesSaid { printError(possibleMoveLine(path)) }
    }

    /// An item a scan left on no file: its evidence was not unique (`ScanSummary.ambiguousMoves`).
    static func possibleMoveLine(_ path: MediaPath) -> String {
        "\(path): gone; a possible move: its audio or tags are on more than one file, so none took its ratings and plays (no guess)"
    }

    static func text(_ s: ScanSummary) -> String {
        "\(s.added) added, \(s.updated) updated, " + (s.reread > 0 ? "\(s.reread) re-read, " : "") + "\(s.moved) moved, \(s.removed) removed, "
            + (s.excluded > 0 ? "\(s.excluded) excluded, " : "") + "\(s.unchanged) unchanged, "
            + (s.hardLinked > 0 ? "\(s.hardLinked) hard-linked, " : "")
            + "\(s.failed) failed in \(String(format: "%.2f", s.elapsed)) s (\(Int(s.filesPerSecond.rounded())) files/s)"
    }

    /// `--dry-run`: the walk alone, through the same walker and exclude lists as a scan.
    private func listWithoutScanning() throws {
        let library = try libraryOptions.library()
        var options = Library.ScanOptions()
        options.excludes = exclude
        var entries: [DryRunEntry] = []
        var unchanged = 0
        try library.dryRun(try RawArguments.paths(directories).map(Self.existingDirectory), options: options) { entry in
            if json { return entries.append(entry) }
            switch (entry.excludedBy, entry.verdict) {
            case (let reason?, _): print("- \(entry.path)  excluded by \(reason)")
            case (nil, .new?): print("+ \(entry.path)")
            case (nil, .unchanged?): unchanged += 1     // as the scan: nothing to read, nothing listed
            case (nil, _): print("~ \(entry.path)")    // indexed, and read again: changed, older reader, retry
            }
        }
        if json {
            try JSONOutput.write(entries)
        } else if unchanged > 0 {
            printError("\(unchanged) unchanged \(unchanged == 1 ? "file" : "files") not listed (the scan would not read \(unchanged == 1 ? "it" : "them"))")
        }
    }

    /// The real path of a directory argument, or one line and exit status 1.
    static func existingDirectory(_ directory: MediaPath) throws -> MediaPath {
        guard let real = realPath(directory) else {
            throw CLIError.input("\(directory): \(String(cString: strerror(errno)))")
        }
        var st = stat()
        guard real.withCString({ stat($0, &st) }) == 0, st.st_mode & S_IFMT == S_IFDIR else {
            throw CLIError.input("\(directory): not a directory")
        }
        return real
    }

    static func realPath(_ path: MediaPath) -> MediaPath? {
        guard let resolved = path.withCString({ realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return MediaPath(bytes: Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved))))
    }

    static func absolutePath(_ path: MediaPath) -> MediaPath {
        if let real = Self.realPath(path) { return real }
        if path.bytes.first == UInt8(ascii: "/") { return path }
        return MediaPath(FileManager.default.currentDirectoryPath).appending(path)
    }
}

/// Set by SIGINT/SIGTERM; the scanner polls it and stops after committing its current batch. The handler
/// is C (EarlySignals): installed before `main` for `scan`, it sees a signal at any moment; a second signal,
/// or one that arrives while the process exits, ends it at once with status 130 (the index is consistent:
/// every batch is a transaction). `main` asks `mlib_finishing` for the status once the command returned.
final class StopFlag: Sendable {
    var isSet: Bool { mlib_stop_requested() != 0 }

    /// Makes SIGINT and SIGTERM stop the command cleanly from now on (`signals` is always those two).
    @discardableResult
    func watch(_ signals: [Int32] = [SIGINT, SIGTERM]) -> [any DispatchSourceSignal] {
        mlib_install_stop_handler()
        return []
    }
}

/// A one-line progress display on a terminal's standard error (`mlib scan`, `mlib analyze`): each line
/// replaces the last, cut to the terminal's width.
final class ProgressLine: @unchecked Sendable {
    private let columns: Int = {
        var size = winsize()
        return ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 20 ? Int(size.ws_col) : 80
    }()

    func show(_ text: String) {
        var line = text
        if line.count > columns - 1 { line = String(line.prefix(columns - 2)) + "…" }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
    }

    /// The scan's line: files, rate, ETA, current directory.
    func show(_ p: ScanProgress) {
        let rate = p.elapsed > 0 ? Double(p.filesSeen) / p.elapsed : 0
        var line = "\(p.filesSeen) files, \(Int(rate)) files/s, \(p.filesProbed) read"
        if let expected = p.expectedFiles, rate > 0, expected > p.filesSeen {
            line += Self.eta(Double(expected - p.filesSeen) / rate)
        }
        show(line + "  " + p.directory.string)
    }

    /// ", ETA m:ss".
    static func eta(_ seconds: Double) -> String {
        let eta = Int(seconds)
        return String(format: ", ETA %d:%02d", eta / 60, eta % 60)
    }

    func clear() { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
}
