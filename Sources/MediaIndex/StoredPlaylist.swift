import Foundation
import MediaModel

/// A smart playlist's rule, stored as text (the predicate in the format-string syntax, the sort as the
/// CLI writes it) so that the store does not depend on the parser.
public struct SmartPlaylistRule: Sendable, Hashable, Codable {
    public var predicate: String
    public var sort: String?
    public var limit: Int?
    public init(predicate: String, sort: String? = nil, limit: Int? = nil) {
        self.predicate = predicate
        self.sort = sort
        self.limit = limit
    }
}

/// A playlist as stored: static (entries, in order) or smart (a rule evaluated when read).
public struct StoredPlaylist: Sendable, Hashable, Identifiable {
    public var id: Int64
    public var name: String
    public var smart: SmartPlaylistRule?
    public var created: Date
    public var modified: Date
    /// Number of entries (0 for a smart playlist).
    public var entryCount: Int
    /// The playlist file under a root that this playlist mirrors (nil for the user's own): its entries
    /// follow the file on every scan, so they are edited in the file, not here.
    public var source: MediaPath? = nil
    /// The API user who made it (`mlib serve --http`'s `createPlaylist`); nil for the library's own: made
    /// with `mlib playlist`, mirrored from a playlist file, kept from before owners (schema "v16"/"pg v12"),
    /// or left by a user since removed.
    public var owner: String? = nil
    /// Whether users other than its owner see it (read-only). The library's playlists are public unless an
    /// admin made one private; a user's are private until they make them public (`updatePlaylist public=true`).
    public var isPublic: Bool = true
    public var isSmart: Bool { smart != nil }
    package init(id: Int64, name: String, smart: SmartPlaylistRule?, created: Date, modified: Date, entryCount: Int,
                 source: MediaPath? = nil, owner: String? = nil, isPublic: Bool = true) {
        self.id = id
        self.name = name
        self.smart = smart
        self.created = created
        self.modified = modified
        self.entryCount = entryCount
        self.source = source
        self.owner = owner
        self.isPublic = isPublic
    }
}

/// The rights of a front with users (the Subsonic API) over playlists, as Navidrome enforces them
/// (`playlist_repository.go`'s `userFilter`, `playlists.go`'s write check): a user sees their own playlists
/// and the public ones, changes and deletes only their own; an admin sees and changes every playlist. A
/// playlist a user may not see does not exist for them (the API answers "not found", as for an id never
/// made). Fronts without users (the CLI, MPD until issue 40) act as the library's owner and see everything.
extension StoredPlaylist {
    /// Whether `user` (an admin when `admin`) sees this playlist at all.
    public func isVisible(to user: String, admin: Bool) -> Bool {
        admin || owner == user || isPublic
    }

    /// Whether `user` may rename, delete, make public or private, or (a static playlist that mirrors no
    /// file) edit the entries of this playlist: its owner, or an admin. The library's own playlists
    /// (no owner) are therefore read-only for users who are not admins.
    public func isChangeable(by user: String, admin: Bool) -> Bool {
        admin || (owner != nil && owner == user)
    }

    /// Whether its entries can be edited at all: not a smart playlist (its rule decides), not a mirror of a
    /// playlist file (each scan reads the file again).
    public var hasEditableEntries: Bool { !isSmart && source == nil }
}

extension SmartPlaylistRule {
    /// The order when a rule names none: the one `mlib ls` lists in (album order within an artist; files
    /// without tags by path, not in the order the scan found them). With `--limit` it decides which items
    /// a smart playlist holds, so it is the same everywhere (documented in mlib(1), "Smart playlists").
    public static let defaultSort = "artist,album,title,path"

    /// The query a smart playlist's stored rule stands for: the one evaluator of every front and store. The
    /// predicate is a format string (`rating >= 4`), or short-form words when it has no operator
    /// (`artist:björk year:1990..`), as `mlib ls` reads its arguments; an empty one matches everything.
    /// Throws `QueryError` for a rule that no longer parses (a property renamed since it was stored).
    public func query() throws -> MediaQuery {
        let text = predicate.trimmingCharacters(in: .whitespaces)
        let filter: MediaModel.Predicate = text.isEmpty ? .all
            : PredicateParser.looksLikeFormat(text) ? try PredicateParser.parse(text) : try ShortQueryParser.parse(text)
        return MediaQuery(filter: filter, sort: try MediaModel.SortDescriptor.parseList(sort ?? Self.defaultSort), limit: limit)
    }
}
