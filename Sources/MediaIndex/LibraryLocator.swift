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

    /// The locator as messages show it: a server's without its password (`user:secret@` and `?password=` left out).
    public var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let url): "postgres://" + Self.redacted(url).drop { $0 != "/" }.dropFirst(2)
        }
    }

    /// The SQLite file, when the library is one (the scan lock sits beside it).
    public var sqlitePath: String? {
        if case .sqlite(let path) = self { return path }
        return nil
    }

    /// A locator's text with its password left out (`postgres://user:secret@…` and `?password=secret`):
    /// messages never show a secret, even from a malformed locator.
    public static func redacted(_ text: String) -> String {
        var text = text
        if let scheme = text.range(of: "://") {
            let rest = text[scheme.upperBound...]
            let authorityEnd = rest.firstIndex(where: { $0 == "?" }) ?? rest.endIndex
            // The last @ before the query: a password may hold an unescaped @ or /.
            if let at = rest[..<authorityEnd].lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") {
                text.replaceSubrange(colon..<at, with: "")
            }
        }
        if let query = text.firstIndex(of: "?") {
            let parameters = text[text.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false).map { pair in
                pair.lowercased().hasPrefix("password=") ? "password=…" : String(pair)
            }
            text = text[...query] + parameters.joined(separator: "&")
        }
        return text
    }
}
