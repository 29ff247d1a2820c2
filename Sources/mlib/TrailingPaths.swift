import ArgumentParser

/// A command whose last positional argument is a list of paths, often thousands long (`mlib info *.flac`,
/// `find … | xargs mlib info`).
protocol TrailingPathsCommand: ParsableCommand {
    var files: [String] { get set }
}

extension Info: TrailingPathsCommand {}

/// swift-argument-parser 1.8.2 spends time quadratic in the number of values of a repeating positional
/// argument (each value copies the array parsed so far and the set of input positions it came from):
/// 5,200 paths took 1.3 s before the first file was read, 40% of `info`'s time in its benchmark. So a long
/// trailing run of plain arguments goes around it: the parser sees the command line up to the first two
/// arguments of the run (the first may be the value of the option before it, so the second is surely a
/// path), and the rest is appended to the command's list after parsing, in order.
///
/// This holds while every option of such a command takes at most one value and the path list is its last
/// positional; `TrailingPathsTests` checks the split against the parser itself.
enum TrailingPaths {
    /// Below this many arguments the parser's own cost is negligible and nothing is split.
    static let threshold = 64

    /// The commands whose path lists go around the parser: each conforms to TrailingPathsCommand.
    static let commands: Set<String> = ["info"]

    /// `arguments` without the program name, split into what the parser sees and the paths it need not.
    static func split(_ arguments: [String]) -> (parsed: [String], trailing: [String]) {
        guard arguments.count > threshold, let name = arguments.first, commands.contains(name) else { return (arguments, []) }
        // After a `--` every argument is a path; before it, a path is any argument not starting with "-"
        // ("-" alone is a path too: standard input, for commands that read it).
        let start: Int
        if let terminator = arguments.firstIndex(of: "--") {
            start = terminator + 1
        } else {
            var i = arguments.endIndex
            while i > 1, arguments[i - 1] == "-" || !arguments[i - 1].hasPrefix("-") { i -= 1 }
            start = i
        }
        let cut = start + 2
        guard cut < arguments.endIndex else { return (arguments, []) }
        return (Array(arguments[..<cut]), Array(arguments[cut...]))
    }

    /// The command parsed from `arguments` with the trailing paths added back.
    static func parseAsRoot<Root: ParsableCommand>(_ root: Root.Type, _ arguments: [String]) throws -> ParsableCommand {
        let (parsed, trailing) = split(arguments)
        let command = try root.parseAsRoot(parsed)
        guard !trailing.isEmpty, var withPaths = command as? any TrailingPathsCommand else { return command }
        withPaths.files += trailing
        return withPaths
    }
}
