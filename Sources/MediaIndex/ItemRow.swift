import Foundation
import MediaModel

/// The one mapping between `MediaItem` and a row of `items`, generic over `MediaProperty.allCases`:
/// the schema, the scanner's writes and every read (including the query compiler's, in Query*.swift) use it,
/// so adding a property needs no edit here.
package enum ItemRow {
    /// Properties stored in a column of their own (`id` and `path` are special).
    package static let stored: [MediaProperty] = MediaProperty.allCases.filter { $0 != .persistentID && $0 != .path }
    /// Properties with a `<name>_folded` twin and an FTS column.
    package static let searchable: [MediaProperty] = MediaProperty.allCases.filter { $0.spec.searchable }
    /// Properties a rescan rewrites (everything not kept by the library).
    package static let fileDerived: [MediaProperty] = stored.filter { $0.spec.origin != .library }

    package static func column(_ p: MediaProperty) -> String {
        p == .persistentID ? "id" : p == .path ? "path_text" : p.rawValue
    }
    package static func foldedColumn(_ p: MediaProperty) -> String { p.rawValue + "_folded" }

    /// SQL for the value of `p` as `MediaItem[p]` reads it (both dialects): its column, except `rating`, the
    /// user's rating else the file's tag rating. Queries, sorts and the expression indexes on it use this.
    package static func valueExpression(_ p: MediaProperty) -> String {
        p == .rating ? #"COALESCE(items."rating", items."tagRating")"# : "items." + quoted(column(p))
    }
    package static func quoted(_ name: String) -> String { "\"\(name)\"" }

    package static func sqlType(_ type: MediaProperty.ValueType) -> String {
        switch type {
        case .text, .date: "TEXT"
        case .integer, .mediaType, .bool: "INTEGER"
        case .real, .timestamp, .duration: "REAL"
        }
    }

    /// Column list every item SELECT uses, in the order `decode` expects: id, path, tags, then `stored`.
    /// Qualified with `items.` so joins (playlists, FTS) stay unambiguous.
    package static let selectColumns: String =
        (["id", "path", "tags"] + stored.map(\.rawValue)).map { "items." + quoted($0) }.joined(separator: ", ")

    /// Column names and values written for the file-derived part of an item: path, text path, directory,
    /// tags, every file-derived property and the folded twins of the searchable ones. User data is never here.
    package static let fileColumnNames: [String] =
        ["path", "path_text", "dir", "tags"] + fileDerived.map(\.rawValue) + searchable.map(foldedColumn)

}
