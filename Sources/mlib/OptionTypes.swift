import ArgumentParser
import MediaModel
import Playback
import Playlists

// One type per kind of option value, read the same way by every command that takes it (and completed by
// the shells from the same lists). Declared once each: a key that starts with '-' (`--sort -added`) must be
// read as a value everywhere, not in some commands only.

/// `--sort KEYS`: comma-separated keys (property names or aliases, as in queries), '-' for descending.
/// With `--group`, `count` and `duration` sort the groups by their size and total duration.
struct SortKeys: ExpressibleByArgument, Sendable {
    let text: String

    /// Any text: an unknown key is reported by `SortOptions.validate` with the nearest key, as a query's is
    /// (ArgumentParser's own message for a nil here would only say the value is invalid).
    init?(argument: String) {
        text = argument
    }

    var defaultValueDescription: String { text }

    /// The item order these keys give (`count` is only for groups: a `QueryError` here).
    func descriptors(ignoreArticles: Bool) throws -> [SortDescriptor] {
        try SortDescriptor.parseList(text, ignoreArticles: ignoreArticles)
    }

    static var defaultCompletionKind: CompletionKind { .list(MediaProperty.allCases.map(\.rawValue)) }
}

/// `--sort` and `--ignore-articles`, for every command that orders items.
struct SortOptions: ParsableArguments {
    /// Repeatable: `--sort year --sort artist` is `--sort year,artist` (each adds keys; none is dropped).
    @Option(name: .customLong("sort"), parsing: .unconditionalSingleValue, help: ArgumentHelp(
        "Sort keys, comma-separated, '-' for descending (e.g. artist,-year or --sort -added; see mlib fields); repeat to add keys.",
        valueName: "keys"))
    var sortKeys: [SortKeys] = []

    @Flag(help: "Sort \"The Beatles\" as \"Beatles\" (leading The, A, An).")
    var ignoreArticles = false

    /// All the keys given, in order; nil when --sort was not given.
    var sort: SortKeys? {
        sortKeys.isEmpty ? nil : SortKeys(argument: sortKeys.map(\.text).joined(separator: ","))
    }

    /// An unknown key is a usage error (2) naming the nearest key ("unknown sort key 'yeer' (did you mean
    /// 'year'?)"), before anything is opened. A ValidationError: ArgumentParser reports any other error
    /// thrown here as a failure (1), its type lost.
    func validate() throws {
        for keys in sortKeys {
            do { _ = try CollectionOrdering.parse(keys.text) } catch let error as QueryError { throw ValidationError("--sort: " + error.reportLine) }
        }
    }

    /// The sort, or `defaultKeys` when none was given.
    func descriptors(default defaultKeys: String?) throws -> [SortDescriptor] {
        if let sort { return try sort.descriptors(ignoreArticles: ignoreArticles) }
        return try defaultKeys.map { try SortDescriptor.parseList($0, ignoreArticles: ignoreArticles) } ?? []
    }
}

extension MediaGrouping: ExpressibleByArgument {
    /// `albums`, `album`, `albumArtists`, `album_artists`, …: singular or plural, any case.
    public init?(argument: String) {
        switch argument.lowercased() {
        case "album", "albums": self = .album
        case "artist", "artists": self = .artist
        case "albumartist", "albumartists", "album_artists", "album-artists": self = .albumArtist
        case "composer", "composers": self = .composer
        case "genre", "genres": self = .genre
        case "title", "titles", "song", "songs": self = .title
        case "playlist", "playlists": self = .playlist
        case "podcast", "podcasts": self = .podcastTitle
        default: return nil
        }
    }

    public static var allValueStrings: [String] { ["albums", "artists", "albumArtists", "composers", "genres", "titles", "playlists", "podcasts"] }
    public var defaultValueDescription: String { rawValue }
}

extension PlaylistFormat: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

extension SinkSpec: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
    public static var allValueStrings: [String] { ["auto", "null", "null:fast", "wav:FILE", "pcm"] }
    public static var defaultCompletionKind: CompletionKind { .list(["auto", "null", "null:fast", "wav:", "pcm"]) }
}

/// `--shuffle` and `serve --random`: `off`, `songs`, `albums`, read as `--group` reads its kinds (singular
/// or plural, any case: `--shuffle song` as `--group album`); `none` is `off`, as for `--repeat`.
extension ShuffleMode: ExpressibleByArgument {
    public init?(argument: String) {
        switch argument.lowercased() {
        case "off", "none": self = .off
        case "song", "songs": self = .songs
        case "album", "albums": self = .albums
        default: return nil
        }
    }
    public static var allValueStrings: [String] { ["off", "songs", "albums"] }
}

/// `--repeat`: `off` (or `none`, the enum's name), `one`, `all`, any case: the same word turns shuffle and
/// repeat off.
extension RepeatMode: ExpressibleByArgument {
    public init?(argument: String) {
        switch argument.lowercased() {
        case "off", "none": self = .none
        case "one", "single": self = .one
        case "all": self = .all
        default: return nil
        }
    }
    public static var allValueStrings: [String] { ["off", "one", "all"] }
}
