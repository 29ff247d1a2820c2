import ArgumentParser
import EarlySignals
import Foundation
import TagWriting

/// The `mlib` command. Each subcommand lives in its own file and is a thin layer over the library modules.
@main
struct MLib: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mlib",
        abstract: "Index, query and play a media library; read metadata from any audio or video file.",
        discussion: """
            The library is an SQLite database, by default $XDG_DATA_HOME/mlib/library.sqlite \
            (~/.local/share/mlib/library.sqlite); set --library or MLIB_LIBRARY to use another. \
            --library may come before the subcommand too (mlib --library X ls, mlib root --library X list). \
            See mlib(1) and mlib-query(7).

            \(ExitStatus.help(one: "some inputs failed (see each command)", interruptible: true))
            """,
        version: MLibVersion.string,
        // Every command names itself in its configuration: a derived name costs a String(describing:) whose
        // dynamic casts scan every protocol conformance, about 4 ms of each start-up for these commands.
        subcommands: [Info.self, Scan.self, Watch.self, Root.self, Stats.self, Failures.self, List.self, Export.self, PlaylistCommand.self, Play.self,
                      Rate.self, SetUserData.self, History.self, ImportUserData.self, Tag.self, LyricsCommand.self, Fields.self, Serve.self, User.self, RadioCommand.self, Analyze.self, Dupes.self, Resolve.self]
    )

    /// The one place mlib exits: every error becomes one "mlib: …" line and the status its type knows
    /// (ExitStatus.swift). No command, worker thread or library calls exit().
    static func main() async {
        let status: Int32
        // An `mlib tag` killed mid-write left its journal: every file is made wholly old again first, and
        // said (TagWriting's recovery, which Library.open and every scan also run, for serve, watch and
        // Swift programs; here for the commands that open no library too, as tag --files and info).
        for line in TagJournal.recoverInterruptedWrites().messages { printError(line) }
        do {
            if let script = Completions.script(for: Array(CommandLine.arguments.dropFirst())) {
                print(script, terminator: "")
                Foundation.exit(ExitStatus.success)
            }
            let arguments = try CommandPath.normalize(Array(CommandLine.arguments.dropFirst()))
            var command = try TrailingPaths.parseAsRoot(Self.self, arguments)
            do {
                if var asyncCommand = command as? AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    try command.run()
                }
            } catch let error as ValidationError {
                // Found while running (`play --start 9` past the queue's end): ArgumentParser would show the
                // top command's usage, `mlib <subcommand>`; the user needs this command's.
                throw CommandUsageError(message: error.message, command: type(of: command))
            }
            status = ExitStatus.success
        } catch is CancellationError where mlib_stop_requested() != 0 {
            // A wait given up on SIGINT/SIGTERM before anything was written (a scan waiting for another
            // one's lock): the status the signal's default action gives, 128 + its number.
            status = 128 + mlib_stop_requested()
        } catch {
            status = ErrorReport.report(error)
        }
        // A signal that arrived while the command finished still ends in status 130 (see StopFlag).
        if status == ExitStatus.success && mlib_finishing() != 0 {
            printError("interrupted; what was scanned so far is saved, run the scan again to finish")
            Foundation.exit(ExitStatus.interrupted)
        }
        Foundation.exit(status)
    }
}

enum MLibVersion {
    static let string = "0.1.0"
}

