import ArgumentParser
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
}
