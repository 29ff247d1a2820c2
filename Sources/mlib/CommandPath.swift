import ArgumentParser
import MediaModel

/// The command line as users type it, made into the one ArgumentParser reads, before it parses.
///
/// Global options before the subcommand: `mlib --library X ls` and `mlib root --library X list` are read as
/// `mlib ls --library X` and `mlib root list --library X` (as `beet -l lib.db ls` and `mpc -h host status`
/// take theirs). ArgumentParser 1.8.2 only reads an option in the command that declares it, and
/// `--library` is declared by each command that opens a library, so it is moved to just after the
/// subcommand path, before anything else the user typed.
///
/// Unknown subcommands: `mlib lss` and `mlib help nosuch` are a usage error with the nearest name
/// ("did you mean 'ls'?"), as query and template typos are; ArgumentParser would say "Unexpected argument"
/// or print the top help and exit 0.
enum CommandPath {
    /// The options any subcommand that opens a library takes, and that may come before it.
    static let globalValueOptions = ["--library"]

    static func normalize(_ arguments: [String], root: ParsableCommand.Type = MLib.self) throws -> [String] {
        if arguments.first == "help" {
            try checkHelpPath(Array(arguments.dropFirst()), root: root)
            return arguments
        }
        var command = root
        var path: [String] = []
        var moved: [String] = []
        var i = 0
        while i < arguments.count, !command.configuration.subcommands.isEmpty {
            let argument = arguments[i]
            if globalValueOptions.contains(argument), i + 1 < arguments.count {
                moved += [argument, arguments[i + 1]]
                i += 2
            } else if globalValueOptions.contains(where: { argument.hasPrefix($0 + "=") }) {
                moved.append(argument)
                i += 1
            } else if let subcommand = subcommand(named: argument, of: command) {
                path.append(argument)
                command = subcommand
                i += 1
            } else {
                // A word where a subcommand must be (the command has no default one): a typo.
                if !argument.hasPrefix("-"), command.configuration.defaultSubcommand == nil {
                    throw UnknownCommand(name: argument, parent: path, candidates: names(of: command, root: root))
                }
                break
            }
        }
        return path + moved + arguments[i...]
    }

    /// `mlib help a b`: each word must name a subcommand of the one before.
    private static func checkHelpPath(_ words: [String], root: ParsableCommand.Type) throws {
        var command = root
        var path: [String] = []
        for word in words where !word.hasPrefix("-") {
            guard let subcommand = subcommand(named: word, of: command) else {
                throw UnknownCommand(name: word, parent: path, candidates: names(of: command, root: root))
            }
            path.append(word)
            command = subcommand
        }
    }

    private static func subcommand(named name: String, of command: ParsableCommand.Type) -> ParsableCommand.Type? {
        command.configuration.subcommands.first { ownNames(of: $0).contains(name) }
    }

    /// A command's name and aliases (every mlib command names itself in its configuration).
    private static func ownNames(of command: ParsableCommand.Type) -> [String] {
        [command.configuration.commandName].compactMap { $0 } + command.configuration.aliases
    }

    /// The words that may follow `command`: its subcommands' names (and `help` at the top).
    private static func names(of command: ParsableCommand.Type, root: ParsableCommand.Type) -> [String] {
        command.configuration.subcommands.flatMap(ownNames) + (ObjectIdentifier(command) == ObjectIdentifier(root) ? ["help"] : [])
    }

    /// "unknown command 'lss' (did you mean 'ls'?)", exit 2.
    struct UnknownCommand: Error, StatusError {
        let name: String
        let parent: [String]
        let candidates: [String]

        var exitStatus: Int32 { ExitStatus.usage }
        var reportLine: String {
            let scope = (["mlib"] + parent).joined(separator: " ")
            let hint = NameSuggestion.nearest(to: name, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
            return "unknown command '\(name)'\(hint); see `\(scope) --help` for the commands"
        }
    }
}
