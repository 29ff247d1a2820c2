import ArgumentParser
import EarlySignals
import Foundation

/// The `mlib` command. Each subcommand lives in its own file and is a thin layer over the library modules.
@main
struct MLib: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mlib",
        abstract: "Index, query and play a media library; read metadata from any audio or video file.",
        discussion: """
            The library is an SQLite database, by default $XDG_DATA_HOME/mlib/library.sqlite \
            (~/.local/share/mlib/library.sqlite); set --library or MLIB_LIBRARY to use another. \
            See mlib(1) and mlib-query(7).
            """,
        version: MLibVersion.string,
        subcommands: [Info.self, Scan.self, Watch.self, Root.self, Stats.self, Failures.self, List.self, Export.self, PlaylistCommand.self, Play.self, Serve.self]
    )

    /// ArgumentParser exits 64 (EX_USAGE) on a usage error; mlib documents 2, like most Unix tools.
    static func main() async {
        do {
            var command = try parseAsRoot(Self.libraryOptionAfterSubcommand(Array(CommandLine.arguments.dropFirst())))
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            // A signal that arrived while the command finished still ends in status 130 (see StopFlag).
            if mlib_finishing() != 0 {
                printError("interrupted; what was scanned so far is saved, run the scan again to finish")
                Foundation.exit(ExitStatus.interrupted)
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(ExitStatus.usage)
            }
            exit(withError: error)
        }
    }
}

extension MLib {
    /// `mlib playlist --library X list` as `mlib playlist list --library X`. ArgumentParser reads an option
    /// only on the command that declares it, and `playlist` itself only groups subcommands; putting the
    /// library first is natural, so it is moved where the subcommand will read it.
    static func libraryOptionAfterSubcommand(_ arguments: [String]) -> [String] {
        guard arguments.first == "playlist" else { return arguments }
        var moved: [String] = [], i = 1
        while i < arguments.count {
            if arguments[i] == "--library", i + 1 < arguments.count {
                moved += arguments[i...(i + 1)]
                i += 2
            } else if arguments[i].hasPrefix("--library=") {
                moved.append(arguments[i])
                i += 1
            } else {
                break
            }
        }
        guard !moved.isEmpty, i < arguments.count else { return arguments }
        return ["playlist", arguments[i]] + moved + arguments[(i + 1)...]
    }
}

enum MLibVersion {
    static let string = "0.1.0"
}

/// Exit codes, documented in mlib(1).
enum ExitStatus {
    static let success: Int32 = 0
    /// Some inputs failed (unreadable files, unresolved playlist entries, a missing scan root).
    static let partialFailure: Int32 = 1
    /// Usage error: unknown option, missing argument, invalid value.
    static let usage: Int32 = 2
    /// The library could not be opened or is locked by another scan (with --no-wait).
    static let libraryUnavailable: Int32 = 3
    /// Interrupted by a signal (the work done so far is committed and consistent).
    static let interrupted: Int32 = 130
}
