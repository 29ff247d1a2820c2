import Foundation
import GRDB
import MediaModel

/// The one mapping between `MediaItem` and a row of `items`, generic over `MediaProperty.allCases`:
/// the schema, the scanner's writes and every read (including the query compiler's, in Query*.swift) use it,
/// so adding a property needs no edit here.
enum ItemRow {
    /// Properties stored in a column of their own (`id` and `path` are special).
    static let stored: [MediaProperty] = MediaProperty.allCases.filter { $0 != .persistentID && $0 != .path }
    /// Properties with a `<name>_folded` twin and an FTS column.
    static let searchable: [MediaProperty] = MediaProperty.allCases.filter { $0.spec.searchable }
    /// Properties a rescan rewrites (everything not kept by the library).
    static let fileDerived: [MediaProperty] = stored.filter { $0.spec.origin != .library }

    static func column(_ p: MediaProperty) -> String {
        p == .persistentID ? "id" : p == .path ? "path_text" : p.rawValue
    }
    static func foldedColumn(_ p: MediaProperty) -> String { p.rawValue + "_folded" }

    /// SQL for the value of `p` as `MediaItem[p]` reads it (both dialects): its column, except `rating`, the
    /// user's rating else the file's tag rating. Queries, sorts and the expression indexes on it use this.
    static func valueExpression(_ p: MediaProperty) -> String {
        p == .rating ? #"COALESCE(items."rating", items."tagRating")"# : "items." + quoted(column(p))
    }
    static func quoted(_ name: String) -> String { "\"\(name)\"" }

    static func sqlType(_ type: MediaProperty.ValueType) -> String {
        switch type {
        case .text, .date: "TEXT"
        case .integer, .mediaType, .bool: "INTEGER"
        case .real, .timestamp, .duration: "REAL"
        }
    }

    /// Column list every item SELECT uses, in the order `decode` expects: id, path, tags, then `stored`.
    /// Qualified with `items.` so joins (playlists, FTS) stay unambiguous.
    static let selectColumns: String =
        (["id", "path", "tags"] + stored.map(\.rawValue)).map { "items." + quoted($0) }.joined(separator: ", ")

    /// Builds an item from a row selected with `selectColumns` (extra trailing columns are ignored).
    static func decode(_ row: Row) -> MediaItem {
        item(Array(row.databaseValues), withTags: true, properties: stored)
    }

    /// An item from a row's values, read in one pass as DatabaseValue (GRDB's generic subscript,
    /// `row[i] as Data?`, looks its type's metadata up in the runtime's locked cache on every call, which was
    /// a third of `ls`'s decoding): id, path, the tag map when `withTags`, then `properties` in order.
    static func item(_ values: [DatabaseValue], withTags: Bool, properties: [MediaProperty]) -> MediaItem {
        let pathBytes: [UInt8] = Data.fromDatabaseValue(values[1]).map { Array($0) } ?? []
        var item = MediaItem(path: MediaPath(bytes: pathBytes), tags: withTags ? decodeTags(values[2]) : [:])
        item.persistentID = Int64.fromDatabaseValue(values[0]) ?? 0
        let first = withTags ? 3 : 2
        for (offset, property) in properties.enumerated() {
            item[property] = value(values[first + offset], as: property.spec.type)
        }
        return item
    }

    static func value(_ dbValue: DatabaseValue, as type: MediaProperty.ValueType) -> MediaValue? {
        switch dbValue.storage {
        case .null: return nil
        case .int64(let i):
            switch type {
            case .bool: return .bool(i != 0)
            case .real, .timestamp, .duration: return .real(Double(i))
            case .text, .date: return .text(String(i))
            case .integer, .mediaType: return .integer(i)
            }
        case .double(let d): return MediaValue.real(d).coerced(to: type)
        case .string(let s): return MediaValue.text(s).coerced(to: type)
        case .blob(let b): return .text(String(decoding: b, as: UTF8.self))
        }
    }

    static func databaseValue(_ value: MediaValue?) -> DatabaseValue {
        switch value {
        case nil: .null
        case .text(let s)?: s.databaseValue
        case .integer(let i)?: i.databaseValue
        case .real(let d)?: d.isFinite ? d.databaseValue : .null
        case .bool(let b)?: (b ? 1 : 0).databaseValue
        }
    }

    /// Column names and values written for the file-derived part of an item: path, text path, directory,
    /// tags, every file-derived property and the folded twins of the searchable ones. User data is never here.
    static let fileColumnNames: [String] =
        ["path", "path_text", "dir", "tags"] + fileDerived.map(\.rawValue) + searchable.map(foldedColumn)

    static func fileColumnValues(_ item: MediaItem) -> [DatabaseValue] {
        var values: [DatabaseValue] = [
            Data(item.path.bytes).databaseValue, item.path.string.databaseValue,
            Data(item.path.directory.bytes).databaseValue, encodeTags(item.tags),
        ]
        for p in fileDerived { values.append(databaseValue(item[p])) }
        for p in searchable { values.append(item[p]?.text.map { TextFolding.folded($0).databaseValue } ?? .null) }
        return values
    }

    /// The tag map as a JSON object with sorted keys (equal maps give equal text), through MediaModel's
    /// JSONValue writer: Foundation's JSONSerialization with sorted keys cost more than the SQLite insert.
    static func encodeTags(_ tags: [String: String]) -> DatabaseValue {
        guard !tags.isEmpty else { return .null }
        return JSONValue.object(tags.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }).serialized().databaseValue
    }

    static func decodeTags(_ dbValue: DatabaseValue) -> [String: String] {
        guard let text = String.fromDatabaseValue(dbValue),
              let object = JSONValue.stringMap(parsing: text)
        else { return [:] }
        return object
    }
}
