import ArgumentParser
import Foundation
import MediaIndex
import MediaModel

/// Shell completion for the arguments ArgumentParser cannot guess (`mlib --generate-completion-script
/// bash|zsh|fish`, installed by scripts/install.sh): query terms complete to property names, playlist
/// arguments to the playlists of the library the command line names.
enum Completions {
    /// `artist:`, `album:`, … (names and aliases as short-form fields) and the combining words.
    static let queryTerms: CompletionKind = .list(
        (MediaProperty.allCases.map(\.rawValue) + MediaProperty.aliases.keys.sorted()).map { $0 + ":" } + ["AND", "OR", "NOT"])

    /// The names of the playlists in the library given by --library (or MLIB_LIBRARY, or the default).
    static let playlistNames: CompletionKind = .custom { words, _, _ in
        var arguments: [String] = []
        if let i = words.firstIndex(of: "--library"), i + 1 < words.count { arguments = ["--library", words[i + 1]] }
        if let given = words.first(where: { $0.hasPrefix("--library=") }) { arguments = [given] }
        guard let options = try? LibraryOptions.parse(arguments), let index = try? options.open(),
              let playlists = try? index.playlists() else { return [] }
        return playlists.map(\.name)
    }

    /// `$artist`, `$albumArtist`, … for a -f template (the field being typed, when the template is its own word).
    static let templateFields: CompletionKind = .custom { _, _, _ in
        // bash's `compgen -W` expands each word of its list again: a bare `$title` would become empty.
        let dollar = ProcessInfo.processInfo.environment["SAP_SHELL"] == "bash" ? "\\$" : "$"
        return (MediaProperty.allCases.map(\.rawValue) + MediaProperty.aliases.keys.sorted()).map { dollar + $0 }
    }

    /// `mlib --generate-completion-script bash`: ArgumentParser's script, with what 1.8.2 cannot be told.
    /// - `complete -o default`: where the script offers nothing (an argument mlib cannot guess, a value
    ///   typed that matches no word), bash's own filename completion runs, as for commands without a
    ///   completion script; without it, installing the script took path completion away.
    /// - `mlib help <TAB>` offers the subcommands (ArgumentParser's `help` completes nothing).
    /// - A subcommand name still being typed is completed as one: ArgumentParser's script took the word
    ///   under the cursor for the subcommand as soon as it named one, so `mlib pla<TAB>` (which bash
    ///   completes to `play`, the common prefix) never offered `playlist`.
    /// - The script ends with a newline (it ended on `_mlib mlib`, which `cat`ing it or appending to it
    ///   joined with the next line).
    /// nil for the other shells and other command lines: ArgumentParser answers those itself.
    static func script(for arguments: [String]) -> String? {
        guard arguments == ["--generate-completion-script", "bash"] || arguments == ["--generate-completion-script=bash"] else { return nil }
        return bashScript(MLib.completionScript(for: .bash))
    }

    static func bashScript(_ generated: String) -> String {
        var script = generated.replacingOccurrences(of: "\ncomplete -o filenames -F ", with: "\ncomplete -o default -o filenames -F ")
        let names = MLib.configuration.subcommands.compactMap { $0.configuration.commandName }.joined(separator: " ")
        if let start = script.range(of: "\n_mlib_help() {\n"), let end = script.range(of: "\n}\n", range: start.upperBound..<script.endIndex) {
            script.insert(contentsOf: "\n    COMPREPLY+=($(compgen -W '\(names)' -- \"${cur}\"))", at: end.lowerBound)
        }
        script = script.replacingOccurrences(of: "    local -r subcommand=\"${unparsed_words[0]}\"\n",
                                              with: "    local subcommand=\"${unparsed_words[0]}\"\n"
                                                  + "    # The word under the cursor is still being typed: offer the subcommands it may become.\n"
                                                  + "    (( ${#unparsed_words[@]} > 1 )) || subcommand=\"\"\n")
        if !script.hasSuffix("\n") { script += "\n" }
        return script
    }
}
