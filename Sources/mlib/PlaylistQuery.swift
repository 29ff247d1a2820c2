import ArgumentParser
import Foundation
import Library
import MediaIndex
import MediaModel

/// Query arguments as the playlist commands read them, and smart playlist rules.
enum PlaylistQuery {
    /// The order when no --sort is given (the one smart playlists use).
    static let defaultSort = PlaylistContents.defaultSort

    /// A query from QUERY arguments (`QueryArguments`, as `mlib ls`), `--sort` and `--limit`; a bad
    /// query is one line with a caret, exit 2.
    static func query(_ terms: [String], sort: SortOptions, limit: Int?) throws -> MediaQuery {
        MediaQuery(filter: try QueryInput.predicate(terms), sort: try sort.descriptors(default: defaultSort), limit: limit)
    }

    /// The rule stored for QUERY arguments. Format-string arguments are stored as typed (ANDed), so a
    /// relative date in them (`dateAdded > "-7d"`) stays relative; when short-form terms are among them
    /// the whole query is stored as the equivalent format string, with relative dates fixed now.
    static func rule(_ terms: [String], sort: SortOptions, limit: Int?) throws -> SmartPlaylistRule {
        let query = try query(terms, sort: sort, limit: limit)
        var text = query.filter.description
        if !terms.isEmpty, terms.allSatisfy(PredicateParser.looksLikeFormat) {
            let typed = terms.count == 1 ? terms[0] : terms.map { "(\($0))" }.joined(separator: " AND ")
            if (try? PredicateParser.parse(typed)) != nil { text = typed }
        }
        // The sort as keys (`~` marks a key whose articles are ignored, so --ignore-articles is kept too).
        let stored = sort.sort != nil || sort.ignoreArticles ? SortDescriptor.listDescription(query.sort) : nil
        return SmartPlaylistRule(predicate: text, sort: stored, limit: limit)
    }
}

extension PlaylistStore {
    /// The playlist named `name`, or `IndexError.playlistNotFound` (exit 1).
    func requirePlaylist(_ name: String) throws -> StoredPlaylist {
        guard let playlist = try playlist(named: name) else {
            throw IndexError.playlistNotFound(database: libraryName, name: name)
        }
        return playlist
    }
}
