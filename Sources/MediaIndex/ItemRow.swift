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
    /// Properties a rescan rewrites (everything not kept by the library or measured by `mlib analyze`).
    package static let fileDerived: [MediaProperty] = stored.filter { MediaProperty.fileDerived.contains($0) }

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


    /// An item from a row selected with `selectColumns` (extra trailing columns are ignored).
    package static func item(_ row: SQLRow) -> MediaItem {
        item(row.values, withTags: true, properties: stored)
    }

    /// An item from a row's values: id, path, the tag map when `withTags`, then `properties` in order.
    package static func item(_ values: [SQLValue], withTags: Bool, properties: [MediaProperty]) -> MediaItem {
        var item = MediaItem(path: MediaPath(bytes: values[1].bytes ?? []), tags: withTags ? tags(fromJSON: values[2].text) : [:])
        item.persistentID = values[0].integer ?? 0
        let first = withTags ? 3 : 2
        for (offset, property) in properties.enumerated() {
            guard let read = value(values[first + offset], as: property.spec.type) else { continue }
            let bounded = StoredBounds.bounded(property, read)
            if bounded != read { OutOfRangeValues.log(item: item.persistentID, property, read, bounded) }
            item[property] = bounded
        }
        return item
    }

    /// A stored value as the property's type (SQLite's column affinity may hand back another type).
    package static func value(_ value: SQLValue, as type: MediaProperty.ValueType) -> MediaValue? {
        switch value {
        case .null, .integers, .texts, .nullableIntegers: return nil
        case .integer(let i):
            switch type {
            case .bool: return .bool(i != 0)
            case .real, .timestamp, .duration: return .real(Double(i))
            case .text, .date: return .text(String(i))
            case .integer, .mediaType: return .integer(i)
            }
        case .real(let d): return MediaValue.real(d).coerced(to: type)
        case .text(let s): return MediaValue.text(s).coerced(to: type)
        case .bytes(let b): return .text(String(decoding: b, as: UTF8.self))
        }
    }

    /// A property's value as its column's type (what SQLite's column affinity does; PostgreSQL's columns
    /// are typed).
    package static func columnValue(_ value: MediaValue?, as type: MediaProperty.ValueType) -> SQLValue {
        let v = value?.coerced(to: type)
        switch type {
        case .text, .date: return v.map { .text($0.text ?? $0.description) } ?? .null
        case .integer, .mediaType, .bool: return v?.integer.map(SQLValue.integer) ?? .null
        case .real, .timestamp, .duration: return v?.real.flatMap { $0.isFinite ? .real($0) : nil } ?? .null
        }
    }

    /// Every column a read of the file writes (`missing_gen` too: a file read is a file found), in the order
    /// `scanRowValues` gives them. User data is never here.
    package static let scanColumnNames: [String] = fileColumnNames
        + ["scan_mtime", "scan_inode", "scan_device", "fingerprint", "head_hash", "tail_hash", "scan_failed", "missing_gen",
           "reader_version", "payload_hash", "scan_birth"]

    /// What the `<name>_folded` column of a searchable property holds: the text folded (`TextFolding`), a
    /// multi-valued one value by value, so that the SQL that splits it finds each value folded as Swift folds
    /// it alone (folding the whole text first joined a combining mark at a value's start to the separator).
    package static func folded(_ text: String, of property: MediaProperty) -> String {
        guard property.spec.multiValued else { return TextFolding.folded(text) }
        return MediaProperty.splitValues(text).map(TextFolding.folded).joined(separator: MediaProperty.valueSeparator)
    }

    /// The stored type of each of `scanColumnNames` (PostgreSQL's batch writer binds a typed array per column).
    package static let scanColumnTypes: [SQLColumnType] = [.bytes, .text, .bytes, .text]
        + fileDerived.map { SQLColumnType($0.spec.type) } + searchable.map { _ in .text }
        + Array(repeating: .integer, count: 11)

    /// One read file's values for `scanColumnNames`.
    package static func scanRowValues(_ item: MediaItem, _ stamp: FileStamp, _ fingerprint: Int64, _ device: Int64?,
                                      _ ends: EndHashes?, _ reader: Int?, birth: Int64? = nil) -> [SQLValue] {
        var values: [SQLValue] = [.bytes(item.path.bytes), .text(item.path.string), .bytes(item.path.directory.bytes),
                                  tagsJSON(item.tags).map(SQLValue.text) ?? .null]
        for p in fileDerived { values.append(columnValue(item[p], as: p.spec.type)) }
        for p in searchable { values.append(item[p]?.text.map { .text(folded($0, of: p)) } ?? .null) }
        values += [.integer(stamp.mtimeNanoseconds), .integer(stamp.inode), device.sqlValue, .integer(fingerprint),
                   ends.map { .integer($0.head) } ?? .null, ends.map { .integer($0.tail) } ?? .null, .integer(0), .null,
                   reader.sqlValue, (ends?.payload).map(SQLValue.integer) ?? .null, birth.sqlValue]
        return values
    }
}

/// The four column types of the schema.
package enum SQLColumnType: Sendable {
    case integer, real, text, bytes

    package init(_ type: MediaProperty.ValueType) {
        switch type {
        case .text, .date: self = .text
        case .integer, .mediaType, .bool: self = .integer
        case .real, .timestamp, .duration: self = .real
        }
    }
}
