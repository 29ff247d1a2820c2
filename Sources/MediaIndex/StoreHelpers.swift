import Foundation
import MediaModel

// Small rules both dialects apply the same way.

extension MediaPath {
    /// Byte range of paths strictly below this directory: [dir + "/", dir + "0") — "0" is the byte after "/".
    /// Both stores keep paths as bytes, so `dir >= lower AND dir < upper` is an index range scan.
    package var rangeBelow: (lower: Data, upper: Data) {
        let prefix = bytes.last == UInt8(ascii: "/") ? bytes : bytes + [UInt8(ascii: "/")]
        return (Data(prefix), Data(prefix.dropLast() + [UInt8(ascii: "0")]))
    }
}

extension MediaGrouping {
    /// True when the grouping puts an item in one group per value: one key part, on multi-valued properties
    /// (`MediaGrouping.eachValueProperty`).
    package var groupsByEachValue: Bool {
        guard keyParts.count == 1 else { return false }
        let part = keyParts[0]
        return part.property.spec.multiValued && (part.fallback?.spec.multiValued ?? true)
    }
}

extension ItemRow {
    /// The tag map as a JSON object with sorted keys (equal maps give equal text), through MediaModel's
    /// JSONValue writer: Foundation's JSONSerialization with sorted keys cost more than the SQLite insert.
    package static func tagsJSON(_ tags: [String: String]) -> String? {
        guard !tags.isEmpty else { return nil }
        return JSONValue.object(tags.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }).serialized()
    }

    /// The tag map stored as `tagsJSON` wrote it; empty for NULL or text that is not a string map.
    package static func tags(fromJSON text: String?) -> [String: String] {
        guard let text, let object = JSONValue.stringMap(parsing: text) else { return [:] }
        return object
    }
}
