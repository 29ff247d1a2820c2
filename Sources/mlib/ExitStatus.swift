import ArgumentParser
import Foundation
import Library
import MediaIndex
#if PostgreSQL
import PostgresStore
#endif
import MediaModel
import MediaProbe
import MediaScanner
import MediaWatch
import Playback
import Playlists

/// Exit statuses, documented in mlib(1) and in every command's --help (`ExitStatus.help`).
enum ExitStatus {
    static let success: Int32 = 0
    /// Some inputs failed (unreadable files, unresolved playlist entries, a missing scan root, nothing matched).
    static let partialFailure: Int32 = 1
    /// Usage error: unknown option, missing argument, invalid value, a query that cannot be parsed.
    static let usage: Int32 = 2
    /// The library is missing, cannot be opened or used (corrupt, newer, a database error), or is locked.
    static let libraryUnavailable: Int32 = 3
    /// Interrupted by a signal (the work done so far is committed and consistent).
    static let interrupted: Int32 = 130
    /// Standard output's reader went away (`| head`): what SIGPIPE's default action gives, 128 + 13.
    static let brokenPipe: Int32 = 141

    /// The paragraph every command's --help ends with; `one` says what status 1 means for that command
    /// (nil when it cannot happen), `interruptible` whether it stops cleanly on SIGINT/SIGTERM.
    static func help(one: String?, library: Bool = true, interruptible: Bool = false) -> String {
        var parts = ["0 success"]
        if let one { parts.append("1 " + one) }
        parts.append("2 usage error (an unknown option, a bad value or query)")
        if library { parts.append("3 no library at the path, or it cannot be opened or used (corrupt, from a newer mlib, a database error, locked by a scan)") }
        if interruptible { parts.append("130 interrupted (what was done so far is saved)") }
        return "Exit status: " + parts.joined(separator: "; ") + "."
    }
}

/// An error that knows which exit status it ends mlib with. Conformances are all here, so the mapping
/// from error to status is in one place; `main` is the only code that exits.
protocol StatusError: Error {
    var exitStatus: Int32 { get }
    /// The line printed after "mlib: ".
    var reportLine: String { get }
}

extension StatusError where Self: CustomStringConvertible {
    var reportLine: String { description }
}

extension OtherHostItems: StatusError {
    var exitStatus: Int32 { ExitStatus.partialFailure }
}

extension IndexError: StatusError {
    var exitStatus: Int32 {
        switch self {
        case .cannotOpen, .noLibrary, .database: ExitStatus.libraryUnavailable
        case .playlistNotFound, .playlistExists, .itemNotFound: ExitStatus.partialFailure
        case .invalidArgument: ExitStatus.usage
        }
    }

    var reportLine: String {
        switch self {
        case .noLibrary: description + " (run mlib scan DIR to create one, or check --library / MLIB_LIBRARY)"
        // The library is fine: leading with its path made it look broken.
        case .playlistNotFound(_, let name): "no playlist named \"\(name)\" (mlib playlist list shows them)"
        case .playlistExists(_, let name): "a playlist named \"\(name)\" already exists"
        default: description
        }
    }
}

extension UsersError: StatusError {
    /// An unknown --user or MLIB_USER is a bad value (2); a refusal about the accounts themselves is 1.
    var exitStatus: Int32 {
        switch self {
        case .unknownUser: ExitStatus.usage
        case .generic, .notFound, .notAllowed: ExitStatus.partialFailure
        }
    }
}

extension UserDataImportError: StatusError {
    /// Users the library does not have are a bad value (2), as an unknown --user; a file that cannot be
    /// read or is not of its format is a failed input (1).
    var exitStatus: Int32 {
        switch self {
        case .unknownUsers: ExitStatus.usage
        case .malformed, .unreadable: ExitStatus.partialFailure
        }
    }
}

extension QueryError: StatusError {
    var exitStatus: Int32 { ExitStatus.usage }
    var reportLine: String {
        // The query with a caret under the problem, on the lines after the message.
        let diagram = caretDiagram.map { "\n" + $0.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n") }
        return "query error: \(description)" + (diagram ?? "")
    }
}

extension ScanLock.Failure: StatusError {
    var exitStatus: Int32 { ExitStatus.libraryUnavailable }
}

#if PostgreSQL
extension PostgresRootLock.Failure: StatusError {
    var exitStatus: Int32 { ExitStatus.libraryUnavailable }
}
#endif

extension ProbeError: StatusError {
    var exitStatus: Int32 { ExitStatus.partialFailure }
}

extension SinkError: StatusError {
    var exitStatus: Int32 { ExitStatus.partialFailure }
}

extension PlaylistError: StatusError {
    var exitStatus: Int32 { ExitStatus.partialFailure }
}

extension WatchError: StatusError {
    var exitStatus: Int32 { ExitStatus.libraryUnavailable }
    var reportLine: String { "cannot watch: \(description)" }
}

/// Errors of the CLI itself, each with its status.
enum CLIError: StatusError, CustomStringConvertible {
    /// The query matched nothing where something was needed (play, export, playlist add).
    case nothingMatches(String)
    /// A smart playlist where a static one is needed, or the reverse.
    case wrongPlaylistKind(String)
    /// An input the command could not use (a directory that does not exist, a position out of range).
    case input(String)

    var exitStatus: Int32 { ExitStatus.partialFailure }
    var description: String {
        switch self {
        case .nothingMatches(let m), .wrongPlaylistKind(let m), .input(let m): m
        }
    }
}

/// A usage error a command found while running: the message, then that command's usage, as
/// ArgumentParser prints one found while parsing.
struct CommandUsageError: StatusError {
    let message: String
    let command: ParsableCommand.Type

    var exitStatus: Int32 { ExitStatus.usage }
    var reportLine: String {
        let usage = MLib.usageString(for: command)
        // "mlib play [<options>] …" → "mlib play": the words before the first placeholder.
        let name = usage.split(separator: " ").prefix { !$0.hasPrefix("[") && !$0.hasPrefix("<") }.joined(separator: " ")
        return "\(message)\nUsage: \(usage)\n  See '\(name) --help' for more information."
    }
}

enum ErrorReport {
    /// Prints `error` as mlib prints every error ("mlib: …" on standard error) and returns its exit status.
    /// ArgumentParser's own errors (usage, --help, --version) keep their text, with "mlib:" for "Error:".
    static func report(_ error: any Error) -> Int32 {
        if let error = error as? any StatusError {
            printError(error.reportLine)
            return error.exitStatus
        }
        let code = MLib.exitCode(for: error)
        if code == .success {
            // --help, --version: ArgumentParser prints them on standard output.
            let text = MLib.fullMessage(for: error, columns: nil)
            if !text.isEmpty { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
            return ExitStatus.success
        }
        if error is ExitCode { return code.rawValue }  // the command printed its lines already
        var text = MLib.fullMessage(for: error, columns: nil)
        if text.hasPrefix("Error: ") { text.removeFirst("Error: ".count) }
        printError(text)
        // ArgumentParser's usage errors exit 64 (EX_USAGE); mlib documents 2, like most Unix tools.
        return code == .validationFailure || code.rawValue == 64 ? ExitStatus.usage : ExitStatus.partialFailure
    }
}
