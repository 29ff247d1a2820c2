import Foundation

/// Where a library lives, as users write it in `--library` and `MLIB_LIBRARY`: a file path or `sqlite:PATH`
/// for the embedded SQLite store, `postgres://user@host:port/database` (or `postgresql://`) for a server.
/// The one place that turns a locator into a store, so that every front opens libraries the same way.
public enum LibraryLocator: Sendable, Hashable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(url: String)

    public init(_ text: String) {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(url: text)
        } else if text.hasPrefix("sqlite:") {
            self = .sqlite(path: String(text.dropFirst("sqlite:".count)))
        } else {
            self = .sqlite(path: text)
        }
    }

    public var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let url): url
        }
    }

    /// The SQLite file, when the library is one (the scan lock sits beside it).
    public var sqlitePath: String? {
        if case .sqlite(let path) = self { return path }
        return nil
    }
}
