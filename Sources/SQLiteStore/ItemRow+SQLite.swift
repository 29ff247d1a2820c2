import Foundation
import GRDB
import MediaIndex
import MediaModel

// Items to and from SQLite rows (GRDB's DatabaseValue): the SQLite half of `ItemRow`.
extension ItemRow {
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

    static func fileColumnValues(_ item: MediaItem) -> [DatabaseValue] {
        var values: [DatabaseValue] = [
            Data(item.path.bytes).databaseValue, item.path.string.databaseValue,
            Data(item.path.directory.bytes).databaseValue, encodeTags(item.tags),
        ]
        for p in fileDerived { values.append(databaseValue(item[p])) }
        for p in searchable { values.append(item[p]?.text.map { TextFolding.folded($0).databaseValue } ?? .null) }
        return values
    }

    static func encodeTags(_ tags: [String: String]) -> DatabaseValue {
        tagsJSON(tags)?.databaseValue ?? .null
    }

    static func decodeTags(_ dbValue: DatabaseValue) -> [String: String] {
        tags(fromJSON: String.fromDatabaseValue(dbValue))
    }
}
